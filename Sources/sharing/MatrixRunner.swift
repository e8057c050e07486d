#if canImport(ExtensionRuntime)
import ConformanceMatrix
import CSharingSystem
import ExtensionRuntime
import Foundation
import PackageSupport
import SharingSystem

/// Runs a matrix's cells: each its own `sharing run` process (this program), `jobs` at a time, on blocking
/// threads, each watched until it ends and, under `host-killed`, until nothing of its extension is left.
enum MatrixRunner {
    /// A cell and the `sharing run` arguments that run it.
    struct Planned: Sendable {
        var cell: MatrixCell
        var arguments: [String]
        /// The failing clauses, when the extension's activation rule hides it for the share: decided here,
        /// no process started.
        var notActivated: [String]?
        var attachments: Int

        var reproduce: String { (["sharing"] + arguments).map(Self.quoted).joined(separator: " ") }

        /// The word as a POSIX shell reads it back.
        static func quoted(_ word: String) -> String {
            let plain = word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_./=:,@%+".unicodeScalars.contains($0) }
            return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }

        /// The cell's app group directory: the value of its `--app-group`.
        var appGroups: URL? {
            arguments.firstIndex(of: "--app-group").flatMap { arguments.indices.contains($0 + 1) ? URL(fileURLWithPath: arguments[$0 + 1], isDirectory: true) : nil }
        }

        /// The cell's fault kills its host.
        var killsHost: Bool {
            if case .hostKilled = try? Fault(parsing: cell.fault) { true } else { false }
        }
    }

    /// Runs every cell `repeats` times, in `order` (indices into `cells`); the results in the cells' order.
    static func runAll(_ cells: [Planned], order: [Int], repeats: Int, jobs: Int, limit: Double) async -> [CellResult] {
        let queue = order.flatMap { index in Array(repeating: index, count: repeats) }
        let next = Locked(0)
        let done = Locked([[CellResult]](repeating: [], count: cells.count))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(jobs, max(queue.count, 1)) {
                group.addTask {
                    while true {
                        let position = next.withLock { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard position < queue.count else { return }
                        let index = queue[position]
                        var result = await BlockingThreads.run { run(cells[index], limit: limit) }
                        result.order = position
                        done.withLock { $0[index].append(result) }
                    }
                }
            }
        }
        return done.withLock { runs in
            runs.compactMap { runs in
                guard var first = runs.first else { return nil }
                for other in runs.dropFirst() { first.recordRepeat(other) }
                return first
            }
        }
    }

    /// Runs one cell: decided here when the extension would not be offered, else its own `sharing run`.
    static func run(_ planned: Planned, limit: Double) -> CellResult {
        if let reasons = planned.notActivated {
            return CellResult(cell: planned.cell, status: .run(.notActivated), reason: reasons.joined(separator: "; "), seconds: 0, report: nil,
                              appGroupFiles: [], attachments: planned.attachments, arguments: planned.arguments, reproduce: planned.reproduce)
        }

        // A cell's directory starts empty, whatever an interrupted matrix left in it.
        let cellDirectory = planned.appGroups?.deletingLastPathComponent()
        if let cellDirectory { try? FileManager.default.removeItem(at: cellDirectory) }
        let clock = ContinuousClock(), start = clock.now
        let outcome = spawn(planned.arguments + ["--json"], limit: limit, watchingDescendants: planned.killsHost)
        let seconds = start.duration(to: clock.now).inSeconds
        let kept = planned.appGroups.map(filesKept(in:)) ?? []
        // What the extension kept is recorded; the files themselves go (a large share's cell may have kept 2 GB),
        // and the cell's command makes them again.
        if let cellDirectory { try? FileManager.default.removeItem(at: cellDirectory) }
        func result(_ status: CellStatus, _ reason: String?, _ report: RunReport?, log: String) -> CellResult {
            CellResult(cell: planned.cell, status: status, reason: reason, seconds: seconds, report: report, appGroupFiles: kept,
                       attachments: planned.attachments, logTail: log.split(separator: "\n").suffix(20).map(String.init),
                       arguments: planned.arguments, reproduce: planned.reproduce)
        }
        switch outcome {
        case .exited(_, let output, let log) where planned.arguments.first == "notify":
            return notification(output, log: log) { result($0, $1, $2, log: $3) }
        case .exited(let status, let output, let log):
            guard let report = try? JSONDecoder().decode(RunReport.self, from: output) else {
                return result(.harnessError, "sharing run exited \(status) with no report", nil, log: log)
            }
            return result(.run(report.status), report.reason, report, log: log)
        case .hostGone(let watched, let leftover, let log):
            guard leftover.isEmpty else {
                return result(.leaked, "\(leftover.count) process\(leftover.count == 1 ? "" : "es") of the extension outlived its host by a second (killed now): \(leftover.map(String.init).joined(separator: ", "))", nil, log: log)
            }
            let reason = watched == 0 ? "the host was killed before it started a process"
                : "the host was killed; the \(watched) process\(watched == 1 ? "" : "es") it had started ended with it"
            return result(.hostKilled, reason, nil, log: log)
        case .failed(let why, let log):
            return result(.harnessError, why, nil, log: log)
        }
    }

