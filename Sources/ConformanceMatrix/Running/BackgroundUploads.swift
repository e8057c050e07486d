import ExtensionRuntime
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `sharing` carries the uploads extensions' background sessions hand over: each with a session of its own,
/// as the extension made the request, its body read from the file it handed over.
enum BackgroundUploads {
    static let carry: BackgroundUploader = { transfer, body in
        guard let url = URL(string: transfer.url) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = transfer.method
        for field in transfer.headers {
            guard let colon = field.firstIndex(of: ":") else { continue }
            request.setValue(String(field[field.index(after: colon)...].dropFirst()), forHTTPHeaderField: String(field[..<colon]))
        }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, Error>) in
                session.uploadTask(with: request, fromFile: body) { _, response, error in
                    if let error { return continuation.resume(throwing: error) }
                    continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
                }.resume()
            }
        } onCancel: {
            session.invalidateAndCancel()
        }
    }
}
