#if os(Linux)
@testable import ExtensionRuntime
import Foundation
import SharingSystem
import Testing

/// What the quiet watch counts as work seen while it waited: the scripted user's own turn is not, a busy machine or
/// not; anything else at work is.
@Suite("The quiet watch: the asker's own turn is not work")
struct QuietWatchTests {
    /// A waiter asked from this thread now.
    private func waiter() -> QuietWatch.Waiter {
        let thread = ProcessActivity.currentThread
        return QuietWatch.Waiter(body: { _ in }, asker: thread, askerOnCore: ProcessActivity.timeOnCore(thread))
    }

    /// Keeps this thread on a core until it has spent `nanoseconds` there since `start`.
    private func spin(_ nanoseconds: UInt64, since start: UInt64) {
        let thread = ProcessActivity.currentThread
        while (ProcessActivity.timeOnCore(thread) ?? .max) - start < nanoseconds {}
    }

    @Test("the asker running as it finishes its turn is not work; once it has spent more than a turn on a core, it is")
    func askerRunning() throws {
        let asked = waiter()
        let start = try #require(asked.askerOnCore, "the kernel gives this thread's time on a core")
        let running: [Int32: ProcessActivity.Work] = [asked.asker: .running]
        // A busy machine keeps the asker waiting for a core as long as it likes: no time on a core passes.
        #expect(!QuietWatch.sawWork(running, activities: 0, for: asked))
        spin(QuietWatch.askerWork + 1_000_000, since: start)
        #expect(QuietWatch.sawWork(running, activities: 0, for: asked))
    }

    @Test("another thread running, the asker held in a call or the disk's wait, or an expiring activity: work")
    func otherWork() {
        let asked = waiter()
        #expect(QuietWatch.sawWork([asked.asker &+ 1: .running], activities: 0, for: asked))
        #expect(QuietWatch.sawWork([asked.asker: .waiting], activities: 0, for: asked))
        #expect(QuietWatch.sawWork([:], activities: 1, for: asked))
        #expect(!QuietWatch.sawWork([:], activities: 0, for: asked))
    }
}
#endif
