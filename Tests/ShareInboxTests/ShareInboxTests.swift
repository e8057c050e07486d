import Foundation
@testable import ShareInbox
import SharingSystem
import Synchronization
import SystemPackage
import Testing

@Suite("The inbox")
struct ShareInboxTests {
    /// A fresh inbox in a temporary directory, removed afterwards.
    func withInbox<T>(lease: Duration = .seconds(600), _ body: (ShareInbox) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-inbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(try ShareInbox(at: directory, claimLease: lease))
    }

    /// Delivers a file with these bytes.
    @discardableResult
    func deliver(_ text: String, named name: String = "note.txt", into inbox: ShareInbox) async throws -> InboxItem {
        let delivery = try inbox.beginDelivery()
        _ = try delivery.writePayload(Data(text.utf8))
        return try await delivery.deliver(InboxManifest(host: "test", type: "public.plain-text", name: name))
    }

    /// Expects an inbox operation to fail with this code.
    func expect<T>(_ code: InboxError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws(InboxError) -> T) async {
        do {
            _ = try await body()
            Issue.record("expected \(code), and it succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }

    func names(_ directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
    }

    @Test("a delivery appears whole in new/, with its manifest, and nothing stays in tmp/")
    func delivery() async throws {
        try await withInbox { inbox in
            let before = Date()
            let item = try await deliver("hello", into: inbox)
            let after = Date()
            #expect(item.state == .pending)
            #expect(ShareInbox.isIdentifier(item.id))
            #expect(item.manifest.id == item.id && item.manifest.size == 5)
            #expect(item.manifest.hash.description == "blake3:ea8f163db38682925e4491c5e58d4bb3506ef8c14eb78a86e908c5624a67200f")
            #expect(item.manifest.received.timeIntervalSince(before) > -0.001 && item.manifest.received <= after)
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
    func order() async throws {
        try await withInbox { inbox in
            var ids: [String] = []
            for index in 0..<20 {
                ids.append(try await deliver("item \(index)", into: inbox).id)
            }
            #expect(try inbox.pending().map(\.id) == ids)
            #expect(ids == ids.sorted())
            // Beginning is quicker than a millisecond: identifiers still never tie or go back.
            let begun = try (0..<200).map { _ in try inbox.beginDelivery() }
            #expect(begun.map(\.id) == begun.map(\.id).sorted() && Set(begun.map(\.id)).count == 200)
            #expect(begun[0].id > ids.last!)
        }
    }

    @Test("a delivery released or discarded undelivered leaves nothing, and takes nothing more")
    func discarded() async throws {
        try await withInbox { inbox in
            do {
                let delivery = try inbox.beginDelivery()
                _ = try delivery.writePayload(Data("x".utf8))
            }
            let discarded = try inbox.beginDelivery()
            discarded.discard()
            await expect(.deliveryEnded) { () throws(InboxError) in try discarded.writePayload(Data("x".utf8)) }
            await expect(.deliveryEnded) { () async throws(InboxError) in try await discarded.deliver(InboxManifest(type: "public.data", name: "x")) }
            #expect(names(inbox.url.appendingPathComponent("tmp")).isEmpty)
            #expect(try inbox.pending().isEmpty)
        }
    }

    @Test("a payload's name must be a plain name, and stays inside the item", arguments: ["../escape", "a/b", "", "..", ".", ".incoming", "a\0b", String(repeating: "x", count: 256)])
    func names(_ name: String) async throws {
        try await withInbox { inbox in
            let delivery = try inbox.beginDelivery()
            _ = try delivery.writePayload(Data("x".utf8))
            await expect(.invalidName) { () async throws(InboxError) in try await delivery.deliver(InboxManifest(type: "public.data", name: name)) }
            #expect(try inbox.pending().isEmpty)
            #expect(names(inbox.url.appendingPathComponent("tmp")).isEmpty)
        }
    }

    @Test("a delivery without a payload is refused")
    func noPayload() async throws {
        try await withInbox { inbox in
            let delivery = try inbox.beginDelivery()
            await expect(.noPayload) { () throws(InboxError) in try delivery.payloadPrefix(4) }
            await expect(.noPayload) { () async throws(InboxError) in try await delivery.deliver(InboxManifest(type: "public.data", name: "x")) }
            #expect(try inbox.pending().isEmpty)
        }
    }

    @Test("the inbox records the kind, size and hash it measured, and previews that are there")
    func measured() async throws {
        try await withInbox { inbox in
            let delivery = try inbox.beginDelivery()
            let payload = try delivery.writePayload(Data("hello".utf8))
            #expect(payload == InboxDelivery.Payload(kind: .file, size: 5, hash: ContentHash("blake3:ea8f163db38682925e4491c5e58d4bb3506ef8c14eb78a86e908c5624a67200f")!, leftOut: []))
            #expect(try delivery.payloadPrefix(3) == Array("hel".utf8))
            let previews = try await delivery.addPreviews { payload, directory in
                #expect(try String(contentsOf: payload, encoding: .utf8) == "hello")
                try Data("jpeg".utf8).write(to: directory.appendingPathComponent("preview-1.jpg"))
                return [InboxManifest.Preview(name: "preview-1.jpg", width: 1, height: 1)]
            }
            #expect(previews.map(\.name) == ["preview-1.jpg"])
            var manifest = InboxManifest(type: "public.plain-text", name: "hello.txt")
            manifest.size = 999
            manifest.hash = ContentHash(.sha256, hexadecimal: String(repeating: "0", count: 64))
            let item = try await delivery.deliver(manifest)
            #expect(item.manifest.size == 5 && item.manifest.hash == payload.hash && item.manifest.kind == .file)
            #expect(item.manifest.previews == previews)
            #expect(try Data(contentsOf: item.previewURL(previews[0])) == Data("jpeg".utf8))
            #expect(try item.verify())
        }
    }

    @Test("a preview the maker names but did not write, or names outside its directory, is refused")
    func badPreviews() async throws {
        try await withInbox { inbox in
            let delivery = try inbox.beginDelivery()
            _ = try delivery.writePayload(Data("x".utf8))
            for name in ["missing.jpg", "../manifest.json"] {
                do {
                    _ = try await delivery.addPreviews { _, _ in [InboxManifest.Preview(name: name, width: 1, height: 1)] }
                    Issue.record("accepted the preview \(name)")
                } catch let error as InboxError {
                    #expect(error.code == (name.contains("/") ? .invalidName : .noPayload), "\(error)")
                }
            }
        }
    }

    @Test("copying in a file or a tree: measured as copied; what cannot be a payload is refused by code before anything is copied")
    func sources() async throws {
        try await withInbox { inbox in
            let outside = inbox.url.deletingLastPathComponent().appendingPathComponent("sources-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: outside) }
            try FileManager.default.createDirectory(at: outside.appendingPathComponent("tree/sub"), withIntermediateDirectories: true)
            try Data("abc".utf8).write(to: outside.appendingPathComponent("file.txt"))
            try Data("de".utf8).write(to: outside.appendingPathComponent("tree/sub/x"))
            #expect(mkfifo(outside.appendingPathComponent("fifo").path, 0o600) == 0)
            let delivery = try inbox.beginDelivery()
            let file = try delivery.openSource(outside.appendingPathComponent("file.txt"))
            #expect(file.kind == .file && file.size == 3)
            let copied = try delivery.copyPayload(from: file)
            #expect(copied.size == 3 && copied.hash.description == "blake3:6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85")
            let tree = try delivery.openSource(outside.appendingPathComponent("tree"))
            #expect(tree.kind == .directory && tree.size == 2)
            let copiedTree = try delivery.copyPayload(from: tree)
            #expect(copiedTree.kind == .directory && copiedTree.size == 2)
            let item = try await delivery.deliver(InboxManifest(type: "public.folder", name: "tree"))
            #expect(item.manifest.kind == .directory)
            #expect(try item.verify())
            let other = try inbox.beginDelivery()
            await expect(.sourceMissing) { () throws(InboxError) in try other.openSource(outside.appendingPathComponent("nothing")) }
            await expect(.sourceNotAFile) { () throws(InboxError) in try other.openSource(outside.appendingPathComponent("fifo")) }
            await expect(.cancelled) { () throws(InboxError) in try other.copyPayload(from: try other.openSource(outside.appendingPathComponent("file.txt"))) { _ in false } }
            #expect(other.payloadURL == nil)
        }
    }

    @Test("claiming: one claimer wins, the item leaves new/; acknowledging removes it")
    func claims() async throws {
        try await withInbox { inbox in
            let item = try await deliver("claim me", into: inbox)
            let claimed = try #require(try inbox.claim(id: item.id))
            #expect(claimed.state == .claimed && claimed.manifest == item.manifest)
            #expect(try inbox.claim(id: item.id) == nil)
            #expect(try inbox.pending().isEmpty && inbox.claimed().map(\.id) == [item.id])
            #expect(try inbox.claimNext() == nil)
            try inbox.acknowledge(claimed)
            #expect(try inbox.claimed().isEmpty)
            await expect(.notClaimed) { () throws(InboxError) in try inbox.acknowledge(claimed) }
            for directory in ["new", "cur", "tmp"] { #expect(names(inbox.url.appendingPathComponent(directory)).isEmpty) }
        }
    }

    @Test("a link planted in new/ under an identifier's name, to a real item elsewhere: not listed, and claiming it fails by code")
    func plantedLink() async throws {
        try await withInbox { inbox in
            // A real item of another inbox: a manifest the reader would take, were the link followed.
            let elsewhere = try ShareInbox(at: inbox.url.deletingLastPathComponent().appendingPathComponent("elsewhere-\(UUID().uuidString)"))
            defer { try? FileManager.default.removeItem(at: elsewhere.url) }
            let item = try await deliver("not yours", into: elsewhere)
            try FileManager.default.createSymbolicLink(at: inbox.url.appendingPathComponent("new/\(item.id)"), withDestinationURL: item.url)
            #expect(try inbox.pending().isEmpty)
            #expect(try inbox.claimNext() == nil)
            await expect(.damagedManifest) { () throws(InboxError) in try inbox.claim(id: item.id) }
            #expect(try elsewhere.pending().map(\.id) == [item.id])
        }
    }

    @Test("identifiers from outside are checked before they name a path", arguments: ["../../etc", "x", "0019a6b2c3d4e.1.zzzzzzzz", "/tmp/x", ""])
    func hostileIdentifiers(_ id: String) async throws {
        try await withInbox { inbox in
            await expect(.invalidIdentifier) { () throws(InboxError) in try inbox.claim(id: id) }
        }
    }

    @Test("a claim whose lease ended goes back to new/; a live one stays")
    func leases() async throws {
        try await withInbox(lease: .seconds(3600)) { inbox in
            let item = try await deliver("leased", into: inbox)
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
    func garbage() async throws {
        try await withInbox { inbox in
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

    @Test("an item an older inbox wrote, with its SHA-256 under \"sha256\", still reads and verifies by SHA-256")
    func legacyManifest() async throws {
        try await withInbox { inbox in
            let item = try await deliver("hello", into: inbox)
            let manifest = item.url.appendingPathComponent("manifest.json")
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
            json["hash"] = nil
            json["sha256"] = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
            try JSONSerialization.data(withJSONObject: json).write(to: manifest)
            let legacy = try #require(try inbox.pending().first)
            #expect(legacy.manifest.hash == ContentHash(.sha256, hexadecimal: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"))
            #expect(try legacy.verify())
            try Data("jello".utf8).write(to: legacy.payloadURL)
            #expect(try !legacy.verify())
            // Written back, it names its algorithm.
            let encoded = String(decoding: try InboxManifest.encoder.encode(legacy.manifest), as: UTF8.self)
            #expect(encoded.contains("\"hash\" : \"sha256:2cf24dba") && !encoded.contains("\"sha256\" :"))
        }
    }

    @Test("verification catches a payload changed after delivery")
    func verification() async throws {
        try await withInbox { inbox in
            let item = try await deliver("original", into: inbox)
            try Data("tampered".utf8).write(to: item.payloadURL)
            #expect(try !item.verify())
        }
    }

    @Test("a directory payload: its tree hash, verified")
    func directoryPayload() async throws {
        try await withInbox { inbox in
            let tree = inbox.url.deletingLastPathComponent().appendingPathComponent("Bundle-\(UUID().uuidString).pvt")
            defer { try? FileManager.default.removeItem(at: tree) }
            try FileManager.default.createDirectory(at: tree.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try Data("a".utf8).write(to: tree.appendingPathComponent("a.jpg"))
            try Data("bb".utf8).write(to: tree.appendingPathComponent("sub/b.mov"))
            let delivery = try inbox.beginDelivery()
            let payload = try delivery.copyPayload(from: try delivery.openSource(tree))
            #expect(payload.hash == (try ContentHash.of(treeAt: tree)) && payload.size == 3)
            let item = try await delivery.deliver(InboxManifest(type: "com.apple.private.live-photo-bundle", name: "Bundle.pvt"))
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
        // The reader stops once every writer is done and nothing is left to claim: however slow a busy
        // machine makes the durable writes, never at a time of the clock's.
        final class Writing: Sendable { let count: Mutex<Int>; init(_ count: Int) { self.count = Mutex(count) } }
        let writing = Writing(writers)
        let results = try await withThrowingTaskGroup(of: Role.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    defer { writing.count.withLock { $0 -= 1 } }
                    var ids: [String] = []
                    for index in 0..<perWriter { ids.append(try await ShareInboxTests().deliver("\(writer)-\(index)", into: inbox).id) }
                    return .wrote(ids)
                }
            }
            group.addTask {
                var claimed: [String] = []
                while true {
                    let writersDone = writing.count.withLock { $0 == 0 }
                    guard let item = try inbox.claimNext() else {
                        if writersDone { break }
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
