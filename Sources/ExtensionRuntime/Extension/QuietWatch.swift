import Foundation
import OpenItemProvider
import PackageSupport
import SharingSystem

/// Waits until the extension's process is quiet — no thread but the watch's own at work (`ProcessActivity`: running
/// or waiting for a core, in the disk's wait, stopped, or held in a call the host answers) and no expiring activity
/// — and then tells whoever asked. The scripted user waits on it before acting, and the process before it ends
/// after its request. It looks on a thread of its own every few milliseconds, asleep in between, and never through
/// a dispatch timer, whose firing is itself a thread at work: a machine kept busy by others slows the threads it
/// waits for, and the watch with them, and never turns what it sees into a verdict of its own.
///
/// The thread that asked is waited for like any other, but its running is work seen on the way only once it has
/// spent `askerWork` on a core since it asked: until then it is the asker finishing the turn it asked from (the
/// scripted user's main thread on its way back to its run loop, microseconds of work), which a busy machine often
/// catches still waiting for a core. Counted as work, it made every look of the scripted user see activity, so
/// that a sheet with nothing to tap was never found stuck on a busy machine. Time on a core, not on the clock: a
/// busy machine stretches the one and not the other.
final class QuietWatch: Sendable {
    /// The one watch of the process.
    static let shared = QuietWatch()

    struct Waiter {
        var body: @Sendable (_ waited: Bool) -> Void
        /// The thread that asked, and its time on a core then (`nil` where the kernel does not say).
        var asker: Int32
        var askerOnCore: UInt64?
        /// A look since it asked found the process at work.
        var waited = false
    }
    private let waiters = Locked<[Waiter]>([])
    private let asked = DispatchSemaphore(value: 0)

    /// How much time on a core the asker may spend finishing its turn before its running is work.
    static let askerWork: UInt64 = 2_000_000

    /// How long the watch sleeps between two looks.
    static let interval: Duration = .milliseconds(5)

    private init() {
        Thread.detachNewThread { [self] in watch() }
    }

    /// Calls `body` on the watch's thread once the process is quiet, `waited` telling whether it was at work first.
    func whenQuiet(_ body: @escaping @Sendable (_ waited: Bool) -> Void) {
        let asker = ProcessActivity.currentThread
        waiters.withLock { $0.append(Waiter(body: body, asker: asker, askerOnCore: ProcessActivity.timeOnCore(asker))) }
        asked.signal()
    }

    /// Whether a look that found `busy` threads and `activities` expiring activities saw work for `waiter`: anything
    /// at work but its asker running within `askerWork` of its time on a core when it asked.
    static func sawWork(_ busy: [Int32: ProcessActivity.Work], activities: Int, for waiter: Waiter) -> Bool {
        activities > 0 || busy.contains { thread, work in
            guard thread == waiter.asker, work == .running, let then = waiter.askerOnCore,
                  let now = ProcessActivity.timeOnCore(thread) else { return true }
            return now - min(now, then) > askerWork
        }
    }

    private func watch() {
        while true {
            asked.wait()
            while !waiters.withLock(\.isEmpty) {
                let busy = ProcessActivity.busyThreads(), activities = ProcessActivities.count
                if busy.isEmpty && activities == 0 {
                    let ready = waiters.withLock { waiters in
                        defer { waiters.removeAll() }
                        return waiters
                    }
                    for waiter in ready { waiter.body(waiter.waited) }
                } else {
                    waiters.withLock { waiters in
                        for index in waiters.indices where Self.sawWork(busy, activities: activities, for: waiters[index]) {
                            waiters[index].waited = true
                        }
                    }
                    Thread.sleep(forTimeInterval: Self.interval.inSeconds)
                }
            }
        }
    }
}
