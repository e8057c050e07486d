@testable import ExtensionRuntime
import SharingSystem
import Foundation
import OpenItemProvider
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a process has open and running, read from /proc, to show that runs leave nothing behind.
enum ProcessCensus {
    /// The processes whose parent is `process` (every thread's children).
    static func children(of process: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(process)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// Every descendant of `process`: its children, theirs, and so on (an extension is its init's child).
    static func descendants(of process: Int32) -> [Int32] {
        var found: [Int32] = []
        var queue = [process]
        while let next = queue.popLast() {
            let children = children(of: next)
            found += children
            queue += children
        }
        return found
    }

    /// Whether a process exists and is not a zombie.
    static func isAlive(_ process: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    /// The descriptors of the kinds the runtime opens (sockets, process descriptors, memory files) that this
    /// process has open. Other tests running at the same time open such descriptors too, briefly.
    static var runtimeDescriptors: Int {
        descriptorTargets.filter { $0.contains("socket:") || $0.contains("[pidfd]") || $0.contains("/memfd:") }.count
    }

    /// Whether the runtime's kinds of descriptor come back to at most `baseline` within two seconds (other
    /// tests' come and go).
    static func descriptorsSettle(atMost baseline: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(2)
        while runtimeDescriptors > baseline {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// This process's descendants running a program inside `directory` (the test's own bundles).
    static func children(runningIn directory: URL) -> [Int32] {
        descendants(of: getpid()).filter { child in
            isAlive(child) && ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/exe"))?.hasPrefix(directory.path) ?? false)
        }
    }

    /// This process's threads of the platform layer's pool (named "OS blocking"): a pump or a wait that never
    /// ends keeps one forever; an idle one ends within `BlockingThreads.idleLifetime`.
    static var blockingThreads: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).filter { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.hasPrefix(BlockingThreads.threadName) == true
        }.count
    }

    /// What each open descriptor is.
    static var descriptorTargets: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).sorted().map {
            "\($0) → \((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) ?? "?")"
        }
    }

    /// The runtime's containers left for bundles named `name`, by any host.
    static func containers(of name: String) -> [String] {
        return ((try? FileManager.default.contentsOfDirectory(atPath: Container.root.path)) ?? [])
            .filter { $0.split(separator: "-").dropFirst().first.map(String.init) == name }
    }

