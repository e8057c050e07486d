import SharingShim
// URLSession: in Foundation on Apple's systems, in FoundationNetworking on Linux.
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The pattern of Bark's image processor (Finb/Bark, NotificationServiceExtension/Processor/ImageProcessor.swift):
// the image at `userInfo["image"]` is fetched, written to a file named by a UUID with the extension `.tmp`, and
// attached with `UNNotificationAttachmentOptionsTypeHintKey` set to `kUTTypePNG` whatever the image is. The type
// hint types a file whose extension does not (rdar://27708555 reports early iOS 10 ignoring it; Bark ships it),
// and the image's family, not its exact type, is what the system checks: a JPEG under a PNG hint shows.
class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return contentHandler(request.content) }
        guard let address = content.userInfo["image"] as? String, let url = URL(string: address) else { return contentHandler(content) }
        URLSession.shared.dataTask(with: url) { data, _, _ in
            if let data {
                let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(UUID().uuidString + ".tmp")
                do {
                    try data.write(to: file)
                    let attachment = try UNNotificationAttachment(identifier: "image", url: file,
                                                                  options: [UNNotificationAttachmentOptionsTypeHintKey: kUTTypePNG])
                    content.attachments = [attachment]
                } catch {
                    print("the image cannot be attached: \(error)")
                }
            }
            contentHandler(content)
        }.resume()
    }
}
