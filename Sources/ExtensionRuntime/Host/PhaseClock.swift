import SharingSystem

/// One time budget of an extension (starting up, a request, the time after completion), counted as a device
/// counts it: the time since the phase began, less the time the machine kept the extension waiting for a core.
///
/// A busy machine slows the extension and leaves its budget alone. What a busy machine takes is the most any
/// one thread of the extension waited in the kernel's run queue since the phase began (each thread's
/// run-queue delay, `/proc/PID/task/TID/schedstat`), less a wake-up's wait for each time it was put on a core:
/// the extension's longest line of work was held back at least that long. Taking the most, not the sum, never
/// credits more than one thread's wait, so the budget is never kinder than the device's. The wake-up's wait is
/// not credited because a thread that wakes a hundred thousand times to poll (Foundation's URLSession on
/// Linux spins its threads while a download waits on the network: 128,000 slices in 4 s, measured) waits a
/// little for a core at each wake, a wait that holds back nothing the network would have delivered sooner;
/// a thread at work on its own computation waits milliseconds for each slice, almost all of them credited.
/// Threads are read whenever the clock is, and every tenth of a second, so a thread that ends keeps its wait.
struct PhaseClock {
    let phase: TimeoutPhase
    let start: ContinuousClock.Instant
    let budget: Duration
    /// Each thread's wait for a core when the phase began, and when last read.
    private let baseline: [Int32: ProcessTree.CoreWait]
    private var latest: [Int32: ProcessTree.CoreWait] = [:]
    private(set) var readAt: ContinuousClock.Instant

    /// How often the threads are read while nothing else asks.
    static let interval: Duration = .milliseconds(100)
    /// What a thread waits for a core as it wakes, on any machine, for each time slice: not credited.
    static let wakeUpWait: UInt64 = 100_000

    init(_ phase: TimeoutPhase, start: ContinuousClock.Instant, budget: Duration, tree: ProcessTree?) {
        self.phase = phase
        self.start = start
        self.budget = budget
        baseline = tree?.runQueueDelays() ?? [:]
        readAt = start
    }

    /// Reads each thread's run-queue delay now.
    mutating func read(_ tree: ProcessTree, at now: ContinuousClock.Instant) {
        latest.merge(tree.runQueueDelays()) { earlier, now in now.delay >= earlier.delay ? now : earlier }
        readAt = now
    }

    /// How long the machine kept the extension waiting for a core since the phase began, as last read.
    var waited: Duration {
        let most = latest.map { thread, wait -> UInt64 in
            let before = baseline[thread] ?? ProcessTree.CoreWait(delay: 0, slices: 0)
            let delay = wait.delay - min(wait.delay, before.delay)
            let wakeUps = (wait.slices - min(wait.slices, before.slices)).multipliedReportingOverflow(by: Self.wakeUpWait)
            return wakeUps.overflow ? 0 : delay - min(delay, wakeUps.partialValue)
        }.max() ?? 0
        return .nanoseconds(Int64(clamping: most))
    }

    /// The budget spent by `now`: the time since the phase began less what the machine kept the extension waiting.
    func spent(at now: ContinuousClock.Instant) -> Duration {
        max(.zero, now - start - waited)
    }
}
