/// A notification's content as the person sees it (and as `sharing notify --json` prints it).
public struct ShownContent: Sendable, Equatable, Codable {
    public var title: String
    public var subtitle: String
    public var body: String
    public var badge: Int?
    /// The sound, as `UNNotificationSound` names it (`default`, a file's name, `critical …`); `nil` for none.
    public var sound: String?
    public var launchImageName: String
    public var threadIdentifier: String
    public var categoryIdentifier: String
    public var targetContentIdentifier: String?
    /// `passive`, `active`, `time-sensitive` or `critical`.
    public var interruptionLevel: String
    public var relevanceScore: Double
    public var filterCriteria: String?
    public var attachments: [StoredAttachment]
    /// Shown as a message from a person: who sent it, with what avatar, in which group (a communication
    /// notification, made with `updating(from:)` and an `INSendMessageIntent`); nil for an ordinary one.
    public var communication: Communication?

    /// What a communication notification shows beside its text.
    public struct Communication: Sendable, Equatable, Codable {
        public var sender: String
        public var senderHandle: String?
        /// The avatar as the extension gave it: `image data, 2048 bytes`, `image at URL`, `image named NAME`.
        public var avatar: String?
        public var group: String?
        public var groupImage: String?
        public var conversationIdentifier: String?
        public var recipients: Int
    }
}
