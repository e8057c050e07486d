import Foundation
@testable import ShareInbox
import SharingFiles
import Testing

@Suite("The inbox")
struct ShareInboxTests {
    /// A fresh inbox in a temporary directory, removed afterwards.
    func withInbox<T>(lease: Duration = .seconds(600), _ body: (ShareInbox) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-inbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(try ShareInbox(at: directory, claimLease: lease))
    }

    /// Delivers a file with these bytes.
    @discardableResult
    func deliver(_ text: String, named name: String = "note.txt", into inbox: ShareInbox) throws -> InboxItem {
        let delivery = try inbox.beginDelivery()
        let data = Data(text.utf8)
        try data.write(to: delivery.payloadDirectory.appendingPathComponent(name))
        let hash = try SHA256Hasher.hash(fileAt: delivery.payloadDirectory.appendingPathComponent(name).path)
        return try delivery.deliver(InboxManifest(host: "test", type: "public.plain-text", name: name, size: Int64(data.count), sha256: hash))
    }

    func names(_ directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
    }

    @Test("a delivery appears whole in new/, with its manifest, and nothing stays in tmp/")
    func delivery() throws {
        try withInbox { inbox in
            let item = try deliver("hello", into: inbox)
            #expect(item.state == .pending)
            #expect(ShareInbox.isIdentifier(item.id))
            #expect(item.manifest.id == item.id && item.manifest.size == 5)
            #expect(item.manifest.sha256 == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
            #expect(abs(item.manifest.received.timeIntervalSinceNow) < 60)
            #expect(try String(contentsOf: item.payloadURL, encoding: .utf8) == "hello")
            #expect(try item.verify())
            #expect(try inbox.pending().map(\.id) == [item.id])
            #expect(names(inbox.url.appendingPathComponent("tmp")).isEmpty)
            #expect(names(item.url) == ["manifest.json", "payload"])
        }
    }

