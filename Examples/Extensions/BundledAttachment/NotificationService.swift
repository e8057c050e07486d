import SharingShim

// The fix for BannerRenderer's crash (Igor Kulman, "Dealing with memory limits in app extensions",
// https://blog.kulman.sk/dealing-with-memory-limits-in-app-extensions/): attach the image the extension ships
// as it is, never decoding it. The system copies an attachment that is in the bundle rather than moving it
// (Apple's UNNotificationAttachment documentation), so the bundled file is attached directly, and the memory
// is the same on every screen.
final class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return contentHandler(request.content) }
        if let url = Bundle.main.url(forResource: "banner", withExtension: "jpg") {
            do {
                content.attachments = [try UNNotificationAttachment(identifier: "banner", url: url)]
            } catch {
                print("the banner cannot be attached: \(error)")
            }
        }
        contentHandler(content)
    }
}
