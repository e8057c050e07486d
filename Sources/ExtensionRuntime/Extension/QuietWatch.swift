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
final class QuietWatch: Sendable {
    /// The one watch of the process.
    static let shared = QuietWatch()

    private struct Waiter {
        var body: @Sendable (_ waited: Bool) -> Void
        /// A look since it asked found the process at work.
        var waited = false
    }
    private let waiters = Locked<[Waiter]>([])
    private let asked = DispatchSemaphore(value: 0)

    /// How long the watch sleeps between two looks.
    static let interval: Duration = .milliseconds(5)

    private init() {
        Thread.detachNewThread { [self] in watch() }
    }

    /// Calls `body` on the watch's thread once the process is quiet, `waited` telling whether it was at work first.
    func whenQuiet(_ body: @escaping @Sendable (_ waited: Bool) -> Void) {
        waiters.withLock { $0.append(Waiter(body: body)) }
        asked.signal()
    }

    private func watch() {
        while true {
            asked.wait()
            while !waiters.withLock(\.isEmpty) {
                if ProcessActivity.busyThreads() == 0 && ProcessActivities.count == 0 {
                    let ready = waiters.withLock { waiters in
                        defer { waiters.removeAll() }
                        return waiters
                    }
                    for waiter in ready { waiter.body(waiter.waited) }
                } else {
                    waiters.withLock { waiters in
                        for index in waiters.indices { waiters[index].waited = true }
                    }
                    Thread.sleep(forTimeInterval: Self.interval.inSeconds)
                }
            }
        }
    }
}
