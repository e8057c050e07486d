@testable import ExtensionRuntime
import Foundation
import OpenItemProvider
import OpenUserNotifications
import SharingSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the second red team found a hostile extension could do beyond the first's: read through the host what
/// it may not read itself, grow what the host stores for it past its budget, make the host send what it then
/// blames on the extension, or read its host's command line. Each must end in one outcome that says so.
@Suite("A hostile extension against what the host stores and sends for it")
struct HostileInputTests {
    private func violation(_ outcome: ExtensionOutcome?) -> String? {
        guard case .interrupted(.protocolViolation(let detail))? = outcome else { return nil }
        return detail
    }

    /// A file only another user may read: the extension (root without capabilities) cannot open it; the host,
    /// with its own rights, could.
    private func secret(in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("secret.txt")
        try Data("the other user's secret".utf8).write(to: file)
        #expect(chown(file.path, 65534, 65534) == 0 && chmod(file.path, 0o600) == 0)
        return file
    }

    /// Payloads asking for the extension, as files' JSON.
    private func pushes(_ count: Int) throws -> [PushPayload] {
        try (0..<count).map { index in
            try PushPayload(json: Data(#"{"aps": {"alert": {"title": "T\#(index)", "body": "B"}, "mutable-content": 1}}"#.utf8), name: "push-\(index).json")
        }
    }

    @Test("a returned file whose descriptor was opened O_PATH (a file the extension cannot read) is a protocol violation; the host reads nothing through it")
    func opathReturned() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = try secret(in: directory)
        let bundle = try HostileBundle.make("opath-file.py", in: directory, named: "PathOnly", ["PATH": secret.path])
        let run = try #require(try await HostileBundle.run(bundle, items: try ExampleBundles.share("safari")))
        #expect(run.log.contains("the extension cannot read \(secret.path): Permission denied"), "\(run.log)")
        let detail = try #require(violation(run.outcome), "\(run.outcome)")
        #expect(detail == "the returned public.data file secret.txt came as a descriptor opened with O_PATH, which grants no reading: the host reads only what the extension could")
    }

    @Test("a notification's attachment whose descriptor was opened O_PATH is a protocol violation; nothing reaches the data store")
    func opathAttachment() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = try secret(in: directory)
        let bundle = try ExtensionBundle(url: try HostileBundle.make("opath-attachment.py", in: directory, named: "PathOnlyService", ["PATH": secret.path],
                                                                    as: "NotificationProber"))
        let store = directory.appendingPathComponent("store")
        let runs = try await ExtensionHost().deliver(try pushes(1), to: bundle, dataStore: store)
        #expect(runs.deliveries.first?.status == .protocolViolation)
        #expect(runs.deliveries.first?.shown == .original)
        #expect(runs.deliveries.first?.reason == "protocol violation: attachment leak came as a descriptor opened with O_PATH, which grants no reading: the host reads only what the extension could")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []).isEmpty)
    }

