import SharingShim

// The pattern of Element X's notification service (element-x-ios, NSE: `discard()`) and Rocket.Chat's for
// cancelled calls: a push about something the person should not see alerted (a redacted message, a call that
// ended) is discarded by passing empty content, which suppresses the notification for an app holding the
// filtering entitlement (com.apple.developer.usernotifications.filtering; Apple's forum thread 696068: without
// it, "will deliver original content"). Other pushes get the sender's name as their title.
class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let eventType = request.content.userInfo["event_type"] as? String
        guard eventType != "m.room.redaction" else { return discard(contentHandler) }
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return contentHandler(request.content) }
        if let sender = request.content.userInfo["sender_display_name"] as? String { content.title = sender }
        contentHandler(content)
    }

    private func discard(_ contentHandler: (UNNotificationContent) -> Void) {
        contentHandler(UNMutableNotificationContent())
    }
}
