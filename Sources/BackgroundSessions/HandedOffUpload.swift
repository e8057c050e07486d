#if os(Linux)
import ExtensionRuntime
import Foundation
import FoundationNetworking
import OpenItemProvider
import PackageSupport

/// How a background session's task loads: an upload from a file is handed to the host with its request, which
/// carries it to its end whether or not the extension's process lives that long; the task ends when the host
/// says it has, while the process lives. As on iOS, a session without a shared container fails the task
/// (`NSURLErrorBackgroundSessionRequiresSharedContainer`), and an upload from data stops the program ("Upload
/// tasks from NSData are not supported in background sessions"). Other tasks load in the process, through a
/// default session.
///
/// Foundation asks whether a protocol takes a task as the task resumes, and starts it a moment later on a queue
/// of its own: an extension that resumes its upload and completes at once would end before the upload was
/// handed over. So from that question until the start hands the upload over, the process holds an activity,
/// and does not end.
///
/// What the task was made with (its body, its session) Foundation on Linux keeps to itself: read through
/// `Mirror`, and tested, since a Foundation that kept them otherwise would leave every task to load in the
/// process.
final class HandedOffUpload: URLProtocol {
    /// The activities held for tasks taken and not yet started, oldest first.
    private static let starting = Locked<[Int]>([])
    /// The in-process load of a task that is not an upload from a file.
    private let relay = Locked<URLSessionDataTask?>(nil)

    override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        let activity = ProcessActivities.begin()
        starting.withLock { $0.append(activity) }
        return true
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        defer {
            if let activity = Self.starting.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { ProcessActivities.end(activity) }
        }
        guard let task, let url = request.url else { return fail(URLError(.unknown)) }
        switch TaskInternals.body(of: task) {
        case .file(let body)?:
            handOff(url, body: body, task: task)
        case .data?:
            // iOS raises NSGenericException here, which ends the extension.
            fatalError("Upload tasks from NSData are not supported in background sessions.")
        case .other?, nil:
            loadInProcess()
        }
    }

    /// Hands the upload to the host.
    private func handOff(_ url: URL, body: URL, task: URLSessionTask) {
        let configuration = TaskInternals.session(of: task)?.configuration
        guard let shared = configuration?.sharedContainerIdentifier, !shared.isEmpty else {
            return fail(URLError(.backgroundSessionRequiresSharedContainer))
        }
        var fields: [String: String] = [:]
        for (name, value) in configuration?.httpAdditionalHeaders ?? [:] {
            if let name = name as? String { fields[name] = "\(value)" }
        }
        fields.merge(request.allHTTPHeaderFields ?? [:]) { _, own in own }
        let transfer = WireTransfer(session: configuration?.identifier ?? "", sharedContainer: shared, method: request.httpMethod ?? "GET",
                                    url: url.absoluteString,
                                    headers: fields.sorted { $0.key < $1.key }.map { WireHeader(name: $0.key, value: $0.value) })
        // Foundation calls its protocols from its own queue, and the client may be told from any thread.
        nonisolated(unsafe) let loading = self
        if let refused = ExtensionProcess.handOff(transfer, body: body, ended: { status, error in loading.ended(url, status: status, error: error) }) {
            fail(URLError(refused))
        }
    }

    /// Loads the request through a default session, passing on what it gets: made and resumed off this queue,
    /// which Foundation's sessions share, and on which making a task waits.
    private func loadInProcess() {
        nonisolated(unsafe) let loading = self
        let request = request
        DispatchQueue.global().async {
            let load = URLSession(configuration: .default).dataTask(with: request) { data, response, error in
                if let error {
                    loading.client?.urlProtocol(loading, didFailWithError: error)
                    return
                }
                if let response { loading.client?.urlProtocol(loading, didReceive: response, cacheStoragePolicy: .notAllowed) }
                if let data { loading.client?.urlProtocol(loading, didLoad: data) }
                loading.client?.urlProtocolDidFinishLoading(loading)
            }
            loading.relay.withLock { $0 = load }
            load.resume()
        }
    }

    /// An upload the host carries goes on, as nothing stops iOS's; a load in the process stops.
    override func stopLoading() {
        relay.withLock { $0 }?.cancel()
    }

    private func ended(_ url: URL, status: Int32, error: RemoteError?) {
        if let error { return fail(URLError(error)) }
        guard let response = HTTPURLResponse(url: url, statusCode: Int(status), httpVersion: "HTTP/1.1", headerFields: nil) else {
            return fail(URLError(.badServerResponse))
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocolDidFinishLoading(self)
    }

    private func fail(_ error: URLError) {
        client?.urlProtocol(self, didFailWithError: error)
    }
}

extension URLError {
    /// The error the host gave, with its code where it is one of URLError's.
    init(_ remote: RemoteError) {
        self.init(URLError.Code(rawValue: Int(remote.code)) ?? .unknown, userInfo: [NSLocalizedDescriptionKey: remote.message])
    }
}

/// What a task of Foundation on Linux was made with, read through `Mirror`: the body it uploads and its session.
enum TaskInternals {
    enum Body {
        case file(URL), data, other
    }

    static func body(of task: URLSessionTask) -> Body? {
        guard let value = field("knownBody", of: task).flatMap(unwrapped) else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return nil }
        switch mirror.children.first?.label {
        case "file": return (mirror.children.first?.value as? URL).map(Body.file) ?? .other
        case "data": return .data
        default: return .other
        }
    }

    static func session(of task: URLSessionTask) -> URLSession? {
        field("session", of: task).flatMap(unwrapped) as? URLSession
    }

    /// The stored property `name` of `object`, in its class or one it inherits from.
    private static func field(_ name: String, of object: AnyObject) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == name }) { return child.value }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The value an optional holds, `nil` for none; anything else as it is.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}
#endif
