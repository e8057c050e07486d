import Foundation
import OpenUserNotifications

/// The notification center of a notification service run by the runtime: the host's, which keeps the
/// categories and the delivered notifications for the run.
struct HostNotificationCenter: NotificationCenterBackend {
    let connection: ExtensionEndpoint

    func setCategories(_ categories: [UNNotificationCategory]) {
        connection.center(.setCategories(categories.map(NotificationMirror.wire)))
    }

    func categories(_ reply: @escaping @Sendable ([UNNotificationCategory]) -> Void) {
        connection.center(.categories) { answer in
            guard case .categories(let categories)? = answer else { return reply([]) }
            reply(categories.map(NotificationMirror.category))
        }
    }

    func delivered(_ reply: @escaping @Sendable ([UNNotification]) -> Void) {
        connection.center(.delivered) { answer in
            guard case .delivered(let notifications)? = answer else { return reply([]) }
            reply(notifications.map { notification in
                let content = UNNotificationContent(fields: NotificationMirror.fields(notification.content))
                return UNNotification(date: Date(timeIntervalSinceReferenceDate: notification.date),
                                      request: UNNotificationRequest(identifier: notification.identifier, content: content, trigger: UNPushNotificationTrigger()))
            })
        }
    }

    func removeDelivered(_ identifiers: [String]) {
        connection.center(.removeDelivered(identifiers))
    }

    func removeAllDelivered() {
        connection.center(.removeAllDelivered)
    }
}
