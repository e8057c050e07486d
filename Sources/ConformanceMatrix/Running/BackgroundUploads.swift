import ExtensionRuntime
import Foundation
import PackageSupport
import SharingSystem
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `sharing` carries the uploads extensions' background sessions hand over: each with a session of its own,
/// as the extension made the request, its body read from the file it handed over. Of the server's answer the
/// host keeps its status and nothing else: the session's delegate is a task delegate only, not a data delegate,
/// so Foundation drops each piece of the body as libcurl reads it, and the task is cancelled once the status has
/// come. (A data delegate is not enough, even one that cancels at the status: Foundation on Linux reads the body
/// as fast as the server sends it and queues every piece for the delegate, which a busy machine leaves behind —
/// the host's peak grew by up to 698 MB of a 4 GB answer before the cancel took.)
enum BackgroundUploads {
    /// How often the status is looked for while the task runs: a task delegate is not told of it.
    static let statusCheck: Duration = .milliseconds(5)

    static let carry: BackgroundUploader = { transfer, body in
        guard let url = URL(string: transfer.url) else { throw URLError(.badURL) }
        // A run's network is this machine's loopback, the host's carrying included: otherwise a run's report
        // would hang on the machine's network, and an extension could send through its host what its own
        // connections may not.
        guard let host = url.host, Loopback.contains(host: host) else {
            throw NSError(domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet, userInfo: [
                NSLocalizedDescriptionKey: "refused, as every run's network beyond this machine's loopback is: \(url.host ?? "no host") is not 127.0.0.1; "
                    + "serve the upload's endpoint on 127.0.0.1 to test it",
            ])
        }
        var request = URLRequest(url: url)
        request.httpMethod = transfer.method
        for field in transfer.headers {
            guard let colon = field.firstIndex(of: ":") else { continue }
            request.setValue(String(field[field.index(after: colon)...].dropFirst()), forHTTPHeaderField: String(field[..<colon]))
        }
        let ending = Ending()
        let session = URLSession(configuration: .ephemeral, delegate: ending, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.uploadTask(with: request, fromFile: body)
        // The status, as soon as the response's head is in: then the rest is not read.
        let watch = Task {
            while !Task.isCancelled, task.state == .suspended || task.state == .running {
                if let response = task.response as? HTTPURLResponse {
                    ending.answered(response.statusCode)
                    task.cancel()
                    return
                }
                try? await Task.sleep(for: statusCheck)
            }
        }
        defer { watch.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, Error>) in
                ending.ended.withLock { $0 = { continuation.resume(with: $0) } }
                task.resume()
            }
        } onCancel: {
            session.invalidateAndCancel()
        }
    }

    /// How the task ended: with the status it was cancelled at, or the one it completed with, or its error.
    // @unchecked: a URLSession delegate (an NSObject) whose state is under its locks.
    private final class Ending: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        let ended = Locked<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        private let status = Locked(0)

        /// The server's status, seen before the task is cancelled for it.
        func answered(_ code: Int) {
            status.withLock { $0 = code }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            // A status seen before the cancel, or the one of a task that completed; any other error, or none
            // without a status, is the transfer's.
            let seen = status.withLock { $0 }
            let completed = error == nil ? (task.response as? HTTPURLResponse)?.statusCode : nil
            let result: Result<Int, any Error> = if seen != 0 {
                .success(seen)
            } else if let completed {
                .success(completed)
            } else {
                .failure(error ?? URLError(.badServerResponse))
            }
            ended.withLock { ending in
                ending?(result)
                ending = nil
            }
        }
    }
}
