public import Foundation
import PackageSupport

/// What of the notification center an extension uses: the app's categories, and its delivered notifications.
///
/// Stands in for `UNUserNotificationCenter`. In an extension run by OpenSharing's runtime, the host keeps both
/// for the run (`sharing notify` prints what the extension changed); elsewhere, this process keeps them.
/// Completion handlers run on a thread of their own, as Apple's may run on a background thread.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check; its state is behind a lock.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    private static let shared = UNUserNotificationCenter()

    /// The app's notification center.
    open class func current() -> UNUserNotificationCenter { shared }

    override private init() {
        super.init()
    }

    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        NotificationCenterStore.current.setCategories(Array(categories))
    }

    open func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        NotificationCenterStore.current.categories { categories in completionHandler(Set(categories)) }
    }

    open func notificationCategories() async -> Set<UNNotificationCategory> {
        await withCheckedContinuation { continuation in
            getNotificationCategories { continuation.resume(returning: $0) }
        }
    }

    open func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        NotificationCenterStore.current.delivered(completionHandler)
    }

    open func deliveredNotifications() async -> [UNNotification] {
        await withCheckedContinuation { continuation in
            getDeliveredNotifications { continuation.resume(returning: $0) }
        }
    }

    open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        NotificationCenterStore.current.removeDelivered(identifiers)
    }

    open func removeAllDeliveredNotifications() {
        NotificationCenterStore.current.removeAllDelivered()
    }
}

/// Where the notification center's categories and delivered notifications live: this process
/// (`LocalNotificationCenter`), unless the runtime installs the host's. Answers never come on the caller's thread.
package protocol NotificationCenterBackend: Sendable {
    func setCategories(_ categories: [UNNotificationCategory])
    func categories(_ reply: @escaping @Sendable ([UNNotificationCategory]) -> Void)
    func delivered(_ reply: @escaping @Sendable ([UNNotification]) -> Void)
    func removeDelivered(_ identifiers: [String])
    func removeAllDelivered()
}

/// The backend the notification center uses now.
package enum NotificationCenterStore {
    private static let installed = Locked<any NotificationCenterBackend>(LocalNotificationCenter())

    package static var current: any NotificationCenterBackend {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }
}

/// A notification center kept in this process.
package final class LocalNotificationCenter: NotificationCenterBackend {
    private let state = Locked((categories: [UNNotificationCategory](), delivered: [UNNotification]()))

    package init() {}

    package func setCategories(_ categories: [UNNotificationCategory]) {
        state.withLock { $0.categories = categories }
    }

    package func categories(_ reply: @escaping @Sendable ([UNNotificationCategory]) -> Void) {
        let categories = state.withLock { $0.categories }
        Thread.detachNewThread { reply(categories) }
    }

    package func delivered(_ reply: @escaping @Sendable ([UNNotification]) -> Void) {
        let delivered = state.withLock { $0.delivered }
        Thread.detachNewThread { reply(delivered) }
    }

    package func removeDelivered(_ identifiers: [String]) {
        state.withLock { $0.delivered.removeAll { identifiers.contains($0.request.identifier) } }
    }

    package func removeAllDelivered() {
        state.withLock { $0.delivered.removeAll() }
    }

    /// Records a notification as shown.
    package func deliver(_ notification: UNNotification) {
        state.withLock { $0.delivered.append(notification) }
    }
}
