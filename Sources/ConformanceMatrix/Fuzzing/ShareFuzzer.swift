public import ExtensionRuntime
public import Foundation
public import HostProfiles
import PackageSupport
import SharingSystem

/// Finds the shares that break an extension (`sharing fuzz`): generates shares from the host profiles' ways of
/// sharing (`ShareGenerator`), runs the bundle on each as a process under the device's limits with this process
/// as its host, keeps each share that ends not as expected — crashed, interrupted for memory, time or disk,
/// broke the protocol, or a `fail` finding — reduces it to the smallest share that still ends the same way,
/// and writes it as a fixture `sharing run BUNDLE --share FILE` replays.
///
/// Failures that end the same way (the status, the `fail` findings and, for a crash, where it stopped) are one
/// finding, kept as the first share that showed it. Share `n` depends only on the seed and `n`: the same seed
/// and the same number of shares give the same findings.
public struct ShareFuzzer: Sendable {
    /// How long a fuzzer runs: a time, or a number of shares per bundle.
    public enum Budget: Sendable, Equatable {
        /// Shares are started until this much time has passed (shared among the bundles); those started end.
        case time(Duration)
        /// This many shares per bundle (of the shard's part of the sequence).
        case shares(Int)
    }

    public var bundles: [String]
    public var hosts: [HostProfile]
    public var device: DeviceClass?
    public var seed: UInt64
    public var budget: Budget
    /// Shares run at a time.
    public var jobs: Int
    /// Runs shard `index` of `count` (from 1): shares `index - 1`, `index - 1 + count`, ….
    public var shard: (index: Int, count: Int)
    /// Seconds each share's extension has to end its request (a hang found early; the reproduce command says it).
    public var timeout: Double?
    /// Where the materials and each running share's files go.
    public var work: URL
    /// Where each finding's share is written.
    public var out: URL
    /// Where this run's shares are written while they run: its own, so that runs may share a work directory.
    private let running: URL

    /// The most runs spent making one finding's share smaller.
    static let shrinkRuns = 80

    public init(bundles: [String], hosts: [HostProfile] = HostProfile.all, device: DeviceClass? = .default, seed: UInt64, budget: Budget,
                jobs: Int, shard: (index: Int, count: Int) = (1, 1), timeout: Double? = nil, work: URL, out: URL) {
        self.bundles = bundles
        self.hosts = hosts
        self.device = device
        self.seed = seed
        self.budget = budget
        self.jobs = max(1, jobs)
        self.shard = shard
        self.timeout = timeout
        self.work = work
        self.out = out
        running = work.appending(component: "running-\(UUID().uuidString)")
    }

    /// Runs the fuzzer; `found` is told each finding as it is made final.
    ///
    /// - Throws: `CellError` when a bundle cannot be fuzzed (not a bundle, a notification service, its rule does
    ///   not parse), or the work or out directory cannot be written.
    public func run(found: @escaping @Sendable (FuzzReport.Finding) -> Void = { _ in }) async throws -> FuzzReport {
        for bundle in bundles {
            let opened = try MatrixCell(bundle: bundle).openBundle()
            guard opened.extensionPointIdentifier != DeviceClass.notificationService else {
                throw CellError(.badBundle, field: "bundle", "\(bundle) is a notification service: shares go to share and action extensions "
                                + "(send a notification service payloads with sharing notify or sharing test)")
            }
        }
        let materials: FuzzMaterials
        do {
            materials = try FuzzMaterials.write(into: work.appending(component: "materials"))
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        } catch {
            throw CellError(.badShare, field: "--work", "cannot write the fuzzer's files: \(error)")
        }
        defer { try? FileSystem.removeTree(running) }
        let generator = ShareGenerator(hosts: hosts, materials: materials, seed: seed)
        let clock = ContinuousClock(), start = clock.now
        var report = FuzzReport(runInfo: .init(bundles: bundles, seed: seed, seconds: 0, sharesRun: 0, skipped: 0, shard: "\(shard.index)/\(shard.count)",
                                               device: device?.name ?? "none", timeout: timeout, hosts: hosts.map(\.name)))
        for (number, bundle) in bundles.enumerated() {
            let deadline: ContinuousClock.Instant? = switch budget {
            case .time(let total): start + total * (Double(number + 1) / Double(bundles.count))
            case .shares: nil
            }
            let explored = try await explore(bundle, generator: generator, until: deadline)
            report.runInfo.sharesRun += explored.run.count
            report.runInfo.skipped += explored.skipped
            let run = explored.run.sorted()
            for (signature, index) in explored.failures.sorted(by: { $0.value < $1.value }) {
                // Its place in the bundle's run: how many of the shares run come before it, and it.
                let place = run.firstIndex(of: index).map { $0 + 1 } ?? run.count
                let finding = try await minimise(bundle, index: index, signature: signature, generator: generator, foundAfter: place,
                                                 number: report.findings.count + 1)
                found(finding)
                report.findings.append(finding)
            }
        }
        report.runInfo.seconds = start.duration(to: clock.now).inSeconds
        return report
    }

