import Foundation
import PackageSupport

/// The work of one request that its scripted user waits for before acting: each load of one of the request's
/// input item providers, and each URL the extension asks the host to open, from its start until its
/// completion handler has returned.
///
/// The user acts once the extension is quiescent (Espresso's idling resources, XCUITest's wait for an idle
/// app), so a busy machine slows what the user waits for and the user alike, and what the user does no longer
/// depends on the machine's load.
package final class WorkInProgress: Sendable {
    private struct State {
        var count = 0
        /// Changes whenever work begins or ends.
        var generation: UInt64 = 0
        var waiting: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    package init() {}

    package func begin() {
        state.withLock { state in
            state.count += 1
            state.generation &+= 1
        }
    }

    package func end() {
        let idle = state.withLock { state -> [@Sendable () -> Void] in
            state.count -= 1
            state.generation &+= 1
            guard state.count == 0 else { return [] }
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for body in idle { body() }
    }

    /// How much work is in progress, and a number that changes whenever work begins or ends.
    package var snapshot: (count: Int, generation: UInt64) {
        state.withLock { ($0.count, $0.generation) }
    }

    /// Calls `body` once nothing is in progress: at once when nothing is, else on the thread that ends the
    /// last of it.
    package func whenIdle(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.count > 0 else { return true }
            state.waiting.append(body)
            return false
        }
        if now { body() }
    }
}
