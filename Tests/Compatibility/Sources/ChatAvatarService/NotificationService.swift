import SharingShim
// URLSession: in Foundation on Apple's systems, in FoundationNetworking on Linux.
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The pattern of Mattermost's notification service (mattermost/mattermost-mobile,
// ios/NotificationService/NotificationService.swift at ec50642): the sender's avatar is fetched as data; a person is
// made of an INPersonHandle of type .unknown, the sender's name and INImage(imageData:); an INSendMessageIntent
// with that sender, the channel as the conversation, no recipients and no group; an INInteraction of it, incoming,
// is donated, and in the donation's completion the content is updated from the intent (updating(from:)) and handed
// to the handler, the original on failure. Failures are logged with os_log. The app is then told with a Darwin
// notification, the way issue 39's survey found services tell their apps that something arrived.
class NotificationService: UNNotificationServiceExtension {
    static let newMessage = "org.opensharing.compatibility.newMessage"
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let content = bestAttemptContent, let address = content.userInfo["avatar_url"] as? String, let url = URL(string: address) else {
            return contentHandler(request.content)
        }
        URLSession.shared.dataTask(with: url) { [weak self] data, response, error in
            let ok = (response as? HTTPURLResponse)?.statusCode == 200
            if !ok { os_log(OSLogType.error, "the avatar did not download: %{public}@", String(describing: error)) }
            self?.sendMessageIntent(avatarData: ok ? data : nil)
        }.resume()
    }

    private func sendMessageIntent(avatarData: Data?) {
        guard let notification = bestAttemptContent else { return }
        guard let avatarData, let channelId = notification.userInfo["channel_id"] as? String else {
            contentHandler?(notification)
            return
        }
        let senderName = notification.userInfo["sender_name"] as? String
        let handle = INPersonHandle(value: notification.userInfo["sender_id"] as? String, type: .unknown)
        let sender = INPerson(personHandle: handle, nameComponents: nil, displayName: senderName, image: INImage(imageData: avatarData),
                              contactIdentifier: nil, customIdentifier: nil)
        let intent = INSendMessageIntent(recipients: nil, outgoingMessageType: .outgoingMessageText, content: notification.body,
                                         speakableGroupName: nil, conversationIdentifier: channelId, serviceName: nil, sender: sender,
                                         attachments: nil)
        let interaction = INInteraction(intent: intent, response: nil)
        interaction.direction = .incoming
        interaction.donate { error in
            CFNotificationCenterPostNotification(CFNotificationCenterGetDarwinNotifyCenter(),
                                                 CFNotificationName(NotificationService.newMessage as CFString), nil, nil, true)
            do {
                self.contentHandler?(try notification.updating(from: intent))
            } catch {
                os_log(OSLogType.default, "updating the notification failed: %{public}@", String(describing: error))
                self.contentHandler?(notification)
            }
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