    /// What one share's run came to.
    struct Outcome: Sendable {
        var report: RunReport
        var signature: FuzzSignature?
    }

    /// What running part of the sequence found, kept small however long it runs: the share numbers run, how
    /// many of them the rule skipped, and each way of failing with the lowest share number that showed it.
    private struct Explored: Sendable {
        var run: [Int] = []
        var skipped = 0
        var failures: [FuzzSignature: Int] = [:]
    }

    /// Runs shares of the sequence on `bundle`, `jobs` at a time, until the budget is spent.
    private func explore(_ bundle: String, generator: ShareGenerator, until deadline: ContinuousClock.Instant?) async throws -> Explored {
        let next = Locked(0)
        let explored = Locked(Explored())
        let failure = Locked<(any Error)?>(nil)
        let count: Int? = if case .shares(let count) = budget { count } else { nil }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<jobs {
                group.addTask {
                    while failure.withLock({ $0 == nil }) {
                        let step = next.withLock { next -> Int in
                            defer { next += 1 }
                            return next
                        }
                        if let count, step >= count { return }
                        if let deadline, ContinuousClock.now >= deadline { return }
                        let index = shard.index - 1 + step * shard.count
                        do {
                            let outcome = try await run(bundle, generator.share(index), name: "share-\(index)")
                            explored.withLock { explored in
                                explored.run.append(index)
                                if outcome.report.status == .notActivated { explored.skipped += 1 }
                                if let signature = outcome.signature { explored.failures[signature] = min(index, explored.failures[signature] ?? index) }
                            }
                        } catch {
                            failure.withLock { $0 = $0 ?? error }
                        }
                    }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return explored.withLock { $0 }
    }

    /// Runs `bundle` on `fixture`, written into the work directory (and removed after) under `name`.
    private func run(_ bundle: String, _ fixture: ShareFixture, name: String) async throws -> Outcome {
        let directory = running.appending(component: "\(URL(fileURLWithPath: bundle).deletingPathExtension().lastPathComponent)-\(name)")
        defer { try? FileSystem.removeTree(directory) }
        let file = try write(fixture, into: directory, copyingFiles: false)
        return try await run(cell(bundle, fixture: file.path, appGroup: directory.appending(component: "app-group").path))
    }

    private func cell(_ bundle: String, fixture: String, appGroup: String) -> MatrixCell {
        MatrixCell(bundle: bundle, fixture: fixture, device: device, timeout: timeout, appGroup: appGroup)
    }

    private func run(_ cell: MatrixCell) async throws -> Outcome {
        let report: RunReport
        do {
            report = try await cell.runShare()
        } catch {
            // A generated share the host side cannot make is the generator's mistake, not the extension's.
            guard error.code == .badShare else { throw error }
            throw CellError(.badShare, field: "share", "the fuzzer made a share it cannot replay (\(cell.fixture ?? "")): \(error)")
        }
        return Outcome(report: report, signature: FuzzSignature(report))
    }

    /// Writes `fixture` as `share.json` in `directory`; with `copyingFiles`, its files beside it (linked where
    /// they can be), named in it relatively, so that the directory replays anywhere.
    private func write(_ fixture: ShareFixture, into directory: URL, copyingFiles: Bool) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var fixture = fixture
        if copyingFiles {
            var copied: [String: String] = [:]
            func move(_ path: String) throws -> String {
                if let name = copied[path] { return name }
                let source = URL(fileURLWithPath: path)
                let name = "files/\(copied.count + 1)/\(source.lastPathComponent)"
                let target = directory.appending(path: name)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if (try? FileManager.default.linkItem(at: source, to: target)) == nil { try FileManager.default.copyItem(at: source, to: target) }
                copied[path] = name
                return name
            }
            for i in fixture.items.indices {
                for j in (fixture.items[i].attachments ?? []).indices {
                    for k in fixture.items[i].attachments![j].representations.indices {
                        switch fixture.items[i].attachments![j].representations[k].payload {
                        case .file(let path): fixture.items[i].attachments![j].representations[k].payload = .file(try move(path))
                        case .image(let path): fixture.items[i].attachments![j].representations[k].payload = .image(try move(path))
                        default: break
                        }
                    }
                }
            }
        }
        let file = directory.appending(component: "share.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(fixture).write(to: file, options: .atomic)
        return file
    }

    /// Makes share `index`'s failure as small as it goes while it ends the same way, writes it to the out
    /// directory, and checks that it replays so.
    private func minimise(_ bundle: String, index: Int, signature: FuzzSignature, generator: ShareGenerator, foundAfter: Int,
                          number: Int) async throws -> FuzzReport.Finding {
        var smallest = generator.share(index)
        var spent = 0
        var attempt = 0
        shrinking: while spent < Self.shrinkRuns {
            let candidates = ShareShrinker.candidates(of: smallest, materials: generator.materials)
            // Tried `jobs` at a time; the first in order that still ends the same way is kept.
            for batch in stride(from: 0, to: candidates.count, by: jobs) {
                let tried = Array(candidates[batch..<min(batch + jobs, candidates.count)])
                let kept = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                    for (offset, candidate) in tried.enumerated() {
                        let name = "shrink-\(index)-\(attempt + offset)"
                        group.addTask { (offset, try await run(bundle, candidate, name: name).signature == signature) }
                    }
                    var same: [Int] = []
                    for try await (offset, isSame) in group where isSame { same.append(offset) }
                    return same.min()
                }
                attempt += tried.count
                spent += tried.count
                if let kept {
                    smallest = tried[kept]
                    continue shrinking
                }
                if spent >= Self.shrinkRuns { break shrinking }
            }
            break
        }
        let name = "\(URL(fileURLWithPath: bundle).deletingPathExtension().lastPathComponent)-\(number)"
        let directory = out.appending(component: name)
        try? FileSystem.removeTree(directory)
        let file = try write(smallest, into: directory, copyingFiles: true)
        let cell = self.cell(bundle, fixture: file.path, appGroup: directory.appending(component: "app-group").path)
        let replay = try await run(cell)
        try? FileSystem.removeTree(directory.appending(component: "app-group"))
        return FuzzReport.Finding(cell: cell, signature: signature, replayed: replay, foundAfter: foundAfter, shrinkRuns: spent)
    }
}

/// How a failed share ended, as far as telling one bug from another goes: the status, the `fail` findings and,
/// when the extension stopped itself (a Swift runtime error), where.
struct FuzzSignature: Hashable, Sendable {
    var status: ExtensionStatus
    var findings: [Finding.Code]
    var site: String?

