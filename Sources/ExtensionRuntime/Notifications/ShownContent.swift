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
}
