import ExtensionRuntime
import Foundation
import HostProfiles
import MachineLoad
import OpenExtensionUI
import OpenItemProvider
import SharingSystem
import Testing

/// Photos as a camera takes them, written by Pillow (an independent generator): light across the frame and
/// sensor noise in every pixel, so that the JPEG has a real photo's size and decoding time. Made once per
/// machine and size, in the temporary directory.
enum CameraPhoto {
    static func make(width: Int, height: Int) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-test")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("pillow-camera-\(width)x\(height).jpg")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let script = """
        import os, sys
        from PIL import Image
        size = (int(sys.argv[2]), int(sys.argv[3]))
        ramp = Image.linear_gradient("L").resize(size)
        photo = Image.merge("RGB", [Image.blend(ramp, Image.effect_noise(size, 40), 0.45) for _ in range(3)])
        photo.save(sys.argv[1] + ".part", "JPEG", quality=92)
        os.rename(sys.argv[1] + ".part", sys.argv[1])
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path, "\(width)", "\(height)"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        return url
    }

    /// The photo a host profile shares by default: Photos a camera's 48 MP, a Live Photo's host its 12 MP still.
    static func shared(by host: String) throws -> URL {
        host == "photos" ? try make(width: 8000, height: 6000) : try make(width: 4032, height: 3024)
    }
}

/// Extensions as a new user writes them (`Examples/Extensions`: PostAfterDownsample, UploadsAfterPost,
/// FirstTypeOnly, each with its fix behind an Info.plist key), run as processes: each gets the verdict a device
/// gives.
@Suite("A new user's extensions get a device's verdict")
struct NewUserVerdictTests {
    static func share(_ host: String, _ content: SharedContent, in directory: URL) throws -> [NSExtensionItem] {
        try #require(HostProfile.named(host)).share(content).makeItems(relativeTo: directory)
    }

