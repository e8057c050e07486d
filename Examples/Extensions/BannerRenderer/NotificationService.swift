import SharingShim

// The situation Igor Kulman describes ("Dealing with memory limits in app extensions",
// https://blog.kulman.sk/dealing-with-memory-limits-in-app-extensions/): a notification service extension that
// draws its image with UIKit was killed at 24 MB on bigger phones and was fine on smaller ones, because an image
// context's memory grows with the square of the screen's scale. This one draws the banner it ships (banner.jpg,
// 1000 × 750) at its size in points through UIGraphicsImageRenderer, whose default format takes the screen's
// scale, darkens its foot for the text, and attaches the JPEG: a 2000 × 1500 bitmap (12 MB) on a scale-2 phone,
// 3000 × 2250 (27 MB) on a scale-3 one.
final class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return contentHandler(request.content) }
        guard let url = Bundle.main.url(forResource: "banner", withExtension: "jpg"), let background = UIImage(contentsOfFile: url.path) else {
            return contentHandler(content)
        }
        let size = background.size
        let banner = UIGraphicsImageRenderer(size: size).image { context in
            background.draw(in: CGRect(origin: .zero, size: size))
            UIColor(white: 0, alpha: 0.4).setFill()
            context.fill(CGRect(x: 0, y: size.height * 0.75, width: size.width, height: size.height * 0.25))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("banner-\(request.identifier).jpg")
        if let data = banner.jpegData(compressionQuality: 0.8), (try? data.write(to: file)) != nil {
            do {
                content.attachments = [try UNNotificationAttachment(identifier: "banner", url: file)]
            } catch {
                print("the banner cannot be attached: \(error)")
            }
        }
        contentHandler(content)
    }
}
