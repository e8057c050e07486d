import SharingShim
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A notification service that fetches what its payload's "url" names with URLSession, as services fetch their
// images, and calls the content handler when the download ends; on expiry it shows what it had. Foundation on Linux
// keeps its URLSession threads polling while a download waits on the network, waking each a few hundred thousand
// times: the time this service is judged by is the device's all the same.
final class NotificationService: UNNotificationServiceExtension {
    private var handler: ((UNNotificationContent) -> Void)?
    private var best: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        content.title = "before the download"
        handler = contentHandler
        best = content
        guard let url = (content.userInfo["url"] as? String).flatMap(URL.init(string:)) else { return contentHandler(content) }
        nonisolated(unsafe) let (handler, downloaded) = (contentHandler, content.mutableCopy() as! UNMutableNotificationContent)
        URLSession.shared.dataTask(with: url) { data, _, error in
            downloaded.title = error == nil ? "downloaded \(data?.count ?? 0) bytes" : "download failed"
            handler(downloaded)
        }.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        guard let handler, let best else { return }
        handler(best)
    }
}