    /// The failure a run shows, or `nil` when it ended as expected (completed, cancelled, not offered, with no
    /// `fail` finding).
    init?(_ report: RunReport) {
        let failing = report.findings.filter { $0.severity == .fail }.map(\.code)
        switch report.status {
        case .completed, .cancelled, .notActivated:
            guard !failing.isEmpty else { return nil }
        case .crashed, .interruptedMemory, .interruptedTimeout, .interruptedDisk, .protocolViolation, .stuck:
            break
        }
        status = report.status
        findings = Array(Set(failing)).sorted { $0.rawValue < $1.rawValue }
        site = report.status == .crashed ? Self.site(report.log ?? []) : nil
    }

    init(status: ExtensionStatus, findings: [Finding.Code], site: String?) {
        self.status = status
        self.findings = findings
        self.site = site
    }

    /// Where a crash stopped, from the extension's last words: the file and line of the crashed thread's first
    /// frame with a source line (`main.swift:13`, the extension's own code under the standard library's); else
    /// the file and line Swift's `Fatal error` names; else the runtime's own words (a failed cast by the type
    /// cast to, the crash's kind), addresses and numbers left out. Never the message, which may quote the share.
    static func site(_ log: [String]) -> String? {
        for line in log {
            if let match = line.firstMatch(of: /\bat \/[^\s]*\/([^\/\s]+\.swift):(\d+)/) { return "\(match.1):\(match.2)" }
        }
        if let line = log.first(where: { $0.contains(": Fatal error") }), let range = line.range(of: ": Fatal error") {
            let location = line[..<range.lowerBound].split(separator: " ").last?.split(separator: "/").last.map(String.init) ?? ""
            if location.contains(".swift:") { return "\(location): Fatal error" }
        }
        let telling = ["Fatal error", "Could not cast value", "Program crashed", "signal"]
        for words in telling {
            guard let line = log.first(where: { $0.contains(words) }) else { continue }
            // A failed cast is told by the type cast to, whatever value the share gave it.
            return String(line.replacing(/0x[0-9a-fA-F]+/, with: "").filter { !$0.isNumber }.replacing(/\s\(\)/, with: "")
                .replacing(/Could not cast value of type '[^']*'/, with: "Could not cast a value").prefix(120))
        }
        return nil
    }
}
