import Foundation

/// The one reply to one request, whoever gives it first: the answer, a cancellation, a timeout, the peer's
/// going away. Each of them calls `resolve`; the first wins and the others are ignored, so that whoever
/// waits — a handler, an `await`, a thread of the platform layer — gets exactly one reply, once.
///
/// ```swift
/// let reply = ReplyBox<Result<Data, NSError>> { result in completion(result) }
/// reply.resolve(with: .failure(timedOut), after: .seconds(30))
/// connection.onDisconnect { reply.resolve(.failure(gone)) }
/// loader { data in reply.resolve(.success(data)) }
/// ```
///
/// The shape of apple/container's `XPCReplyBox`, in our words.
// @unchecked: its mutable state is only touched under its lock (its condition's).
package final class ReplyBox<Reply: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var reply: Reply?
    private var handlers: [@Sendable (Reply) -> Void] = []
    private var continuations: [CheckedContinuation<Reply, Never>] = []

    package init() {}

    /// A box whose reply goes to `handler`, once, on the thread that resolves it.
    package convenience init(_ handler: @escaping @Sendable (Reply) -> Void) {
        self.init()
        handlers.append(handler)
    }

    /// Fills the box unless something already did; whether this call was the one that did. Whoever waits is
    /// handed the reply on this thread, after the box's lock is let go.
    @discardableResult
    package func resolve(_ reply: Reply) -> Bool {
        condition.lock()
        guard self.reply == nil else {
            condition.unlock()
            return false
        }
        self.reply = reply
        let waiting = (handlers, continuations)
        handlers = []
        continuations = []
        condition.broadcast()
        condition.unlock()
        for handler in waiting.0 { handler(reply) }
        for continuation in waiting.1 { continuation.resume(returning: reply) }
        return true
    }

    /// Fills the box with `reply` after `delay`, unless something fills it first: a timeout.
    package func resolve(with reply: Reply, after delay: Duration) {
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, delay.inSeconds)) { [self] in resolve(reply) }
    }

    /// The reply, if the box has one.
    package var current: Reply? {
        condition.withLock { reply }
    }

    /// Calls `handler` with the reply once the box has one: at once, on this thread, if it already has.
    package func whenResolved(_ handler: @escaping @Sendable (Reply) -> Void) {
        condition.lock()
        if let reply {
            condition.unlock()
            handler(reply)
        } else {
            handlers.append(handler)
            condition.unlock()
        }
    }

    /// The reply, suspending the task (never blocking its thread) until there is one.
    package var value: Reply {
        get async {
            await withCheckedContinuation { continuation in
                condition.lock()
                if let reply {
                    condition.unlock()
                    continuation.resume(returning: reply)
                } else {
                    continuations.append(continuation)
                    condition.unlock()
                }
            }
        }
    }

    /// Blocks the calling thread until the box has a reply, or `timeout` passes (`nil` then). Only on threads
    /// that may block (the platform layer's), never on Swift concurrency's: that traps in debug builds.
    package func wait(timeout: Duration? = nil) -> Reply? {
        Blocking.mayBlock("waiting for a reply")
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0.inSeconds) }
        condition.lock()
        defer { condition.unlock() }
        while reply == nil {
            if let deadline {
                if !condition.wait(until: deadline) && reply == nil { return nil }
            } else {
                condition.wait()
            }
        }
        return reply
    }
}

/// Where blocking is allowed: threads of our own, never the few threads of Swift concurrency's cooperative
/// pool (one per core, two on the project's machines), which a blocked thread takes from every task.
package enum Blocking {
    /// Traps, in debug builds, when the caller runs inside a Swift concurrency task: `what` would block one of
    /// the pool's threads. Every blocking wait in the package calls this first, so that the tests (debug
    /// builds) find any path from a task to a wait.
    package static func mayBlock(_ what: @autoclosure () -> String) {
        assert(withUnsafeCurrentTask { $0 == nil }, "\(what()) would block a thread of Swift concurrency's pool")
    }
}
