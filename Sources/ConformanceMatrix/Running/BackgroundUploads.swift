import ExtensionRuntime
import Foundation
import PackageSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `sharing` carries the uploads extensions' background sessions hand over: each with a session of its own,
/// as the extension made the request, its body read from the file it handed over. Of the server's answer the
/// host keeps its status: the task is cancelled as the status and headers reach the delegate, so a server that
/// streams a gigabyte back costs the host what arrives meanwhile. (Letting the body come and dropping it is not
/// enough: Foundation on Linux reads it into memory as fast as the server sends and queues it for the delegate,
/// which a busy machine leaves behind — the host's peak grew by 1.35 GB for a 1 GB answer.)
enum BackgroundUploads {
    static let carry: BackgroundUploader = { transfer, body in
        guard let url = URL(string: transfer.url) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = transfer.method
        for field in transfer.headers {
            guard let colon = field.firstIndex(of: ":") else { continue }
            request.setValue(String(field[field.index(after: colon)...].dropFirst()), forHTTPHeaderField: String(field[..<colon]))
        }
        let answer = Answer()
        let session = URLSession(configuration: .ephemeral, delegate: answer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, Error>) in
                answer.ended.withLock { $0 = { continuation.resume(with: $0) } }
                session.uploadTask(with: request, fromFile: body).resume()
            }
        } onCancel: {
            session.invalidateAndCancel()
        }
    }

    /// The server's answer: its status kept, and the task cancelled before the rest is read.
    // @unchecked: a URLSession delegate (an NSObject) whose state is under its locks.
    private final class Answer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let ended = Locked<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        private let status = Locked(0)

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode ?? 0 }
            // Foundation on Linux ignores the disposition: the task is cancelled itself.
            dataTask.cancel()
            completionHandler(.cancel)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            // Ended here once the status came (a cancellation); any other error, or none before a status, is the
            // transfer's.
            let answered = status.withLock { $0 }
            let result: Result<Int, any Error> = answered != 0 ? .success(answered) : .failure(error ?? URLError(.badServerResponse))
            ended.withLock { ending in
                ending?(result)
                ending = nil
            }
        }
    }
}
