import SharingShim
// URLSession: in Foundation on Apple's systems, in FoundationNetworking on Linux.
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The pattern of Home Assistant's notification service (home-assistant/iOS), as issue 38 describes it: the
// payload names an image to attach (`attachment.url`); it is downloaded, and when the download fails the service
// draws an image saying so and attaches that instead, in code compiled for iOS only (`#if os(iOS)`). Here that
// branch does not exist: the run shows the notification without an image, and says the branch never ran
// (`not-compiled-here`).
class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return contentHandler(request.content) }
        guard let attachment = content.userInfo["attachment"] as? [String: Any], let address = attachment["url"] as? String,
              let url = URL(string: address) else {
            return contentHandler(content)
        }
        URLSession.shared.downloadTask(with: url) { location, _, error in
            if let location, error == nil {
                let named = URL(fileURLWithPath: location.path + "." + url.pathExtension)
                if (try? FileManager.default.moveItem(at: location, to: named)) != nil,
                   let downloaded = try? UNNotificationAttachment(identifier: "image", url: named, options: nil) {
                    content.attachments = [downloaded]
                }
            } else {
                #if os(iOS)
                if let drawn = Self.errorImage(saying: error?.localizedDescription ?? "the image did not download") {
                    content.attachments = [drawn]
                }
                #endif
            }
            contentHandler(content)
        }.resume()
    }

    #if os(iOS)
    /// An image of `text`, attached in place of the one that failed.
    private static func errorImage(saying text: String) -> UNNotificationAttachment? {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 600, height: 200)).image { _ in
            (text as NSString).draw(at: CGPoint(x: 20, y: 20), withAttributes: nil)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("error.png")
        guard let data = image.pngData(), (try? data.write(to: file)) != nil else { return nil }
        return try? UNNotificationAttachment(identifier: "error", url: file, options: nil)
    }
    #endif
}
