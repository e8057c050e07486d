import ExtensionRuntime
import Foundation
import PackageSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `sharing` carries the uploads extensions' background sessions hand over: each with a session of its own,
/// as the extension made the request, its body read from the file it handed over. Of the server's answer the
/// host keeps its status (and headers): the body is read and let go as it comes, so a server that streams a
/// gigabyte back costs the host nothing.
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

    /// The server's answer as it comes: its status kept, its body let go.
    // @unchecked: a URLSession delegate (an NSObject) whose state is under its locks.
    private final class Answer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let ended = Locked<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        private let status = Locked(0)

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode ?? 0 }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let result: Result<Int, any Error> = error.map { .failure($0) } ?? .success(status.withLock { $0 })
            ended.withLock { ending in
                ending?(result)
                ending = nil
            }
        }
    }
}
