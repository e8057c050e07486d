public import Foundation
public import OpenCombine
import PackageSupport

extension NotificationCenter {
    /// A publisher of the notifications named `name` (from `object` only, when given) this centre posts.
    ///
    /// Stands in for Foundation's `NotificationCenter.publisher(for:object:)`, which Apple's Foundation declares
    /// beside Combine. Here it is this module's, over OpenCombine, so that it costs extensions no networking
    /// library (OpenCombineFoundation's brings FoundationNetworking with it).
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        NotificationCenter.Publisher(center: self, name: name, object: object)
    }

    /// Stands in for Foundation's `NotificationCenter.Publisher`.
    public struct Publisher: OpenCombine.Publisher {
        public typealias Output = Notification
        public typealias Failure = Never

        /// Stands in for `NotificationCenter.Publisher.center`.
        public let center: NotificationCenter
        /// Stands in for `NotificationCenter.Publisher.name`.
        public let name: Notification.Name
        /// Stands in for `NotificationCenter.Publisher.object`.
        public let object: AnyObject?

        /// Stands in for `NotificationCenter.Publisher.init(center:name:object:)`.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            subscriber.receive(subscription: NotificationSubscription(self, subscriber))
        }
    }
}

/// One subscriber's observation: notifications go to it while it has demand, the rest are dropped, as
/// Foundation's publisher drops them; cancelling removes the observer.
private final class NotificationSubscription<S: Subscriber>: Subscription, @unchecked Sendable
where S.Input == Notification, S.Failure == Never {
    private struct State {
        var subscriber: S?
        var demand = Subscribers.Demand.none
        var observer: (any NSObjectProtocol)?
    }

    private let state: Locked<State>
    private let center: NotificationCenter

    init(_ publisher: NotificationCenter.Publisher, _ subscriber: S) {
        center = publisher.center
        state = Locked(State(subscriber: subscriber))
        let observer = center.addObserver(forName: publisher.name, object: publisher.object, queue: nil) { [weak self] notification in
            self?.deliver(notification)
        }
        state.withLock { $0.observer = observer }
    }

    private func deliver(_ notification: Notification) {
        let subscriber: S? = state.withLock { state in
            guard state.demand > 0, let subscriber = state.subscriber else { return nil }
            state.demand -= 1
            return subscriber
        }
        guard let subscriber else { return }
        let more = subscriber.receive(notification)
        state.withLock { $0.demand += more }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.demand += demand }
    }

    func cancel() {
        let observer = state.withLock { state in
            state.subscriber = nil
            defer { state.observer = nil }
            return state.observer
        }
        if let observer { center.removeObserver(observer) }
    }
}
