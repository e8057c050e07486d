import SharingShim
// URLSession: in Foundation on Apple's systems, in FoundationNetworking on Linux.
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The pattern of Firebase Messaging's extension helper (FIRMessagingExtensionHelper, firebase-ios-sdk): the
// image URL is `fcm_options.image` in the payload; it is downloaded with `URLSession`'s download task; the
// downloaded file is moved to its temporary path with the URL's path extension added, since the system types an
// attachment by its extension; the attachment is made with an empty identifier; the content is delivered with or
// without it. An image URL with no extension therefore fails (firebase-ios-sdk#6590): the notification shows
// without its image. `serviceExtensionTimeWillExpire` delivers the best attempt, as Xcode's template does.
class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let content = bestAttemptContent else { return contentHandler(request.content) }
        guard let options = content.userInfo["fcm_options"] as? [String: Any], let address = options["image"] as? String,
              let url = URL(string: address) else {
            return contentHandler(content)
        }
        loadAttachment(from: url) { attachment in
            if let attachment { content.attachments = [attachment] }
            contentHandler(content)
        }
    }

    private func loadAttachment(from url: URL, completion: @escaping (UNNotificationAttachment?) -> Void) {
        let task = URLSession.shared.downloadTask(with: url) { location, _, error in
            guard let location, error == nil else {
                print("download of \(url) failed: \(String(describing: error))")
                return completion(nil)
            }
            let named = URL(fileURLWithPath: location.path + "." + url.pathExtension)
            do {
                try FileManager.default.moveItem(at: location, to: named)
                completion(try UNNotificationAttachment(identifier: "", url: named, options: nil))
            } catch {
                print("the image cannot be attached: \(error)")
                completion(nil)
            }
        }
        task.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