    @Test("several writers opening a new inbox at the same moment all succeed")
    func concurrentOpening() {
        for _ in 0..<50 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-inbox-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let failures = NSLock()
            nonisolated(unsafe) var errors: [String] = []
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try ShareInbox(at: directory)
                } catch {
                    failures.withLock { errors.append("\(error)") }
                }
            }
            #expect(errors.isEmpty)
        }
    }

    @Test("items list oldest first, even several begun in one millisecond; identifiers sort by time")
    func order() throws {
        try withInbox { inbox in
            var ids: [String] = []
            for index in 0..<20 {
                ids.append(try deliver("item \(index)", into: inbox).id)
            }
            #expect(try inbox.pending().map(\.id) == ids)
            #expect(ids == ids.sorted())
            // Beginning is quicker than a millisecond: identifiers still never tie or go back.
            let begun = try (0..<200).map { _ in try inbox.beginDelivery() }
            #expect(begun.map(\.id) == begun.map(\.id).sorted() && Set(begun.map(\.id)).count == 200)
            #expect(begun[0].id > ids.last!)
        }
    }

    @Test("a delivery released or discarded undelivered leaves nothing")
    func discarded() throws {
        try withInbox { inbox in
            do {
                let delivery = try inbox.beginDelivery()
                try Data("x".utf8).write(to: delivery.payloadDirectory.appendingPathComponent("x"))
            }
            let discarded = try inbox.beginDelivery()
            discarded.discard()
            #expect(throws: InboxError.self) { try discarded.deliver(InboxManifest(type: "public.data", name: "x", size: 1, sha256: "")) }
            #expect(names(inbox.url.appendingPathComponent("tmp")).isEmpty)
            #expect(try inbox.pending().isEmpty)
        }
    }

    @Test("a manifest must name its payload, a plain name, of the kind it says", arguments: ["missing.txt", "../escape", "a/b", "", ".."])
    func manifestChecks(_ name: String) throws {
        try withInbox { inbox in
            let delivery = try inbox.beginDelivery()
            try Data("x".utf8).write(to: delivery.payloadDirectory.appendingPathComponent("present.txt"))
            #expect(throws: InboxError.self) { try delivery.deliver(InboxManifest(type: "public.data", name: name, size: 1, sha256: "")) }
            #expect(try inbox.pending().isEmpty)
            #expect(names(inbox.url.appendingPathComponent("tmp")).isEmpty)
        }
    }

    @Test("claiming: one claimer wins, the item leaves new/; acknowledging removes it")
    func claims() throws {
        try withInbox { inbox in
            let item = try deliver("claim me", into: inbox)
            let claimed = try #require(try inbox.claim(id: item.id))
            #expect(claimed.state == .claimed && claimed.manifest == item.manifest)
            #expect(try inbox.claim(id: item.id) == nil)
            #expect(try inbox.pending().isEmpty && inbox.claimed().map(\.id) == [item.id])
            #expect(try inbox.claimNext() == nil)
            try inbox.acknowledge(claimed)
            #expect(try inbox.claimed().isEmpty)
            #expect(throws: InboxError.self) { try inbox.acknowledge(claimed) }
            for directory in ["new", "cur", "tmp"] { #expect(names(inbox.url.appendingPathComponent(directory)).isEmpty) }
        }
    }

    @Test("identifiers from outside are checked before they name a path", arguments: ["../../etc", "x", "0019a6b2c3d4e.1.zzzzzzzz", "/tmp/x", ""])
    func hostileIdentifiers(_ id: String) throws {
        try withInbox { inbox in
            #expect(throws: InboxError.self) { try inbox.claim(id: id) }
        }
    }

    @Test("a claim whose lease ended goes back to new/; a live one stays")
    func leases() throws {
        try withInbox(lease: .seconds(3600)) { inbox in
            let item = try deliver("leased", into: inbox)
            _ = try #require(try inbox.claim(id: item.id))
            #expect(try inbox.collectGarbage().returned.isEmpty)
            let impatient = try ShareInbox(at: inbox.url, claimLease: .zero)
            // The claim's time is its directory's modification time: make it a minute old.
            let claimed = inbox.url.appendingPathComponent("cur/\(item.id)").path
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: claimed)
            #expect(try impatient.collectGarbage().returned == [item.id])
            #expect(try inbox.pending().map(\.id) == [item.id])
        }
    }

    @Test("garbage: deliveries of dead writers and interrupted acknowledgements go; a live delivery stays")
    func garbage() throws {
        try withInbox { inbox in
            let tmp = inbox.url.appendingPathComponent("tmp")
            // A writer that died: process 2^22 + 1 is beyond Linux's largest pid.
            let dead = String(format: "%013llx.%d.%08x", UInt64(Date().timeIntervalSince1970 * 1000), 4_194_305, 7)
            try FileManager.default.createDirectory(at: tmp.appendingPathComponent("\(dead)/payload"), withIntermediateDirectories: true)
            let acknowledged = ShareInbox.makeIdentifier() + ".acknowledged"
            try FileManager.default.createDirectory(at: tmp.appendingPathComponent(acknowledged), withIntermediateDirectories: true)
            try Data().write(to: tmp.appendingPathComponent("not-ours"))
            let live = try inbox.beginDelivery()
            let report = try inbox.collectGarbage()
            #expect(Set(report.removed) == [dead, acknowledged])
            #expect(names(tmp) == [live.id, "not-ours"].sorted())
            live.discard()
        }
    }

    @Test("times in manifests: RFC 3339 UTC with milliseconds, read back exactly; anything else refused")
    func times() throws {
        let date = InternetTime.milliseconds(1_795_332_769_276)
        #expect(InternetTime.string(from: date) == "2026-11-22T07:32:49.276Z")
        #expect(InternetTime.date(from: "2026-11-22T07:32:49.276Z") == date)
        #expect(InternetTime.string(from: Date(timeIntervalSince1970: 1_795_332_769.9996)) == "2026-11-22T07:32:50.000Z")
        #expect(InternetTime.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        for bad in ["2026-11-22T05:32:49Z", "2026-13-22T05:32:49.276Z", "2026-11-22 05:32:49.276Z", "", "2026-11-22T05:32:49.2x6Z"] {
            #expect(InternetTime.date(from: bad) == nil, "\(bad)")
        }
    }

    @Test("verification catches a payload changed after delivery")
    func verification() throws {
        try withInbox { inbox in
            let item = try deliver("original", into: inbox)
            try Data("tampered".utf8).write(to: item.payloadURL)
            #expect(try !item.verify())
        }
    }

    @Test("a directory payload: its tree hash, verified")
    func directoryPayload() throws {
        try withInbox { inbox in
            let delivery = try inbox.beginDelivery()
            let tree = delivery.payloadDirectory.appendingPathComponent("Bundle.pvt")
            try FileManager.default.createDirectory(at: tree.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try Data("a".utf8).write(to: tree.appendingPathComponent("a.jpg"))
            try Data("bb".utf8).write(to: tree.appendingPathComponent("sub/b.mov"))
            let hash = try SHA256Hasher.hash(treeAt: tree.path)
            let item = try delivery.deliver(InboxManifest(type: "com.apple.private.live-photo-bundle", name: "Bundle.pvt", kind: .directory, size: 3, sha256: hash))
            #expect(try item.verify())
            try Data("c".utf8).write(to: item.payloadURL.appendingPathComponent("sub/c"))
            #expect(try !item.verify())
        }
    }

    @Test("writers on many threads and a claiming reader at the same time: every item claimed exactly once")
    func concurrentThreads() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-inbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let inbox = try ShareInbox(at: directory)
        let writers = 4, perWriter = 25
        enum Role { case wrote([String]), read([String]) }
        let results = try await withThrowingTaskGroup(of: Role.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    .wrote(try (0..<perWriter).map { index in try ShareInboxTests().deliver("\(writer)-\(index)", into: inbox).id })
                }
            }
            group.addTask {
                var claimed: [String] = []
                let deadline = Date(timeIntervalSinceNow: 60)
                while claimed.count < writers * perWriter && Date() < deadline {
                    guard let item = try inbox.claimNext() else {
                        try await Task.sleep(for: .milliseconds(1))
                        continue
                    }
                    claimed.append(item.id)
                    try inbox.acknowledge(item)
                }
                return .read(claimed)
            }
            return try await group.reduce(into: [Role]()) { $0.append($1) }
        }
        let delivered: [String] = results.flatMap { role -> [String] in if case .wrote(let ids) = role { ids } else { [] } }
        let claimed: [String] = results.flatMap { role -> [String] in if case .read(let ids) = role { ids } else { [] } }
        #expect(delivered.count == writers * perWriter)
        #expect(claimed.count == delivered.count)
        #expect(Set(claimed) == Set(delivered))
        #expect(try inbox.pending().isEmpty && inbox.claimed().isEmpty)
    }
}