    @Test("a sheet that enables Post once its photo is downsampled off the main thread completes on every photo host, with and without a slow host",
          arguments: ["photos", "live-photo", "live-photo-messages"], [false, true])
    func postAfterDownsample(host: String, slow: Bool) async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("PostAfterDownsample", in: directory))
        let groups = directory.appendingPathComponent("groups")
        var faults = HostFaults()
        if slow { faults.loadDelay = .seconds(2) }
        let items = try Self.share(host, SharedContent(files: [try CameraPhoto.shared(by: host)]), in: directory)
        let run = try await ExtensionHost(appGroupContainers: groups, faults: faults).run(bundle, items: items)
        guard case .completed = run.outcome else { Issue.record("\(run.outcome): \(run.log)"); return }
        #expect(run.taps == ["button \"Post\""])
        #expect(run.findings.allSatisfy { $0.severity == .warn }, "\(run.findings)")
        #expect(FileManager.default.fileExists(atPath: groups.appendingPathComponent("group.org.opensharing.examples/Uploads/photo.jpg").path))
    }

    @Test("the same sheet with Post never enabled ends at once, stuck, saying why, before the request's time runs out")
    func postNeverEnabled() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("PostAfterDownsample", in: directory) { $0["EnablesPost"] = false })
        let items = try Self.share("photos", SharedContent(files: [try CameraPhoto.shared(by: "photos")]), in: directory)
        let run = try await ExtensionHost().run(bundle, items: items)
        guard case .interrupted(.stuck(let why)) = run.outcome else { Issue.record("\(run.outcome): \(run.log)"); return }
        #expect(run.status == .stuck)
        #expect(why.hasPrefix("its control to post is disabled (button \"Post\") for 3"), "\(why)")
        #expect(run.taps.isEmpty)
        #expect(!run.findings.contains { $0.code == .workLostAtExit }, "\(run.findings)")
    }

    @Test("an upload begun after completeRequest is work-lost-at-exit naming the host looked up, every run; begun first and awaited, it passes")
    func uploadAfterCompletion() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let late = try ExtensionBundle(url: ExampleBundles.make("UploadsAfterPost", in: directory))
        let early = try ExtensionBundle(url: ExampleBundles.make("UploadsAfterPost", in: directory, named: "UploadsFirst") { $0["UploadsFirst"] = true })
        let items = try Self.share("notes", SharedContent(texts: ["lunch at noon"], title: "Note"), in: directory)
        let host = ExtensionHost(appGroupContainers: directory.appendingPathComponent("groups"))
        for _ in 0..<3 {
            let run = try await host.run(late, items: items)
            guard case .completed = run.outcome else { Issue.record("\(run.outcome): \(run.log)"); return }
            #expect(run.lookups == ["api.example.com"])
            #expect(run.findings.filter { $0.severity == .fail }.map(\.code) == [.workLostAtExit], "one cause, one finding: \(run.findings)")
            #expect(run.findings.first { $0.code == .workLostAtExit }?.message.contains("looked up api.example.com") == true)
        }
        let run = try await host.run(early, items: items)
        guard case .completed = run.outcome else { Issue.record("\(run.outcome): \(run.log)"); return }
        #expect(run.lookups == ["api.example.com"])
        #expect(run.findings.allSatisfy { $0.severity == .warn }, "\(run.findings)")
    }

    @Test("an upload begun first that cancels when the network fails is not held to the network the run refuses: cancelled, network-refused as a warning",
          arguments: [(nil, "looked up api.example.com"), ("http://10.255.255.1:8080/shares", "connected to 10.255.255.1:8080")])
    func networkRefused(url: String?, refusal: String) async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("UploadsAfterPost", in: directory) { plist in
            plist["UploadsFirst"] = true
            plist["CancelsOnFailure"] = true
            if let url { plist["UploadURL"] = url }
        })
        let items = try Self.share("notes", SharedContent(texts: ["lunch at noon"], title: "Note"), in: directory)
        let run = try await ExtensionHost(appGroupContainers: directory.appendingPathComponent("groups")).run(bundle, items: items)
        guard case .cancelled = run.outcome else { Issue.record("\(run.outcome): \(run.log)"); return }
        #expect(run.taps == ["Post"])
        #expect(run.findings.allSatisfy { $0.severity == .warn }, "\(run.findings)")
        let refused = try #require(run.findings.first { $0.code == .networkRefused })
        #expect(refused.message.hasPrefix("it \(refusal) and was refused, as every run is"), "\(refused.message)")
    }

    @Test("an upload to a server on 127.0.0.1 begun after completeRequest is found every run, by its connection")
    func loopbackUploadAfterCompletion() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackFileServer(serving: directory)
        defer { server.stop() }
        let port = try #require(server.base.port)
        let bundle = try ExtensionBundle(url: ExampleBundles.make("UploadsAfterPost", in: directory) { $0["UploadURL"] = "http://127.0.0.1:\(port)/shares" })
        let items = try Self.share("notes", SharedContent(texts: ["lunch at noon"], title: "Note"), in: directory)
        for _ in 0..<5 {
            let run = try await ExtensionHost(appGroupContainers: directory.appendingPathComponent("groups")).run(bundle, items: items)
            guard case .completed = run.outcome else { Issue.record("\(run.outcome): \(run.log)"); return }
            #expect(run.connections == ["127.0.0.1:\(port)"])
            #expect(run.findings.filter { $0.severity == .fail }.map(\.code) == [.workLostAtExit], "\(run.findings)")
        }
    }

    @Test("a Live Photo to an extension that loads only the first type fails after Post (cancelled-after-post); one that falls back completes")
    func firstTypeOnly() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try ExtensionBundle(url: ExampleBundles.make("FirstTypeOnly", in: directory))
        let fallback = try ExtensionBundle(url: ExampleBundles.make("FirstTypeOnly", in: directory, named: "FallsBack") { $0["FallsBack"] = true })
        let items = try Self.share("live-photo", SharedContent(files: [try CameraPhoto.shared(by: "live-photo")]), in: directory)
        let host = ExtensionHost(appGroupContainers: directory.appendingPathComponent("groups"))
        let failed = try await host.run(first, items: items)
        guard case .cancelled(let error) = failed.outcome else { Issue.record("\(failed.outcome): \(failed.log)"); return }
        #expect(error.domain == "PHPhotosErrorDomain")
        #expect(failed.findings.map(\.code).contains(.cancelledAfterPost), "\(failed.findings)")
        #expect(failed.findings.first { $0.code == .cancelledAfterPost }?.message.hasPrefix("the user tapped Post and it cancelled the request itself (PHPhotosErrorDomain -1") == true)
        let passed = try await host.run(fallback, items: items)
        guard case .completed = passed.outcome else { Issue.record("\(passed.outcome): \(passed.log)"); return }
        #expect(passed.findings.allSatisfy { $0.severity == .warn }, "\(passed.findings)")
        // The same extension, its Post never tapped (the user cancels): its own cancel is the user's; no finding.
        let cancelled = try await ExtensionHost(user: .cancel).run(first, items: items)
        #expect(cancelled.findings.allSatisfy { $0.severity == .warn }, "\(cancelled.findings)")
    }

    @Test("a file's URL kept in place of the file (the Files app's first type) is found: content-not-loaded, naming what it wrote")
    func referenceKept() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("FirstTypeOnly", in: directory))
        let photo = ExampleBundles.repository.appendingPathComponent("Examples/files/sunset.jpg")
        let items = try Self.share("files", SharedContent(files: [photo]), in: directory)
        let run = try await ExtensionHost(appGroupContainers: directory.appendingPathComponent("groups")).run(bundle, items: items)
        guard case .completed = run.outcome else { Issue.record("\(run.outcome): \(run.log)"); return }
        let finding = try #require(run.findings.first { $0.code == .contentNotLoaded }, "\(run.findings)")
        #expect(finding.message.hasPrefix("it kept in its app group (group.org.opensharing.examples/Saved/shared) the bytes attachment 1 gave it as public.file-url"),
                "\(finding.message)")
        #expect(finding.message.contains("never loaded the content itself (public.jpeg)"))
    }
}

/// The sheet's verdict beside four busy loops: the user waits for the downsample however long the machine
/// makes it. In a test process of its own (`make test`'s BusyMachine), so that the load slows no other test.
@Suite("A busy machine: a sheet's user waits for its work")
struct BusyMachineSheetTests {
    @Test("a sheet that enables Post once its camera photo is downsampled completes on every photo host beside four busy loops, with and without a slow host",
          arguments: ["photos", "live-photo", "live-photo-messages"], [false, true])
    func postAfterDownsampleBusy(host: String, slow: Bool) async throws {
        let loops = try BusyLoops(4)
        defer { loops.stop() }
        try await NewUserVerdictTests().postAfterDownsample(host: host, slow: slow)
    }

    @Test("the same sheet with Post never enabled ends stuck beside four busy loops, as on a quiet machine")
    func postNeverEnabledBusy() async throws {
        let loops = try BusyLoops(4)
        defer { loops.stop() }
        try await NewUserVerdictTests().postNeverEnabled()
    }
}
