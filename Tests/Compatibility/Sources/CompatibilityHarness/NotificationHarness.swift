#if canImport(ExtensionRuntime)
public import ExtensionRuntime
public import Foundation
public import SharingShim

/// A notification as shown: whose content, what it says, and the types of its attachments.
public struct ShownNotification: Sendable, Equatable, CustomStringConvertible {
    /// `modified`, `original` or `suppressed`.
    public var shown: String
    public var title: String
    public var body: String
    public var attachmentTypes: [String]

    public init(shown: String, title: String, body: String, attachmentTypes: [String]) {
        self.shown = shown
        self.title = title
        self.body = body
        self.attachmentTypes = attachmentTypes
    }

    public var description: String { "\(shown): \"\(title)\" \"\(body)\" \(attachmentTypes)" }
}

/// Delivers a push payload to a notification service twice: in this process (`didReceive` on the main
/// thread, `serviceExtensionTimeWillExpire()` on another when the time runs out), and as its own process — its
/// bundle, made by `swift package appex`, run by `ExtensionRuntime`. The two must show alike; the in-process
/// one is returned.
public enum NotificationHarness {
    /// Delivers `payload` (a JSON object) to `service`, the filtering entitlement granted or not, with
    /// `timeLimit` before the expiry.
    public static func deliver(_ service: UNNotificationServiceExtension, payload: [String: Any], filtering: Bool = false,
                               timeLimit: Duration = .seconds(30)) async throws -> ShownNotification {
        let push = try PushPayload(json: JSONSerialization.data(withJSONObject: payload), name: "payload.json")
        let here = await deliverHere(service, push, filtering: filtering, timeLimit: timeLimit)
        let (module, runs) = try await deliverAsProcess(service, push, filtering: filtering, timeLimit: timeLimit)
        let delivery = runs.deliveries[0]
        let there = ShownNotification(shown: delivery.shown.rawValue, title: delivery.content.title, body: delivery.content.body,
                                      attachmentTypes: delivery.content.attachments.map(\.type))
        guard here == there else {
            let log = runs.processes.first?.lastWords().joined(separator: " | ") ?? ""
            throw Unalike(bundle: module, here: "\(here)", there: "\(there) (\(delivery.reason ?? "no reason")); its log: \(log)")
        }
        return here
    }

    /// The run of `service`'s process delivered `payload`: what was shown, and what the process did (its
    /// findings, the Darwin notifications it posted).
    public static func asProcess(_ service: UNNotificationServiceExtension, payload: [String: Any]) async throws -> NotificationRuns {
        let push = try PushPayload(json: JSONSerialization.data(withJSONObject: payload), name: "payload.json")
        return try await deliverAsProcess(service, push, filtering: false, timeLimit: .seconds(30)).runs
    }

    /// `push` delivered to the bundle of `service`'s module, made by `swift package appex`, as its own process.
    private static func deliverAsProcess(_ service: UNNotificationServiceExtension, _ push: PushPayload, filtering: Bool,
                                         timeLimit: Duration) async throws -> (module: String, runs: NotificationRuns) {
        let module = String(reflecting: type(of: service)).split(separator: ".").first.map(String.init) ?? ""
        let bundle = ExtensionHarness.bundles.appendingPathComponent("\(module).appex")
        guard FileManager.default.fileExists(atPath: bundle.path) else { throw MissingBundle(path: bundle.path) }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-data-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        var limits = ExtensionLimits.defaults(forExtensionPoint: "com.apple.usernotifications.service")
        limits.request = timeLimit
        return (module, try await ExtensionHost(limits: limits).deliver([push], to: ExtensionBundle(url: bundle), dataStore: store,
                                                                         allowsFiltering: filtering))
    }

    /// The first content a handler was given, and how many times it was called.
    private final class Handed: @unchecked Sendable {
        private let lock = NSLock()
        private var first: UNNotificationContent?
        private(set) var calls = 0

        func record(_ content: UNNotificationContent) {
            lock.lock()
            defer { lock.unlock() }
            calls += 1
            if first == nil { first = content }
        }

        var content: UNNotificationContent? {
            lock.lock()
            defer { lock.unlock() }
            return first
        }
    }

    private static func deliverHere(_ service: UNNotificationServiceExtension, _ push: PushPayload, filtering: Bool,
                                    timeLimit: Duration) async -> ShownNotification {
        let request = push.makeRequest()
        let handed = Handed()
        nonisolated(unsafe) let service = service
        // The expiry, as the runtime calls it: on a thread of its own when the time is up, its clock a thread's,
        // started in the same step as the request, so a test task that waits its turn on a busy machine does not
        // start it late; then a second's grace.
        let seconds = Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
        let deadline = await MainActor.run {
            service.didReceive(request) { handed.record($0) }
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: seconds)
                if handed.content == nil { service.serviceExtensionTimeWillExpire() }
            }
            return ContinuousClock.now + timeLimit + .seconds(1)
        }
        while handed.content == nil && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        let original = request.content
        guard let content = handed.content else {
            return ShownNotification(shown: "original", title: original.title, body: original.body, attachmentTypes: [])
        }
        if content.title.isEmpty && content.subtitle.isEmpty && content.body.isEmpty {
            return filtering ? ShownNotification(shown: "suppressed", title: "", body: "", attachmentTypes: [])
                : ShownNotification(shown: "original", title: original.title, body: original.body, attachmentTypes: [])
        }
        return ShownNotification(shown: "modified", title: content.title, body: content.body, attachmentTypes: content.attachments.map(\.type))
    }
}

/// A web server on 127.0.0.1 serving a directory, for extensions that download: Python's, on a port the
/// system chooses. It ends when its standard input closes: at `stop()`, which also reaps it, or when this
/// process ends, however it ends.
public final class LocalWebServer: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    /// `http://127.0.0.1:PORT`
    public let base: URL

    private static let script = """
        import functools, http.server, sys, threading
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        print(server.server_address[1], flush=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        sys.stdin.read()
        """

    /// Starts serving `directory`.
    public init(serving directory: URL) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, directory.path]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var said = Data()
        while !said.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        let line = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) else {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            throw ServerDidNotStart(said: line)
        }
        base = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Ends the server and reaps it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        var said: String
        var description: String { "the web server did not start (it said: \(said))" }
    }
}
#endif
