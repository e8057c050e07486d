import SharingSystem

/// One time budget of an extension (starting up, a request, the time after completion), counted as a device
/// counts it: the time since the phase began, less the time the machine kept the extension waiting for a core.
///
/// A busy machine slows the extension and leaves its budget alone. What a busy machine takes is the most any
/// one thread of the extension waited in the kernel's run queue since the phase began (each thread's
/// run-queue delay, `/proc/PID/task/TID/schedstat`): the extension's longest line of work was held back at
/// least that long. Taking the most, not the sum, never credits more than one thread's wait, so the budget is
/// never kinder than the device's. Threads are read whenever the clock is, and every tenth of a second, so a
/// thread that ends keeps its wait.
struct PhaseClock {
    let phase: TimeoutPhase
    let start: ContinuousClock.Instant
    let budget: Duration
    /// Each thread's run-queue delay when the phase began, and when last read.
    private let baseline: [Int32: UInt64]
    private var latest: [Int32: UInt64] = [:]
    private(set) var readAt: ContinuousClock.Instant

    /// How often the threads are read while nothing else asks.
    static let interval: Duration = .milliseconds(100)

    init(_ phase: TimeoutPhase, start: ContinuousClock.Instant, budget: Duration, tree: ProcessTree?) {
        self.phase = phase
        self.start = start
        self.budget = budget
        baseline = tree?.runQueueDelays() ?? [:]
        readAt = start
    }

    /// Reads each thread's run-queue delay now.
    mutating func read(_ tree: ProcessTree, at now: ContinuousClock.Instant) {
        latest.merge(tree.runQueueDelays()) { earlier, now in max(earlier, now) }
        readAt = now
    }

    /// How long the machine kept the extension waiting for a core since the phase began, as last read.
    var waited: Duration {
        let most = latest.map { thread, delay in delay - min(delay, baseline[thread] ?? 0) }.max() ?? 0
        return .nanoseconds(Int64(clamping: most))
    }

    /// The budget spent by `now`: the time since the phase began less what the machine kept the extension waiting.
    func spent(at now: ContinuousClock.Instant) -> Duration {
        max(.zero, now - start - waited)
    }
}
