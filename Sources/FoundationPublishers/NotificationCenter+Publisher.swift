public import Foundation
public import OpenCombine

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

        /// Observes the centre for `subscriber`: notifications reach it while it has demand, the rest are
        /// dropped, as Foundation's publisher drops them; cancelling removes the observer.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = DroppingSubscription<Notification>(AnySubscriber(subscriber))
            let observer = center.addObserver(forName: name, object: object, queue: nil) { [weak subscription] notification in
                subscription?.send(notification)
            }
            let center = center
            subscription.whenCancelled { center.removeObserver(observer) }
            subscriber.receive(subscription: subscription)
        }
    }
}
