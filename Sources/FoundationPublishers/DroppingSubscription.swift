import OpenCombine
import PackageSupport

/// One subscriber of a source that does not wait for demand — a timer, a notification centre: a value goes to
/// the subscriber while it has demand and is dropped otherwise, as Foundation's publishers drop them.
/// Cancelling stops delivery and runs what the source gave to undo its side (`whenCancelled`), once.
final class DroppingSubscription<Output>: Subscription, @unchecked Sendable {
    private struct State {
        var subscriber: AnySubscriber<Output, Never>?
        var demand = Subscribers.Demand.none
        var whenCancelled: (() -> Void)?
    }

    // @unchecked: its state is only touched under this lock.
    private let state: Locked<State>

    init(_ subscriber: AnySubscriber<Output, Never>) {
        state = Locked(State(subscriber: subscriber))
    }

    /// What cancelling undoes at the source (an observer removed, the subscription forgotten).
    func whenCancelled(_ body: @escaping () -> Void) {
        state.withLock { $0.whenCancelled = body }
    }

    func send(_ value: Output) {
        let subscriber: AnySubscriber<Output, Never>? = state.withLock { state in
            guard state.demand > 0, let subscriber = state.subscriber else { return nil }
            state.demand -= 1
            return subscriber
        }
        guard let subscriber else { return }
        let more = subscriber.receive(value)
        state.withLock { $0.demand += more }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.demand += demand }
    }

    func cancel() {
        let undo = state.withLock { state in
            state.subscriber = nil
            defer { state.whenCancelled = nil }
            return state.whenCancelled
        }
        undo?()
    }
}
