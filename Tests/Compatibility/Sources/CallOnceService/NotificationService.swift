import SharingShim

// The pattern of Mattermost's notification service (mattermost-mobile, ios/NotificationService: its
// ContentHandlerSafeWrapper, added because "multiple contentHandler invocations" crashed the extension): the
// handler is wrapped in an object that lets the first call through and drops the rest, under a lock, and both
// the normal path (here a fetch of the message, which takes `fetch-seconds`) and the expiry go through it. When
// the fetch outlasts the time, the expiry's content is shown and the fetch's late call is dropped.
final class ContentHandlerSafeWrapper {
    private let lock = NSLock()
    private var handler: ((UNNotificationContent) -> Void)?

    init(_ handler: @escaping (UNNotificationContent) -> Void) {
        self.handler = handler
    }

    /// Calls the handler the first time; later calls are dropped.
    func deliver(_ content: UNNotificationContent) {
        lock.lock()
        let first = handler
        handler = nil
        lock.unlock()
        first?(content)
    }
}

class NotificationService: UNNotificationServiceExtension {
    private var wrapper: ContentHandlerSafeWrapper?
    private var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let wrapper = ContentHandlerSafeWrapper(contentHandler)
        self.wrapper = wrapper
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return wrapper.deliver(request.content) }
        bestAttemptContent = content
        let seconds = content.userInfo["fetch-seconds"] as? Double ?? 0
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            content.body = "fetched: " + content.body
            wrapper.deliver(content)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        guard let wrapper, let content = bestAttemptContent?.mutableCopy() as? UNMutableNotificationContent else { return }
        content.body = "You have a new message"
        wrapper.deliver(content)
    }
}
