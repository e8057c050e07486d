import CSharingSystem
import Foundation

/// Threads for blocking work — copies, flushes, decoding, waiting on a child — apart from Swift concurrency's
/// cooperative pool, which has one thread per core (two on the project's machines) and must never wait on a
/// disk or a peer.
///
/// A thread that finds no work for `idleLifetime` ends; a job that finds no idle thread starts one, so a job
/// never waits behind another that blocks.
package enum BlockingThreads {
    /// What the layer's threads are called, as a debugger or `top -H` shows them.
    package static let threadName = "OS blocking"

    /// The name the system shows for the calling thread.
    package static var currentThreadName: String {
        var name = [CChar](repeating: 0, count: 64)
        csharing_thread_name(&name, name.count)
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func nameCurrentThread() {
        csharing_set_thread_name(threadName)
    }

    /// How long an idle thread waits for work before it ends.
    package static let idleLifetime: Double = 10

    private static let pool = Pool()

    /// Starts `work` on one of the layer's threads.
    package static func submit(_ work: @escaping @Sendable () -> Void) {
        pool.submit(work)
    }

    /// Runs `work` on one of the layer's threads, suspending the caller (not blocking its thread) until it
    /// returns or throws.
    package static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            submit {
                do throws(E) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Runs `body(index)` for every index in `0..<count` on up to `width` threads at once (the caller's
    /// among them) and returns when all have, as Dispatch's `concurrentPerform` does on its own threads.
    /// `body` is called from several threads at once: it must be safe to.
    package static func concurrentPerform(iterations count: Int, width: Int, _ body: @escaping (Int) -> Void) {
        // Shared across threads by the contract above; every call has returned before this does.
        nonisolated(unsafe) let body = body
        let next = Counter()
        let helpers = max(0, min(width, count) - 1)
        let done = DispatchSemaphore(value: 0)
        let work: @Sendable () -> Void = {
            while let index = next.take(below: count) { body(index) }
        }
        for _ in 0..<helpers {
            submit {
                work()
                done.signal()
            }
        }
        work()
        for _ in 0..<helpers { done.wait() }
    }

    // @unchecked: its mutable state is only touched under its lock.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func take(below limit: Int) -> Int? {
            lock.withLock {
                guard value < limit else { return nil }
                defer { value += 1 }
                return value
            }
        }
    }

    // @unchecked: its mutable state is only touched under its lock (its condition's).
    private final class Pool: @unchecked Sendable {
        private let condition = NSCondition()
        private var queue: [@Sendable () -> Void] = []
        private var head = 0
        private var idle = 0

        func submit(_ work: @escaping @Sendable () -> Void) {
            let startThread = condition.withLock { () -> Bool in
                queue.append(work)
                if idle > queue.count - head - 1 {
                    condition.signal()
                    return false
                }
                return true
            }
            if startThread { Thread { [self] in loop() }.start() }
        }

        private func loop() {
            // Named from inside: a Linux thread otherwise keeps the name of the thread that made it.
            BlockingThreads.nameCurrentThread()
            while let work = next() { work() }
        }

        /// The next job, or `nil` when none came within the idle lifetime.
        private func next() -> (@Sendable () -> Void)? {
            condition.withLock {
                while head == queue.count {
                    idle += 1
                    let signalled = condition.wait(until: Date(timeIntervalSinceNow: BlockingThreads.idleLifetime))
                    idle -= 1
                    if !signalled && head == queue.count { return nil }
                }
                let work = queue[head]
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
                return work
            }
        }
    }
}
