import SharingSystem

/// One time budget of an extension (starting up, a request, the time after completion), counted as a device
/// counts it: the time since the phase began, less the time the machine held the extension back — waiting for
/// a core, and waiting on a disk busy with others' work.
///
/// A busy machine slows the extension and leaves its budget alone. What a busy machine takes is the most any
/// one thread of the extension was held back since the phase began: the extension's longest line of work was
/// held back at least that long. Taking the most, not the sum, never credits more than one thread's wait, so
/// the budget is never kinder than the device's. A thread is held back
/// - for as long as it waited in the kernel's run queue (`/proc/PID/task/TID/schedstat`);
/// - for the others' share of its waits on the disk: the time it was seen in uninterruptible sleep (state `D`,
///   sampled at each reading), times the part of the disk's bytes since the phase began that were not the
///   extension's (`/sys/dev/block/…/stat` against the tree's `/proc/PID/io`). On a disk that works for the
///   extension alone nothing is credited: its own reads, writes and flushes are charged, as a device charges
///   them; a disk that moved nine bytes for others to each of the extension's credits nine tenths of the wait.
///
/// Threads are read whenever the clock is, and every tenth of a second, so that a thread that ends keeps its
/// wait, and a sleep is sampled often.
struct PhaseClock {
    let phase: TimeoutPhase
    let start: ContinuousClock.Instant
    let budget: Duration
    /// Each thread's run-queue delay when the phase began, and when last read.
    private let baseline: [Int32: UInt64]
    private var latest: [Int32: UInt64] = [:]
    /// Each thread's time seen in uninterruptible sleep since the phase began.
    private var asleep: [Int32: Duration] = [:]
    /// The disk the extension stores on, its bytes moved when the phase began and when last read, and each
    /// process's own when the phase began and when last read (a process that ended keeps its last count).
    private let disk: StorageDevice?
    private let diskBaseline: UInt64
    private var diskLatest: UInt64
    private let treeBaseline: [Int32: UInt64]
    private var treeLatest: [Int32: UInt64] = [:]
    private(set) var readAt: ContinuousClock.Instant

    /// How often the threads are read while nothing else asks.
    static let interval: Duration = .milliseconds(100)
    /// The most one reading credits a thread seen asleep: a reading made late (the host itself waiting for a
    /// core) does not stretch one sighting over the time nobody looked.
    static let longestSighting: Duration = interval * 2

    init(_ phase: TimeoutPhase, start: ContinuousClock.Instant, budget: Duration, tree: ProcessTree?, disk: StorageDevice?) {
        self.phase = phase
        self.start = start
        self.budget = budget
        baseline = tree?.threads().mapValues(\.runQueueDelay) ?? [:]
        self.disk = disk
        diskBaseline = disk?.bytesMoved() ?? 0
        diskLatest = diskBaseline
        treeBaseline = disk == nil ? [:] : tree?.storageBytes() ?? [:]
        readAt = start
    }

    /// Reads each thread now.
    mutating func read(_ tree: ProcessTree, at now: ContinuousClock.Instant) {
        let sighting = min(now - readAt, Self.longestSighting)
        for (thread, state) in tree.threads() {
            latest[thread] = max(latest[thread] ?? 0, state.runQueueDelay)
            if state.uninterruptible { asleep[thread, default: .zero] += sighting }
        }
        if let disk {
            diskLatest = max(diskLatest, disk.bytesMoved() ?? 0)
            treeLatest.merge(tree.storageBytes()) { earlier, now in max(earlier, now) }
        }
        readAt = now
    }

    /// How long the machine kept the extension waiting for a core since the phase began, as last read.
    var waitedForCore: Duration {
        .nanoseconds(Int64(clamping: latest.map { thread, delay in queued(thread, delay) }.max() ?? 0))
    }

    /// How long the machine held the extension back since the phase began, as last read: for a core and for
    /// its disk, along the thread held back the most.
    var waited: Duration {
        let share = othersShareOfDisk
        let threads = Set(latest.keys).union(asleep.keys)
        return threads.map { thread in
            .nanoseconds(Int64(clamping: queued(thread, latest[thread] ?? 0))) + (asleep[thread] ?? .zero) * share
        }.max() ?? .zero
    }

    /// The part of what the disk moved since the phase began that was not the extension's, from 0 to 1.
    private var othersShareOfDisk: Double {
        let moved = diskLatest - diskBaseline
        guard moved > 0 else { return 0 }
        let own = treeLatest.reduce(UInt64(0)) { sum, process in sum + (process.value - min(process.value, treeBaseline[process.key] ?? 0)) }
        return Double(moved - min(moved, own)) / Double(moved)
    }

    private func queued(_ thread: Int32, _ delay: UInt64) -> UInt64 {
        delay - min(delay, baseline[thread] ?? 0)
    }

    /// The budget spent by `now`: the time since the phase began less what the machine held the extension back.
    func spent(at now: ContinuousClock.Instant) -> Duration {
        max(.zero, now - start - waited)
    }
}
