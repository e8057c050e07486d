import Foundation

/// The trigger of a notification that came from Apple's push service: what a notification service extension's
/// request carries. The system makes these. Stands in for `UNPushNotificationTrigger`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check.
open class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {}
