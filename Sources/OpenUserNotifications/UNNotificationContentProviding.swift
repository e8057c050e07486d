public import Foundation

/// An object of Apple's SDK that gives a notification context: `INSendMessageIntent` (a message and its sender).
/// Stands in for UserNotifications' `UNNotificationContentProviding`. As on Apple's systems, only the SDK's own
/// providers count: one an app conforms itself changes nothing.
public protocol UNNotificationContentProviding: NSObjectProtocol {}

/// A provider of this package's that makes a communication notification (Intents' `INSendMessageIntent`).
package protocol CommunicationProviding {
    var communication: CommunicationFields { get }
}

/// What a communication notification shows beside its text: who sent it, with their avatar, in which group.
package struct CommunicationFields: Sendable, Equatable {
    package var senderName: String
    package var senderHandle: String?
    /// The avatar as a report says it (`image data, 2048 bytes`), or nil when there is none.
    package var avatar: String?
    package var groupName: String?
    package var groupImage: String?
    package var conversationIdentifier: String?
    package var recipients: Int

    package init(senderName: String, senderHandle: String?, avatar: String?, groupName: String?, groupImage: String?,
                 conversationIdentifier: String?, recipients: Int) {
        self.senderName = senderName
        self.senderHandle = senderHandle
        self.avatar = avatar
        self.groupName = groupName
        self.groupImage = groupImage
        self.conversationIdentifier = conversationIdentifier
        self.recipients = recipients
    }
}

extension UNNotificationContent {
    /// A copy of this content that the system shows as a message from the provider's sender, with their
    /// avatar (a communication notification). A provider that is not one of the SDK's gives a copy unchanged, as
    /// Apple's documentation says the system ignores such providers. Stands in for UserNotifications'
    /// `updating(from:)`.
    public func updating(from provider: any UNNotificationContentProviding) throws -> UNNotificationContent {
        var fields = snapshot
        if let provider = provider as? any CommunicationProviding { fields.communication = provider.communication }
        return UNNotificationContent(fields: fields)
    }
}
