@testable import ExtensionRuntime
import Foundation
import MachineLoad
import OpenUserNotifications
import Testing

/// Notification service extensions as processes: the example services (`NotificationProber` does what each
/// payload's `probe` key says), through `ExtensionHost.deliver`.
@Suite("Notification service extensions, hosted")
struct NotificationServiceTests {
    /// A payload asking for the extension, with a title and body, and these keys beside `aps`.
    static func push(_ extra: [String: Any] = [:], mutable: Bool = true, title: String = "Ana") -> [String: Any] {
        var aps: [String: Any] = ["alert": ["title": title, "body": "At noon?"]]
        if mutable { aps["mutable-content"] = 1 }
        return extra.merging(["aps": aps]) { _, new in new }
    }

    struct Delivered {
        var runs: NotificationRuns
        var store: URL
        var deliveries: [NotificationDelivery] { runs.deliveries }
    }

    /// Delivers `payloads` through the example `example`, in a directory removed afterwards; `inspect` sees the
    /// result while the data store still exists.
    private func deliver(_ payloads: [[String: Any]], through example: String = "NotificationProber", limits: ExtensionLimits? = nil,
                         device: String? = nil, filtering: Bool = false, prepare: (URL) throws -> Void = { _ in },
                         _ inspect: (Delivered) throws -> Void) async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make(example, in: directory))
        let groups = directory.appendingPathComponent("groups")
        try prepare(groups)
        let pushes = try payloads.enumerated().map { index, payload in
            try PushPayload(json: JSONSerialization.data(withJSONObject: payload), name: "payload-\(index + 1).json")
        }
        let store = directory.appendingPathComponent("store")
        let host = ExtensionHost(limits: limits, device: device.flatMap(DeviceClass.named), appGroupContainers: groups)
        let runs = try await host.deliver(pushes, to: bundle, dataStore: store, allowsFiltering: filtering)
        try inspect(Delivered(runs: runs, store: store))
    }

    /// The process identifier and the instance's count of notifications the prober writes at the end of the body.
    private func served(_ delivery: NotificationDelivery) -> (pid: Int, count: Int, mainThread: Bool)? {
        let body = delivery.content.body
        guard let open = body.range(of: "(pid ", options: .backwards) else { return nil }
        let parts = body[open.upperBound...].split(whereSeparator: { " ,)".contains($0) })
        guard parts.count >= 6, let pid = Int(parts[0]), let count = Int(parts[2]) else { return nil }
        return (pid, count, parts[5] == "true")
    }

    /// Limits with a short request time, for the tests that wait for it to run out.
    private static let quick = ExtensionLimits(memory: 24 << 20, request: .seconds(1), grace: .milliseconds(500))

    @Test("several payloads go through one process, as iOS reuses it, each to didReceive on the main thread; one not asking for the extension is shown as it is, in its place")
    func reuse() async throws {
        try await deliver([Self.push(), Self.push(), Self.push(mutable: false, title: "Plain"), Self.push()]) { result in
            #expect(result.runs.processes.count == 1)
            #expect(result.deliveries.map(\.shown) == [.modified, .modified, .original, .modified])
            #expect(result.deliveries.map(\.status) == [.completed, .completed, nil, .completed])
            #expect(result.deliveries[2].reason == "the payload has no mutable-content")
            #expect(result.deliveries[2].content.title == "Plain" && !result.deliveries[2].isFault)
            let served = [0, 1, 3].compactMap { self.served(result.deliveries[$0]) }
            #expect(served.count == 3)
            #expect(Set(served.map(\.pid)).count == 1, "one process")
            #expect(served.map(\.count) == [1, 2, 3], "one service instance, reused")
            #expect(served.allSatisfy { $0.mainThread })
            #expect(result.deliveries[0].content.title == "edited: Ana")
            #expect(result.deliveries.allSatisfy { $0.handlerCalls == ($0.status == nil ? 0 : 1) })
            #expect(result.deliveries[0].peakFootprint > 0)
        }
    }

    @Test("a handler called twice counts once: the first content is shown, and the report counts the calls")
    func calledTwice() async throws {
        try await deliver([Self.push(["probe": "double"]), Self.push()]) { result in
            #expect(result.deliveries[0].shown == .modified)
            #expect(result.deliveries[0].content.title == "first")
            #expect(result.deliveries[0].handlerCalls == 2)
            #expect(result.deliveries[1].content.title == "edited: Ana", "the next notification is not confused by the extra call")
        }
    }

    @Test("a handler called again half a second after the last notification's first call is counted, ten runs of ten, side by side")
    func calledTwiceLate() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await deliver([Self.push(["probe": "late-double"])]) { result in
                        #expect(result.deliveries[0].content.title == "first")
                        #expect(result.deliveries[0].handlerCalls == 2)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("when time runs out, serviceExtensionTimeWillExpire() runs on another thread and its content is shown, marked expired", arguments: ["expire", "block-main"])
    func expiry(probe: String) async throws {
        try await deliver([Self.push(["probe": probe]), Self.push()], limits: Self.quick) { result in
            let expired = result.deliveries[0]
            #expect(expired.shown == .modified && expired.expired && expired.status == .completed)
            #expect(expired.content.title.hasPrefix("best attempt"))
            #expect(expired.content.subtitle == "expiry on the main thread: false")
            if probe == "expire" {
                #expect(result.deliveries[1].shown == .modified && !result.deliveries[1].expired)
            } else {
                // The main thread stays stuck: the next notification's didReceive never runs, and its time runs out.
                #expect(result.deliveries[1].shown == .original && result.deliveries[1].status == .interruptedTimeout)
            }
            #expect(result.runs.processes.count == 1)
        }
    }

    @Test("a handler never called, nor on expiry: the original is shown after the time and the grace, and the next payload gets a new process")
    func neverCalled() async throws {
        try await deliver([Self.push(["probe": "expire-silent"]), Self.push()], limits: Self.quick) { result in
            let silent = result.deliveries[0]
            #expect(silent.shown == .original && silent.status == .interruptedTimeout && silent.isFault)
            #expect(silent.reason == "the content handler was not called in time, nor from serviceExtensionTimeWillExpire()")
            #expect(silent.content.title == "Ana" && silent.content.body == "At noon?")
            #expect(result.runs.processes.count == 2)
            #expect(result.deliveries[1].shown == .modified && served(result.deliveries[1])?.count == 1)
        }
    }

    @Test("empty content suppresses the notification with the filtering entitlement; without it, the original is shown and the report says why", arguments: [true, false])
    func suppression(filtering: Bool) async throws {
        try await deliver([Self.push(["probe": "suppress"])], filtering: filtering) { result in
            let delivery = result.deliveries[0]
            #expect(delivery.shown == (filtering ? .suppressed : .original))
            #expect(delivery.isFault == !filtering)
            #expect(delivery.reason?.contains(filtering ? "has the filtering entitlement" : "without the filtering entitlement") == true)
        }
    }

    @Test("a crash shows the original with the signal and the extension's last words; the next payload starts a new process")
    func crash() async throws {
        try await deliver([Self.push(), Self.push(["probe": "crash"]), Self.push()]) { result in
            #expect(result.deliveries.map(\.shown) == [.modified, .original, .modified])
            #expect(result.deliveries[1].status == .crashed)
            #expect(result.runs.processes.count == 2)
            let log = result.runs.processes[0].lastWords().joined(separator: "\n")
            #expect(log.contains("the probe crashes on purpose"), "\(log)")
            // A new process has a new service: its count starts again.
            #expect([0, 2].compactMap { self.served(result.deliveries[$0])?.count } == [1, 1])
            #expect(result.deliveries[2].process == 1)
        }
    }

    @Test("over 24 MB the service is killed and the original shown; within it, its content", arguments: [(64, false), (4, true)])
    func memory(megabytes: Int, survives: Bool) async throws {
        try await deliver([Self.push(["probe": "hog", "megabytes": megabytes])]) { result in
            let delivery = result.deliveries[0]
            #expect(delivery.shown == (survives ? .modified : .original))
            #expect(delivery.status == (survives ? .completed : .interruptedMemory))
            if !survives { #expect(delivery.reason?.contains("over its memory limit of 24.0 MB") == true) }
        }
    }

    @Test("userInfo holding what secure coding refuses crashes the extension, and its last words say what and where")
    func unsendable() async throws {
        try await deliver([Self.push(["probe": "unsendable"])]) { result in
            #expect(result.deliveries[0].status == .crashed)
            let log = result.runs.processes[0].lastWords().joined(separator: "\n")
            #expect(log.contains("userInfo[\"object\"] holds a NSObject"), "\(log)")
        }
    }

    @Test("attachments: init refuses with codes 100, 101, 102 and 105; the host moves the rest into the data store, or drops one whose file went (104)")
    func attachments() async throws {
        let files: [[String: Any]] = [
            ["id": "photo", "name": "photo.png", "bytes": "png", "size": 2048],
            ["id": "misnamed", "name": "misnamed.png", "bytes": "jpeg", "size": 2048],
            ["id": "hinted", "name": "download.tmp", "bytes": "png", "size": 100, "hint": "public.png"],
            ["id": "web", "url": "https://example.com/x.png"],
            ["id": "tmp", "name": "other.tmp", "bytes": "png", "size": 100],
            ["id": "large", "name": "large.jpg", "bytes": "jpeg", "size": 10_000_001],
            ["id": "text", "name": "text.png", "bytes": "text", "size": 100],
            ["id": "deleted", "name": "deleted.png", "bytes": "png", "size": 100, "delete": true],
            ["id": "grouped", "name": "grouped.gif", "bytes": "gif", "size": 64, "in-group": true],
        ]
        var groups: URL?
        try await deliver([Self.push(["probe": "attach", "attachments": files])], prepare: { groups = $0 }) { result in
            let delivery = result.deliveries[0]
            #expect(delivery.shown == .modified)
            #expect(delivery.content.subtitle == "refused web:100,tmp:101,large:102,text:105")
            let stored = delivery.content.attachments
            #expect(stored.map(\.identifier) == ["photo", "misnamed", "hinted", "grouped"])
            #expect(stored.map(\.type) == ["public.png", "public.jpeg", "public.png", "com.compuserve.gif"])
            #expect(stored.map(\.size) == [2048, 2048, 100, 64])
            // Moved, as iOS moves them: gone from the app group the extension wrote it in.
            let grouped = try #require(groups).appendingPathComponent("group.org.opensharing.examples/grouped.gif")
            #expect(!FileManager.default.fileExists(atPath: grouped.path))
            for attachment in stored {
                #expect(attachment.url.path.hasPrefix(result.store.path + "/"))
                #expect((try? Data(contentsOf: attachment.url).count) == attachment.size)
            }
            #expect(delivery.rejectedAttachments.map(\.identifier) == ["deleted"])
            #expect(delivery.rejectedAttachments.first?.code == .attachmentMoveIntoDataStoreFailed)
            #expect(delivery.rejectedAttachments.first?.message.contains("deleted.png was gone") == true)
        }
    }

    @Test("the notification center: categories set and read back, notifications shown before listed; an attachment of a removed one is no longer in the data store (103)")
    func center() async throws {
        let photo: [[String: Any]] = [["id": "photo", "name": "photo.png", "bytes": "png", "size": 512]]
        try await deliver([
            Self.push(["probe": "attach", "attachments": photo], title: "First"),
            Self.push(["probe": "center", "reattach": true]),
            Self.push(["probe": "center", "reattach": true, "remove": true]),
        ]) { result in
            #expect(result.runs.processes.count == 1)
            let kept = result.deliveries[1], removed = result.deliveries[2]
            #expect(kept.content.title == "categories message[reply]")
            #expect(kept.content.subtitle == "delivered First")
            #expect(kept.content.attachments.map(\.identifier) == ["photo"], "an attachment in the data store is copied again")
            #expect(removed.content.subtitle == "delivered First|categories message[reply]")
            #expect(removed.content.attachments.isEmpty)
            #expect(removed.rejectedAttachments.map(\.code) == [.attachmentNotInDataStore])
        }
    }

    @Test("DecryptingService opens the ciphertext with the key the app shares in its app group; without the key, the placeholder stays")
    func decrypting() async throws {
        let key = Array("a key the app shares".utf8)
        let message = try JSONSerialization.data(withJSONObject: ["sender": "Ana", "text": "Lunch at noon?", "conversation": "chat-7"])
        let sealed = Data(message.enumerated().map { $0.element ^ key[$0.offset % key.count] }).base64EncodedString()
        let payload = Self.push(["ciphertext": sealed], title: "New message")
        for hasKey in [true, false] {
            try await deliver([payload], through: "DecryptingService", prepare: { groups in
                guard hasKey else { return }
                let group = groups.appendingPathComponent("group.org.opensharing.examples")
                try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
                try Data(key).write(to: group.appendingPathComponent("message.key"))
            }) { result in
                let content = result.deliveries[0].content
                #expect(result.deliveries[0].shown == .modified)
                #expect(content.title == (hasKey ? "Ana" : "New message"))
                #expect(content.body == (hasKey ? "Lunch at noon?" : "At noon?"))
                #expect(content.threadIdentifier == (hasKey ? "chat-7" : ""))
            }
        }
    }

    @Test("SilentService: didReceive on the main thread, the expiry on another, the original shown")
    func silent() async throws {
        try await deliver([Self.push()], through: "SilentService", limits: Self.quick) { result in
            #expect(result.deliveries[0].status == .interruptedTimeout)
            let log = result.runs.processes[0].log
            #expect(log.contains("on the main thread: true"), "\(log)")
            #expect(log.contains("serviceExtensionTimeWillExpire on the main thread: false"), "\(log)")
        }
    }

    @Test("BannerRenderer draws at the screen's scale: fine on a scale-2 phone, killed at 24 MB on a scale-3 one; BundledAttachment works on both", arguments: [
        ("BannerRenderer", "iphone-se-2", true), ("BannerRenderer", "iphone-13", false),
        ("BundledAttachment", "iphone-se-2", true), ("BundledAttachment", "iphone-13", true),
    ])
    func screens(example: String, device: String, works: Bool) async throws {
        try await deliver([Self.push()], through: example, device: device) { result in
            let delivery = result.deliveries[0]
            #expect(delivery.status == (works ? .completed : .interruptedMemory), "\(delivery.reason ?? "")")
            #expect(delivery.content.attachments.map(\.type) == (works ? ["public.jpeg"] : []))
            if works { #expect(delivery.peakFootprint < 24 << 20) }
        }
    }
}

/// A download slower than the time limit, through Foundation's URLSession, whose threads on Linux poll while the
/// download waits on the network: the time is the device's, quiet or beside busy loops.
struct SlowDownloadTests {
    /// A server on 127.0.0.1 that answers one GET with its headers at once and its 10-byte body `seconds` later.
    final class SlowServer {
        let url: URL
        private let process = Process()

        init(seconds: Double) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", """
                import http.server, sys, time
                class Slow(http.server.BaseHTTPRequestHandler):
                    def do_GET(self):
                        self.send_response(200); self.send_header("Content-Length", "10"); self.end_headers(); self.wfile.flush()
                        time.sleep(\(seconds)); self.wfile.write(b"0123456789")
                    def log_message(self, *arguments): pass
                server = http.server.HTTPServer(("127.0.0.1", 0), Slow)
                print(server.server_address[1], flush=True)
                server.handle_request()
                """]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty { line += byte }
            url = URL(string: "http://127.0.0.1:\(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))/image.png")!
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// A 3-second download under a 2-second limit: the expiry's content is shown, marked expired, before the download ends.
    func expiresBeforeTheDownload() async throws {
        let server = try SlowServer(seconds: 3)
        defer { server.stop() }
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("DownloadingService", in: directory))
        let payload = NotificationServiceTests.push(["url": server.url.absoluteString])
        let push = try PushPayload(json: JSONSerialization.data(withJSONObject: payload), name: "payload.json")
        let host = ExtensionHost(limits: ExtensionLimits(memory: 120 << 20, request: .seconds(2), grace: .milliseconds(500)))
        let runs = try await host.deliver([push], to: bundle, dataStore: directory.appendingPathComponent("store"))
        let delivery = try #require(runs.deliveries.first)
        #expect(delivery.expired && delivery.content.title == "before the download", "\(delivery.content.title), expired: \(delivery.expired)")
    }

}

/// Apart from the parallel suite (`make test` runs the suites named BusyMachine one at a time): a machine as loaded
/// as the whole suite makes it (dozens of processes) keeps a polling thread waiting more than a wake-up's wait at
/// each slice, and the credit comes back (docs/runtime.md, Time).
@Suite("A busy machine: a notification service's slow download")
struct BusyMachineSlowDownloadTests {
    @Test("quiet and beside two busy loops: the expiry's content all the same, the polling threads' waits for a core not credited", arguments: [0, 2])
    func download(loops count: Int) async throws {
        let loops = try BusyLoops(count)
        defer { loops.stop() }
        try await SlowDownloadTests().expiresBeforeTheDownload()
    }
}
