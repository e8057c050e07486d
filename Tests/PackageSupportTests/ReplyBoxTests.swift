import Dispatch
import Foundation
import PackageSupport
import Testing

/// Whoever waits on a `ReplyBox` gets one reply, once, however the resolvers race: the answer, a cancellation,
/// a timeout and the peer's going away, from threads of their own, against a handler, an `await` and a
/// blocked thread. Run under the thread sanitizer by `make test`.
@Suite("ReplyBox: one reply, once")
struct ReplyBoxTests {
    enum Reply: Int, Sendable, CaseIterable {
        case answered, cancelled, timedOut, disconnected
    }

    /// `body`'s result, computed on a thread that may block (one of Dispatch's, not Swift concurrency's).
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ReplyBox<T> {
        let result = ReplyBox<T>()
        DispatchQueue.global().async { result.resolve(body()) }
        return result
    }

    /// Counts calls, and remembers every reply seen, across threads.
    final class Witness: Sendable {
        private let seen = Locked<[Reply]>([])
        func saw(_ reply: Reply) { seen.withLock { $0.append(reply) } }
        var replies: [Reply] { seen.withLock { $0 } }
    }

    @Test("two thousand races of four resolvers, a timer and three kinds of waiter: each box resolved once, every waiter told the same")
    func races() async throws {
        for round in 0..<2000 {
            let witness = Witness()
            // Handlers run on the resolving thread after the box's lock is let go: each says when it has run.
            let handled = (ReplyBox<Void>(), ReplyBox<Void>())
            let box = ReplyBox<Reply> { witness.saw($0); handled.0.resolve(()) }
            let winners = Locked(0)
            // The timer may fire first, or after everyone, or while the others race.
            box.resolve(with: .timedOut, after: .microseconds(round % 50))
            let blocked = Self.onThread { box.wait() }
            async let awaited = box.value
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                if index == 1 { box.whenResolved { witness.saw($0); handled.1.resolve(()) } }
                let reply = [Reply.answered, .cancelled, .disconnected, .answered][index]
                if box.resolve(reply) { winners.withLock { $0 += 1 } }
            }
            let won = try #require(box.current)
            let wait = await blocked.value
            let value = await awaited
            await handled.0.value
            await handled.1.value
            #expect(wait == won && value == won)
            #expect(witness.replies == [won, won], "round \(round)")
            // The timer, if it comes later, finds the box full; if it came first, no thread won.
            #expect(winners.withLock { $0 } == (won == .timedOut ? 0 : 1), "round \(round)")
        }
    }

    @Test("a late resolve changes nothing and says so; a late waiter gets the reply at once, on its own thread")
    func lateComers() {
        let box = ReplyBox<Reply>()
        #expect(box.current == nil)
        #expect(box.resolve(.cancelled))
        #expect(!box.resolve(.answered))
        let thread = Locked<Thread?>(nil)
        box.whenResolved { reply in
            #expect(reply == .cancelled)
            thread.withLock { $0 = Thread.current }
        }
        #expect(thread.withLock { $0 } === Thread.current)
        #expect(box.current == .cancelled)
    }

    @Test("a blocked wait with a timeout ends with no reply when none comes, and with the reply when one does")
    func waitTimeout() async {
        let box = ReplyBox<Reply>()
        let none = await Self.onThread { box.wait(timeout: .milliseconds(20)) }.value
        #expect(none == nil)
        let some = Self.onThread { box.wait(timeout: .seconds(60)) }
        box.resolve(.disconnected)
        #expect(await some.value == .disconnected)
    }
}
