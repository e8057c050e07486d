import SharingShim

// A notification service that takes each notification and never calls its content handler, nor from
// serviceExtensionTimeWillExpire(): iOS shows the original content once the time runs out ("If you fail to
// execute the completion block from the didReceive(_:withContentHandler:) method in time, the system displays
// the notification's original content", Apple's serviceExtensionTimeWillExpire() documentation). Its log says
// when each call came, so a run shows the expiry arriving on a thread other than the main one.
final class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        print("didReceive \(request.identifier) on the main thread: \(Thread.isMainThread)")
    }

    override func serviceExtensionTimeWillExpire() {
        print("serviceExtensionTimeWillExpire on the main thread: \(Thread.isMainThread); not calling the handler")
    }
}
