public import Foundation
public import OpenUserNotifications
import PackageSupport

/// A request an app handles or donates. Stands in for Intents' `INIntent`: here only what a communication
/// notification needs (its images per parameter, its identifier).
open class INIntent: NSObject, @unchecked Sendable {
    /// Images set per parameter with `setImage(_:forParameterNamed:)`.
    let images = Locked<[AnyKeyPath: INImage]>([:])

    public let identifier: String? = UUID().uuidString

    /// The image most worth showing: the first of the parameters' images set, if any. Stands in for
    /// `INIntent.keyImage()`.
    open func keyImage() -> INImage? { images.withLock { $0.values.first } }
}

/// Intents whose parameters can each have an image, named by key path. Stands in for Intents'
/// `INIntentSetImageKeyPath`.
public protocol INIntentSetImageKeyPath {}

extension INIntentSetImageKeyPath where Self: INIntent {
    /// Sets the image shown for `parameterName` (`\.sender` for the sender's avatar, `\.speakableGroupName` for
    /// a group's picture).
    public func setImage<Value>(_ image: INImage?, forParameterNamed parameterName: KeyPath<Self, Value>) {
        images.withLock { $0[parameterName] = image }
    }

    /// The image set for `parameterName`, if any.
    public func image<Value>(forParameterNamed parameterName: KeyPath<Self, Value>) -> INImage? {
        images.withLock { $0[parameterName] }
    }
}

/// What a sent message is. Stands in for Intents' `INOutgoingMessageType`.
public enum INOutgoingMessageType: Int, Sendable {
    case unknown = 0
    case outgoingMessageText = 1
    case outgoingMessageAudio = 2
}

/// An attachment of a sent message. Stands in for Intents' `INSendMessageAttachment`; none can be made here.
open class INSendMessageAttachment: NSObject, @unchecked Sendable {}

/// A message sent by someone: the intent a messaging app's notification service gives
/// `UNNotificationContent.updating(from:)`, so that the notification shows who sent it, with their avatar.
/// Stands in for Intents' `INSendMessageIntent`.
open class INSendMessageIntent: INIntent, INIntentSetImageKeyPath, UNNotificationContentProviding, CommunicationProviding {
    public let recipients: [INPerson]?
    public let outgoingMessageType: INOutgoingMessageType
    public let content: String?
    public let speakableGroupName: INSpeakableString?
    public let conversationIdentifier: String?
    public let serviceName: String?
    public let sender: INPerson?
    public let attachments: [INSendMessageAttachment]?

    public init(recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?, speakableGroupName: INSpeakableString?,
                conversationIdentifier: String?, serviceName: String?, sender: INPerson?, attachments: [INSendMessageAttachment]?) {
        self.recipients = recipients
        self.outgoingMessageType = outgoingMessageType
        self.content = content
        self.speakableGroupName = speakableGroupName
        self.conversationIdentifier = conversationIdentifier
        self.serviceName = serviceName
        self.sender = sender
        self.attachments = attachments
    }

    public convenience init(recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?,
                            speakableGroupName: INSpeakableString?, conversationIdentifier: String?, serviceName: String?, sender: INPerson?) {
        self.init(recipients: recipients, outgoingMessageType: outgoingMessageType, content: content, speakableGroupName: speakableGroupName,
                  conversationIdentifier: conversationIdentifier, serviceName: serviceName, sender: sender, attachments: nil)
    }

    public convenience init(recipients: [INPerson]?, content: String?, speakableGroupName: INSpeakableString?, conversationIdentifier: String?,
                            serviceName: String?, sender: INPerson?) {
        self.init(recipients: recipients, outgoingMessageType: .outgoingMessageText, content: content, speakableGroupName: speakableGroupName,
                  conversationIdentifier: conversationIdentifier, serviceName: serviceName, sender: sender, attachments: nil)
    }

    /// The sender, their handle and avatar (the image set for `\.sender`, else the sender's own), the group's
    /// name and picture, and the conversation: what the system shows of a communication notification.
    package var communication: CommunicationFields {
        CommunicationFields(
            senderName: sender?.displayName ?? "", senderHandle: sender?.personHandle?.value,
            avatar: (image(forParameterNamed: \.sender) ?? sender?.image)?.summary,
            groupName: speakableGroupName?.spokenPhrase, groupImage: image(forParameterNamed: \.speakableGroupName)?.summary,
            conversationIdentifier: conversationIdentifier, recipients: recipients?.count ?? 0)
    }
}

/// A response to an intent. Stands in for Intents' `INIntentResponse`.
open class INIntentResponse: NSObject, @unchecked Sendable {}

/// Which way an interaction went. Stands in for Intents' `INInteractionDirection`.
public enum INInteractionDirection: Int, Sendable {
    case unspecified = 0
    case outgoing = 1
    case incoming = 2
}

/// An intent and its response, donated so that the system learns whom the user talks to. Stands in for
/// Intents' `INInteraction`. There is no Siri to learn here: a donation is told to the host (`donations`), which
/// reports it, and the completion is called with no error, on a queue of the system's, as iOS calls it.
open class INInteraction: NSObject, @unchecked Sendable {
    /// Told of each donation, as `reported` describes it: the runtime sets it so that a run reports what the
    /// extension donated.
    package nonisolated(unsafe) static var donations: (@Sendable (String) -> Void)?

    public let intent: INIntent
    public let intentResponse: INIntentResponse?
    private let state = Locked<(direction: INInteractionDirection, identifier: String?, groupIdentifier: String?)>((.unspecified, nil, nil))

    public init(intent: INIntent, response: INIntentResponse?) {
        self.intent = intent
        intentResponse = response
    }

    open var direction: INInteractionDirection {
        get { state.withLock { $0.direction } }
        set { state.withLock { $0.direction = newValue } }
    }

    open var identifier: String? {
        get { state.withLock { $0.identifier } }
        set { state.withLock { $0.identifier = newValue } }
    }

    open var groupIdentifier: String? {
        get { state.withLock { $0.groupIdentifier } }
        set { state.withLock { $0.groupIdentifier = newValue } }
    }

    open func donate(completion: (((any Error)?) -> Void)? = nil) {
        Self.donations?(reported)
        guard let completion else { return }
        nonisolated(unsafe) let called = completion
        DispatchQueue.global().async { called(nil) }
    }

    open func donate() async throws {
        Self.donations?(reported)
    }

    /// The donation as a report names it: the intent's class, the direction, and for a message its sender and
    /// group: `INSendMessageIntent, incoming, from Ana (ana@example.com), in Lunch crew`.
    package var reported: String {
        var parts = [String(describing: type(of: intent))]
        switch direction {
        case .incoming: parts.append("incoming")
        case .outgoing: parts.append("outgoing")
        case .unspecified: break
        }
        if let message = intent as? INSendMessageIntent {
            let fields = message.communication
            if !fields.senderName.isEmpty || fields.senderHandle != nil {
                parts.append("from " + [fields.senderName.isEmpty ? nil : fields.senderName, fields.senderHandle.map { "(\($0))" }]
                    .compactMap { $0 }.joined(separator: " "))
            }
            if let group = fields.groupName { parts.append("in \(group)") }
        }
        return parts.joined(separator: ", ")
    }
}