    @Test("a stored attachment named again and again is copied once per notification, and a notification keeps at most ten attachments")
    func reattached() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store")
        let bundle = try ExtensionBundle(url: try HostileBundle.make("reattach.py", in: directory, named: "Reattach",
                                                                    ["STORE": store.path, "COUNT": "40", "SIZE": "1000000"], as: "NotificationProber"))
        let runs = try await ExtensionHost().deliver(try pushes(2), to: bundle, dataStore: store)
        #expect(runs.deliveries.map(\.status) == [.completed, .completed])
        let second = try #require(runs.deliveries.last)
        #expect(second.content.attachments.count == 1)
        #expect(second.rejectedAttachments.count == 39)
        #expect(second.rejectedAttachments.first?.message.hasSuffix("is already attached to this notification") == true, "\(second.rejectedAttachments)")
        #expect(second.rejectedAttachments.last?.message.hasSuffix("a notification keeps at most 10 attachments here") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.path).count == 2)
    }

    @Test("a sparse attachment, which a copy would write out whole, is refused; the data store stays empty")
    func sparseAttachment() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store")
        let bundle = try ExtensionBundle(url: try HostileBundle.make("sparse-attachment.py", in: directory, named: "Sparse", ["SIZE": "49900000"],
                                                                    as: "NotificationProber"))
        let runs = try await ExtensionHost().deliver(try pushes(1), to: bundle, dataStore: store)
        let rejected = try #require(runs.deliveries.first?.rejectedAttachments.first)
        #expect(rejected.code == .attachmentMoveIntoDataStoreFailed)
        #expect(rejected.message.contains("claims 49900000 bytes but stores"), "\(rejected.message)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []).isEmpty)
    }

    @Test("center calls made without reading the answers hold one answer and a few calls in the host, then are a protocol violation")
    func centerFlood() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: try HostileBundle.make("center-flood.py", in: directory, named: "CenterFlood", ["COUNT": "5000"],
                                                                    as: "NotificationProber"))
        let runs = try await ExtensionHost().deliver(try pushes(1), to: bundle, dataStore: directory.appendingPathComponent("store"))
        #expect(runs.deliveries.first?.status == .protocolViolation)
        #expect(runs.deliveries.first?.reason == "protocol violation: more than 64 notification center calls waiting while the extension read none of the answers")
    }

    @Test("the extension reads nothing of its host's command line or environment through its namespace's init")
    func initForgetsHost() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A word of this test process's own command line.
        let marker = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        let bundle = try HostileBundle.make("read-init.py", in: directory, named: "ReadInit", ["MARKER": marker])
        let run = try #require(try await HostileBundle.run(bundle, items: try ExampleBundles.share("safari")))
        let said = try #require(HostileBundle.report(run), "\(run.outcome)")
        #expect(said.contains("cmdline: ") && !said.contains("found"), "\(said)")
        #expect(said.contains("environ: Permission denied") || said.contains("environ: 0 bytes") || said.contains("environ: ") && !said.contains("found"), "\(said)")
        #expect(said.contains("maps: Permission denied"), "\(said)")
    }

    @Test("writing past the disk budget into the app groups ends the run interrupted-disk, and leaves no more than the budget and one write")
    func appGroupsMetered() async throws {
        try await Self.fillGroups()
    }

    /// 40 files of 7 MB written a megabyte at a time into the app groups under an 8 MB budget: ended
    /// interrupted-disk, and the kernel held every write until the host let it go, so what is left is within
    /// the budget and the one write that may be on its way, however busy the machine. Confined, where the
    /// meter judges after the writes, the same verdict.
    static func fillGroups() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let groups = directory.appendingPathComponent("groups")
        let bundle = try HostileBundle.make("fill-groups.py", in: directory, named: "Fill", ["COUNT": "40", "MEGABYTES": "7"])
        let host = ExtensionHost(limits: ExtensionLimits(memory: 120 << 20, disk: 8 << 20), appGroupContainers: groups)
        let run = try #require(try await HostileBundle.run(bundle, items: try ExampleBundles.share("safari"), host: host))
        #expect(run.status == .interruptedDisk, "\(run.outcome)\n\(run.log)")
        #expect(run.sandbox.diskGate == !ExtensionHostTestsSupport.confined, "this machine's kernel (6.14 or later) holds writes for the host unless confined: \(run.sandbox)")
        if run.sandbox.diskGate {
            let left = FileSystem.diskUsage(of: [groups], entryLimit: 1000, depthLimit: 8)[0].bytes
            #expect(left <= (8 << 20) + (1 << 20), "\(left) bytes left in the app groups under an 8 MB budget")
        }
    }

    @Test("kernel memory the extension holds in socket buffers it never reads counts against its memory limit")
    func socketBuffers() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try HostileBundle.make("socket-fill.py", in: directory, named: "SocketFill", ["PAIRS": "100", "SNDBUF": "4194304"])
        let host = ExtensionHost(limits: ExtensionLimits(memory: 64 << 20))
        let run = try #require(try await HostileBundle.run(bundle, items: try ExampleBundles.share("safari"), host: host))
        #expect(run.status == .interruptedMemory, "\(run.outcome)\n\(run.log)")
        #expect(run.peakFootprint > 64 << 20)
    }

    @Test("the extension may open Darwin's 256 files, and no more than 1024 however it raises its limit")
    func openFiles() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try HostileBundle.make("open-files.py", in: directory, named: "OpenFiles")
        let run = try #require(try await HostileBundle.run(bundle, items: try ExampleBundles.share("safari")))
        let said = try #require(HostileBundle.report(run), "\(run.outcome)")
        #expect(said.hasPrefix("soft 256, hard 1024, opened 25"), "\(said)")
        #expect(said.hasSuffix("(Too many open files), raising past the hard limit refused"), "\(said)")
    }

    @Test("a tree deeper than the disk meter walks is taken as over the disk budget, never as empty")
    func beyondMeter() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try HostileBundle.make("deep-tree.py", in: directory, named: "Deep", ["DEPTH": "300"])
        let run = try #require(try await HostileBundle.run(bundle, items: try ExampleBundles.share("safari")))
        #expect(run.outcome.interruption == .diskBeyondMeter(entries: DiskMeter.entryLimit, depth: DiskMeter.depthLimit), "\(run.outcome)")
        #expect(run.status == .interruptedDisk)
    }
}

extension ExtensionOutcome {
    /// Why the request was interrupted, if it was.
    var interruption: InterruptionReason? {
        if case .interrupted(let reason) = self { reason } else { nil }
    }
}