    /// What `sharing notify --json` said of a payload's cell: the service's status, or not activated when the
    /// payload did not ask for it or Apple's push service would refuse it (then `notify` says why, exit 2).
    private static func notification(_ output: Data, log: String, _ result: (CellStatus, String?, RunReport?, String) -> CellResult) -> CellResult {
        guard let delivery = (try? JSONDecoder().decode([NotifyCommand.Report].self, from: output))?.first else {
            let said = log.split(separator: "\n").first { $0.hasPrefix("sharing: error: --payload ") }
            guard let said else { return result(.harnessError, "sharing notify printed no report", nil, log) }
            return result(.run(.notActivated), "refused before the extension: " + said.dropFirst("sharing: error: ".count), nil, log)
        }
        guard let status = delivery.status.flatMap(ExtensionStatus.init(rawValue:)) else {
            return result(.run(.notActivated), "the payload does not ask for the extension: shown as sent", nil, log)
        }
        var cell = result(.run(status), delivery.reason, nil, log)
        cell.peakFootprint = delivery.peakFootprint
        // What the person sees: the title, the body and the attachments of the notification as shown.
        cell.returned = [RunReport.Returned(type: "title", text: delivery.content.title), RunReport.Returned(type: "body", text: delivery.content.body)]
            + delivery.content.attachments.map { RunReport.Returned(type: $0.type, size: $0.size) }
        cell.logTail = delivery.log ?? []
        cell.notes = status == .completed && delivery.delivered == "original" ? ["the original content was shown, not the extension's"] : []
        return cell
    }

    /// The regular files a cell's extension left in its app group containers, relative to them.
    static func filesKept(in groups: URL) -> [String] {
        (FileManager.default.enumerator(atPath: groups.path)?.allObjects as? [String] ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: groups.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    enum Spawned {
        /// It ended by itself: its exit status, what it printed, what it said on standard error.
        case exited(Int32, output: Data, log: String)
        /// The host was killed (as its fault asked): how many processes it was seen to start, and those of them
        /// still alive a second later.
        case hostGone(watched: Int, leftover: [pid_t], log: String)
        case failed(String, log: String)
    }

    /// Runs this program with `arguments`, killed when it outlives `limit` seconds: how it ended, what it printed. When `watchingDescendants`, the processes it starts are noted as it runs, and once it has
    /// been killed, those still alive a second later are reported and killed.
    static func spawn(_ arguments: [String], limit: Double, watchingDescendants: Bool) -> Spawned {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failed("cannot start sharing run: \(error)", log: "")
        }
        let ended = Locked(false)
        let pid = process.processIdentifier
        // Killed through a descriptor held from its start, so that no signal reaches a number reused after it
        // was reaped; the descriptor closes once it has ended, and the watchdog, past that, does nothing.
        let descriptor = csharing_pidfd_open(pid)
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
            ended.withLock { if !$0 && descriptor >= 0 { _ = csharing_pidfd_send_signal(descriptor, SIGKILL) } }
        }
        let seen = Locked(Set<ProcessIdentity>())
        if watchingDescendants {
            DispatchQueue.global().async {
                while !ended.withLock({ $0 }) {
                    let found = ProcessIdentity.descendants(of: pid)
                    seen.withLock { $0.formUnion(found) }
                    usleep(20_000)
                }
            }
        }
        let errorData = Locked(Data())
        let readErrors = DispatchGroup()
        DispatchQueue.global().async(group: readErrors) { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        readErrors.wait()
        process.waitUntilExit()
        ended.withLock { isEnded in
            isEnded = true
            if descriptor >= 0 { close(descriptor) }
        }
        let log = String(decoding: errorData.withLock { $0 }, as: UTF8.self)
        if process.terminationReason == .uncaughtSignal {
            if watchingDescendants && process.terminationStatus == SIGKILL && data.isEmpty {
                let watched = seen.withLock { $0 }
                let alive = ProcessIdentity.survivors(of: watched, within: .seconds(1))
                for leftover in alive { leftover.kill() }
                return .hostGone(watched: watched.count, leftover: alive.map(\.pid).sorted(), log: log)
            }
            return .failed("sharing \(arguments.first ?? "") was killed by signal \(process.terminationStatus)\(process.terminationStatus == SIGKILL ? " (over the matrix's \(Int(limit)) s)" : "")", log: log)
        }
        return .exited(process.terminationStatus, output: data, log: log)
    }
}

#endif
