public import Foundation
import PackageSupport
import SharingSystem

/// Runs a matrix's planned cells, each as a process of its own — `sharing run` or `sharing notify` with the
/// cell's arguments, so that a cell that takes its host down takes nothing else — `jobs` at a time, in a
/// seeded order, each as many times as asked. Reads each cell's typed report back from the process's JSON;
/// under `host-killed`, finds what of the extension outlived its host.
public struct MatrixRunner: Sendable {
    /// The `sharing` program that runs a cell.
    public var program: URL
    /// Cells run at a time.
    public var jobs: Int
    /// Runs of each cell; a cell whose status varies is flaky.
    public var repeats: Int
    /// The longest a cell's process may take before the matrix kills it (a `harness-error`).
    public var limit: Duration

    public init(program: URL, jobs: Int, repeats: Int = 1, limit: Duration) {
        self.program = program
        self.jobs = max(1, jobs)
        self.repeats = max(1, repeats)
        self.limit = limit
    }

    /// Runs `cells` in `order` (indices into `cells`), each `repeats` times; the results in the cells' order,
    /// each with its place in the order it started. `finished` is called as each run ends, from any thread.
    public func run(_ cells: [PlannedCell], order: [Int], finished: @escaping @Sendable (CellResult) -> Void = { _ in }) async -> [CellResult] {
        // What matrices whose process has ended left of their cells (an interrupted run's) is moved aside at once and
        // removed while these run: no cell waits for it, and a matrix still running beside this one keeps its own.
        let leftovers = Self.moveAsideDeadRuns(beside: cells.first?.directory.deletingLastPathComponent())
        async let removed: Void = BlockingThreads.run { for leftover in leftovers { try? FileSystem.removeTree(leftover) } }
        // A cell's runs one after another, by one worker: they share the cell's directory (its app group),
        // which each run's end removes.
        let next = Locked((cell: 0, run: 0))
        let done = Locked([[CellResult]](repeating: [], count: cells.count))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(jobs, max(order.count, 1)) {
                group.addTask {
                    while true {
                        let position = next.withLock { next -> Int in
                            defer { next.cell += 1 }
                            return next.cell
                        }
                        guard position < order.count else { return }
                        let index = order[position]
                        for _ in 0..<repeats {
                            let started = next.withLock { next -> Int in
                                defer { next.run += 1 }
                                return next.run
                            }
                            var result = await BlockingThreads.run { [self] in run(cells[index]) }
                            result.order = started
                            finished(result)
                            done.withLock { $0[index].append(result) }
                        }
                    }
                }
            }
        }
        await removed
        return done.withLock { runs in
            runs.compactMap { runs in
                guard var first = runs.min(by: { ($0.order ?? 0) < ($1.order ?? 0) }) else { return nil }
                for other in runs where other.order != first.order { first.recordRepeat(other) }
                return first
            }
        }
    }

    /// Renames `directory`, when there is one, to a name of its own beside it: where it was is free at once.
    /// Moves aside the cells' folders of matrices whose process has ended, in the work directory that holds
    /// `folder` (this run's): each `cells-PID` whose PID runs no process, renamed so that no later run takes it
    /// for its own; the new places.
    private static func moveAsideDeadRuns(beside folder: URL?) -> [URL] {
        guard let folder else { return [] }
        let work = folder.deletingLastPathComponent()
        let names = (try? FileSystem.contentsOfDirectory(work)) ?? []
        return names.compactMap { name -> URL? in
            guard name.hasPrefix("cells-"), let process = Int32(name.dropFirst("cells-".count)), process > 0, !Processes.exists(process) else { return nil }
            let aside = work.appending(component: ".\(name)-removing-\(UUID().uuidString)")
            return (try? FileSystem.renameNoReplace(work.appending(component: name), to: aside)) != nil ? aside : nil
        }
    }

    /// Runs one cell: decided when planned so, else its own process. Blocks: call it from `BlockingThreads`.
    func run(_ planned: PlannedCell) -> CellResult {
        let cell = planned.cell
        if let (status, reason) = planned.decided {
            return CellResult(cell: cell, status: status, reason: reason, attachments: planned.attachments)
        }
        let clock = ContinuousClock(), start = clock.now
        let spawned: ChildProcess.Result
        do {
            spawned = try ChildProcess.run(program, arguments: cell.arguments + ["--json"], deadline: limit, watchingDescendants: cell.killsHost)
        } catch {
            return CellResult(cell: cell, status: .harnessError, reason: "cannot start \(program.lastPathComponent): \(error)")
        }
        let seconds = start.duration(to: clock.now).inSeconds
        let kept = planned.keptFiles()
        // What the extension kept is recorded; the files themselves go (a large share's cell may have kept 2 GB),
        // and the cell's command makes them again.
        try? FileSystem.removeTree(planned.directory)
        let log = spawned.errorTail.split(separator: "\n").suffix(20).map(String.init)
        func failed(_ status: CellStatus, _ reason: String) -> CellResult {
            CellResult(cell: cell, status: status, reason: reason, seconds: seconds, attachments: planned.attachments, logTail: log)
        }
        if spawned.killedAtDeadline {
            return failed(.harnessError, "\(cell.arguments.first ?? "") outlived the matrix's \(Int(limit.inSeconds)) s and was killed")
        }
        if cell.killsHost, spawned.termination == .signalled(SIGKILL), spawned.output.isEmpty {
            let alive = ProcessIdentity.survivors(of: spawned.descendants)
            guard alive.isEmpty else {
                for leftover in alive { leftover.kill() }
                return failed(.leaked, "\(alive.count) process\(alive.count == 1 ? "" : "es") of the extension outlived its host, no end coming (killed now): \(alive.map { String($0.pid) }.joined(separator: ", "))")
            }
            let watched = spawned.descendants.count
            return failed(.hostKilled, watched == 0 ? "the host was killed before it started a process"
                                                    : "the host was killed; the \(watched) process\(watched == 1 ? "" : "es") it had started ended with it")
        }
        let exit = "\(cell.arguments.first ?? "sharing") \(spawned.termination)"
        do {
            switch cell.kind {
            case .share:
                let report = try JSONDecoder().decode(RunReport.self, from: spawned.output)
                guard report.cell == cell else { return failed(.harnessError, "\(exit), reporting another cell than it was given") }
                return CellResult(report, seconds: seconds, appGroupFiles: kept)
            case .notifications:
                let report = try JSONDecoder().decode(NotificationRunReport.self, from: spawned.output)
                guard report.cell == cell else { return failed(.harnessError, "\(exit), reporting another cell than it was given") }
                return CellResult(report, seconds: seconds, appGroupFiles: kept)
            }
        } catch {
            return failed(.harnessError, "\(exit) with no report")
        }
    }
}
