import Foundation
import PackageSupport
import SharingSystem

/// Work an extension's process is still doing after its request ended, which keeps it alive as iOS keeps an
/// extension alive while it runs: a `completeRequest` completion handler running, and each
/// `performExpiringActivity` block. When the time after completion runs out, the host says so and every
/// activity is told it has expired (its expiration runs), before the process is ended.
package enum ProcessActivities {
    private struct State {
        var next = 0
        var running: [Int: (@Sendable () -> Void)?] = [:]
        var observers: [@Sendable (Int) -> Void] = []
        var expired = false
    }

    private static let state = Locked(State())

    /// Begins an activity; `expiration` runs (on another thread) if time runs out before it ends. Give the
    /// token to `end(_:)` when the work is done.
    package static func begin(expiration: (@Sendable () -> Void)? = nil) -> Int {
        let (token, alreadyExpired) = state.withLock { state -> (Int, Bool) in
            state.next += 1
            state.running[state.next] = expiration
            return (state.next, state.expired)
        }
        if alreadyExpired, let expiration { BlockingThreads.submit(expiration) }
        notify()
        return token
    }

    /// Ends the activity `token` began.
    package static func end(_ token: Int) {
        state.withLock { _ = $0.running.removeValue(forKey: token) }
        notify()
    }

    /// How many activities are running.
    package static var count: Int { state.withLock { $0.running.count } }

    /// Calls `observer` with the count whenever it changes.
    package static func observe(_ observer: @escaping @Sendable (Int) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Time has run out: every running activity's expiration runs, each on a thread of its own, and so does
    /// that of any begun later.
    package static func expire() {
        let expirations = state.withLock { state in
            state.expired = true
            return state.running.values.compactMap { $0 }
        }
        for expiration in expirations { BlockingThreads.submit(expiration) }
    }

    private static func notify() {
        let (observers, count) = state.withLock { ($0.observers, $0.running.count) }
        for observer in observers { observer(count) }
    }
}
