import SharingShim

// The situation of messaging apps whose pushes carry only ciphertext (pain point 17 of the notification facts:
// Quiet, Secluso; Bark's "ciphertext" key): the server cannot read the message, so the payload's userInfo holds
// it sealed, and the extension opens it with a key the app shares through its app group, replacing the
// placeholder alert ("New message") with the sender and text. Nothing is downloaded. The cipher here is a
// keyed XOR stream over base64 — a stand-in for the real AEAD, which changes nothing of the extension's shape:
// read the key from the app group, open the text, set the title and body, call the handler once.
final class NotificationService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return contentHandler(request.content) }
        guard let sealed = content.userInfo["ciphertext"] as? String, let key = Self.sharedKey(),
              let opened = Self.open(sealed, key: key), let message = try? JSONSerialization.jsonObject(with: opened) as? [String: Any],
              let sender = message["sender"] as? String, let text = message["text"] as? String
        else {
            // Shown as the server sent it: better a placeholder than nothing.
            return contentHandler(content)
        }
        content.title = sender
        content.body = text
        content.threadIdentifier = message["conversation"] as? String ?? content.threadIdentifier
        contentHandler(content)
    }

    /// The key the app wrote to its app group (`group.org.opensharing.examples/message.key`).
    static func sharedKey() -> [UInt8]? {
        guard let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.org.opensharing.examples"),
              let key = try? Data(contentsOf: group.appendingPathComponent("message.key")), !key.isEmpty else { return nil }
        return Array(key)
    }

    /// Opens base64 ciphertext sealed with the key's XOR stream.
    static func open(_ sealed: String, key: [UInt8]) -> Data? {
        guard let bytes = Data(base64Encoded: sealed) else { return nil }
        return Data(bytes.enumerated().map { $0.element ^ key[$0.offset % key.count] })
    }
}
