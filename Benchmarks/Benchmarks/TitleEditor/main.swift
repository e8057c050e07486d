// The notification service the round trip measures (Benchmarks/compare-notify.sh): it only edits the title,
// as the smallest useful service does.
#if os(Linux)
import ExtensionRuntime
import SharingShim

final class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return contentHandler(request.content) }
        content.title = "Edited: " + content.title
        contentHandler(content)
    }
}

ExtensionProcess.run(NotificationService.init)
#endif
