public import Foundation

/// The trigger of a notification that came from Apple's push service: what a notification service extension's
/// request carries. The system makes these. Stands in for `UNPushNotificationTrigger`.
open class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {}
