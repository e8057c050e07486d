public import Foundation

/// The principal of a notification service extension: it gets each remote notification that asks for it
/// (`mutable-content` 1, an alert with a title, subtitle or body) before the notification is shown, and gives
/// the content to show through the handler.
///
/// Stands in for `UNNotificationServiceExtension`. Under OpenSharing's runtime, `didReceive` is called on the
/// main thread; when the time runs out (about 30 seconds) `serviceExtensionTimeWillExpire()` is called on
/// another thread, and a moment later the process is ended. Content given after the first call of the handler
/// is not shown. If the handler is never called, the original content is shown.
open class UNNotificationServiceExtension: NSObject {
    override public init() {
        super.init()
    }

    /// Override to change `request.content` and pass the content to show to `contentHandler`, once. This
    /// implementation does nothing: the original content is shown once the time runs out.
    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {}

    /// Override to call the handler at once with the best content there is. This implementation does nothing.
    open func serviceExtensionTimeWillExpire() {}
}