    /// This process's descendants running `executable`, waiting up to `timeout` for one to appear.
    static func child(running executable: URL, timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            for child in descendants(of: getpid()) {
                if (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/exe")) == executable.path { return child }
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }
}

/// A provider of `count` data representations that take a little while (one in five, a second), recording how
/// each load ended:
/// answered (the provider delivered its data), cancelled (the runtime cancelled it first), or both, when
/// the runtime's cancellation came after the provider had started delivering. None may be neither, and
/// none may see its cancellation or its delivery twice.
final class CountingProvider: @unchecked Sendable {
    let lock = NSLock()
    var started = 0
    var answered = 0
    var cancelled = 0
    var endedNever: Int { lock.withLock { loads.filter { $0.answers == 0 && $0.cancellations == 0 }.count } }
    var endedTwice: Int { lock.withLock { loads.filter { $0.answers > 1 || $0.cancellations > 1 }.count } }
    private var loads: [(answers: Int, cancellations: Int)] = []

    func items(count: Int, size: Int) -> [NSExtensionItem] {
        let item = NSExtensionItem()
        item.attachments = (0..<count).map { index in
            let provider = NSItemProvider()
            provider.suggestedName = "part-\(index)"
            provider.registerDataRepresentation(forTypeIdentifier: "public.data", visibility: .all) { [self] completion in
                let load = lock.withLock { () -> Int in
                    started += 1
                    loads.append((0, 0))
                    return loads.count - 1
                }
                let progress = Progress(totalUnitCount: 1)
                progress.cancellationHandler = { [self] in
                    lock.withLock { loads[load].cancellations += 1; cancelled += 1 }
                }
                // Most answer within 4 ms; every fifth takes a second, so that a kill finds loads in flight that
                // only the runtime's cancellation ends.
                let delay = index % 5 == 4 ? 1_000 : Int.random(in: 0...4)
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in
                    guard !progress.isCancelled else { return }
                    lock.withLock { loads[load].answers += 1; answered += 1 }
                    completion(Data(repeating: UInt8(index & 0xFF), count: size), nil)
                }
                return progress
            }
            return provider
        }
        return [item]
    }
}

/// These count this process's descriptors, children and memory: `make test` runs them in a test process of
/// their own.
@Suite("The runtime under failure and load", .serialized)
struct ReliabilityTests {
    @Test("the extension SIGKILLed at 50 random moments during loads: one interrupted outcome, every load ends once, nothing left")
    func killedDuringLoads() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let appGroups = directory.appendingPathComponent("groups")
        let url = try ExampleBundles.make("FileSaver", in: directory)
        let bundle = try ExtensionBundle(url: url)
        // One run to the end first, so that what the process opens once, lazily, is open before the count.
        _ = try await ExtensionHost(appGroupContainers: appGroups).run(bundle, items: CountingProvider().items(count: 1, size: 1))
        let descriptors = ProcessCensus.runtimeDescriptors
        var interrupted = 0
        for _ in 0..<50 {
            let provider = CountingProvider()
            let host = ExtensionHost(appGroupContainers: appGroups)
            let items = provider.items(count: 10, size: 256 << 10)
            async let run = host.run(bundle, items: items)
            guard let process = await ProcessCensus.child(running: bundle.executable, timeout: .seconds(10)) else {
                Issue.record("the extension never started")
                _ = try await run
                continue
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...60)))
            kill(process, SIGKILL)
            let result = try await run
            // Interrupted, unless the extension finished first (then completed): one outcome either way.
            switch result.outcome {
            case .interrupted(let reason):
                interrupted += 1
                #expect(reason == .crashed(.signalled(SIGKILL)))
            case .completed: #expect(result.exitStatus == .exited(0))
            case .cancelled(let error): Issue.record("cancelled: \(error)")
            }
            // Let late provider callbacks land, then check that every load ended exactly once.
            try await Task.sleep(for: .milliseconds(20))
            #expect(provider.endedNever == 0)
            #expect(provider.endedTwice == 0)
            #expect(!ProcessCensus.isAlive(process))
        }
        // Every kill lands mid-request: a second-long load is always in flight.
        #expect(interrupted == 50)
        #expect(ProcessCensus.children(runningIn: directory).isEmpty)
        #expect(ProcessCensus.containers(of: "FileSaver").isEmpty)
        #expect(await ProcessCensus.descriptorsSettle(atMost: descriptors), "\(ProcessCensus.descriptorTargets)")
    }

    @Test("1,000 requests one after another and 50 at once: no descriptor or process left, and memory stays flat")
    func manyRequests() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("Uppercase", in: directory))
        let text = try ExampleBundles.text("again and again")
        // A request with no text: Uppercase cancels it at once, so each of the 1,000 is the runtime's whole life
        // cycle (launch, handshake, request, outcome, exit) without the extension's own start-up work.
        func once(_ items: [NSExtensionItem]) async throws {
            let run = try await ExtensionHost().run(bundle, items: items)
            switch run.outcome {
            case .completed where !items.isEmpty: break
            case .cancelled(let error) where items.isEmpty: #expect(error.localizedDescription == "No text to uppercase.")
            default: Issue.record("\(run.outcome): \(run.log)")
            }
        }
        // Warm up, then measure.
        for _ in 0..<20 { try await once([]) }
        try await once(text)
        let descriptors = ProcessCensus.runtimeDescriptors
        let footprint = residentMemory()
        for _ in 0..<1_000 { try await once([]) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { try await once(text) } }
            try await group.waitForAll()
        }
        #expect(await ProcessCensus.descriptorsSettle(atMost: descriptors), "\(ProcessCensus.descriptorTargets)")
        #expect(ProcessCensus.children(runningIn: directory).isEmpty)
        #expect(ProcessCensus.containers(of: "Uppercase").isEmpty)
        // Flat: what 1,050 requests add to this process is allocator noise, not a per-request leak.
        #expect(residentMemory() - footprint < 16 << 20, "grew from \(footprint >> 20) MB to \(residentMemory() >> 20) MB")
    }

    @Test("a runaway allocation (500 MB/s) is stopped within 16 MB over the limit, five times out of five")
    func runawayAllocation() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("MemoryHog", in: directory))
        let limit = 120 << 20
        for _ in 0..<5 {
            let run = try await ExtensionHost(limits: ExtensionLimits(memory: limit)).run(bundle, items: try ExampleBundles.share("safari"))
            guard case .interrupted(.memoryLimit(_, let peak)) = run.outcome else {
                Issue.record("expected the memory limit, got \(run.outcome)")
                return
            }
            #expect(peak <= limit + (16 << 20), "\((peak - limit) >> 20) MB over")
        }
    }

    @Test("the host SIGKILLed: its extension is gone within a second")
    func hostDeath() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ExampleBundles.make("NeverCompletes", in: directory)
        // The host is `sharing run`, a process of its own this test can kill.
        let host = Process()
        host.executableURL = ExampleBundles.products.appendingPathComponent("sharing")
        host.arguments = ["run", url.path, "--host", "notes", "--text", "hello"]
        host.standardOutput = FileHandle.nullDevice
        try host.run()
        defer { if host.isRunning { kill(host.processIdentifier, SIGKILL) }; host.waitUntilExit() }
        let executable = url.appendingPathComponent("NeverCompletes")
        var extensionProcess: Int32?
        let deadline = ContinuousClock.now + .seconds(20)
        while extensionProcess == nil && ContinuousClock.now < deadline {
            extensionProcess = ProcessCensus.descendants(of: host.processIdentifier).first {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/exe")) == executable.path
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        let orphan = try #require(extensionProcess)
        kill(host.processIdentifier, SIGKILL)
        let killed = ContinuousClock.now
        while ProcessCensus.isAlive(orphan) && ContinuousClock.now - killed < .seconds(1) {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(!ProcessCensus.isAlive(orphan), "the extension outlived its host by a second")
        // The dead host could not remove its extension's container; the next host process to start an extension
        // does, while its own run goes on, and has by the time its run ends.
        host.waitUntilExit()
        let leftBehind = "\(host.processIdentifier)-NeverCompletes-", storeLeft = "\(host.processIdentifier)-store-"
        #expect(ProcessCensus.containers(of: "NeverCompletes").contains { $0.hasPrefix(leftBehind) })
        #expect(ProcessCensus.containers(of: "store").contains { $0.hasPrefix(storeLeft) }, "the host's store for the extension, beside it")
        let next = Process()
        next.executableURL = ExampleBundles.products.appendingPathComponent("sharing")
        next.arguments = ["run", try ExampleBundles.make("Uppercase", in: directory).path, "--host", "notes", "--text", "hello"]
        next.standardOutput = FileHandle.nullDevice
        try next.run()
        next.waitUntilExit()
        #expect(next.terminationStatus == 0)
        #expect(!ProcessCensus.containers(of: "NeverCompletes").contains { $0.hasPrefix(leftBehind) })
        #expect(!ProcessCensus.containers(of: "store").contains { $0.hasPrefix(storeLeft) })
    }

    @Test("every hostile extension twice in a row: each run returns, and no process, descriptor, thread or container is left")
    func hostileTwice() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        for n in 0..<200 { try Data("keep".utf8).write(to: outside.appendingPathComponent("f\(n)")) }
        let catalogue = HostileBundle.catalogue(outside: outside)
        // What the process opens once, lazily, is open before the count.
        _ = try await ExtensionHost().run(ExtensionBundle(url: ExampleBundles.make("Uppercase", in: directory)), items: [])
        let descriptors = ProcessCensus.runtimeDescriptors
        for round in 1...2 {
            for entry in catalogue {
                let run = try await HostileBundle.run(entry, in: directory)
                #expect(run != nil, "\(entry.script), round \(round): the host did not return")
                #expect(HostileBundle.processes(of: directory).isEmpty, "\(entry.script), round \(round)")
                #expect(ProcessCensus.containers(of: entry.name).isEmpty, "\(entry.script), round \(round)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).count == 200)
        #expect(await ProcessCensus.descriptorsSettle(atMost: descriptors), "\(ProcessCensus.descriptorTargets)")
        // Idle threads of the pool end on their own; one still there after that is held by something.
        let deadline = ContinuousClock.now + .seconds(BlockingThreads.idleLifetime + 3)
        while ProcessCensus.blockingThreads > 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(ProcessCensus.blockingThreads == 0)
    }

    @Test("100 hostile runs: the host's resident memory ends within 2 MB of where it started")
    func hostileMemory() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let catalogue = HostileBundle.catalogue(outside: outside)
        // One round to warm up: what the process allocates once (caches, the pool's threads) is there before.
        for entry in catalogue { _ = try await HostileBundle.run(entry, in: directory) }
        let before = heldMemory()
        for index in 0..<100 { _ = try await HostileBundle.run(catalogue[index % catalogue.count], in: directory) }
        let after = heldMemory()
        #expect(after - before < 2 << 20, "grew from \(before >> 10) KB to \(after >> 10) KB")
    }

    /// This process's resident memory once the allocator has given back what it keeps free (`malloc_trim`):
    /// what the process holds, without the free memory each of the allocator's arenas keeps for later, which
    /// varies by up to 20 MB with which threads last allocated and is no leak.
    private func heldMemory() -> Int {
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") { _ = unsafeBitCast(trim, to: Trim.self)(0) }
        return residentMemory()
    }

    /// This process's resident memory, in bytes.
    private func residentMemory() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
    }
}
