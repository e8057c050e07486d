public import Foundation
import PackageSupport

/// What a notification shows: read-only here, editable in `UNMutableNotificationContent` (made with
/// `mutableCopy()`, as every notification service extension makes its copy).
///
/// Stands in for `UNNotificationContent`. Apple's class carries no lock; this one keeps its fields behind one,
/// because the runtime reads the content a handler was given on a thread of its own.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check; its fields are behind a lock.
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, NSSecureCoding, @unchecked Sendable {
    let fields: Locked<NotificationFields>

    /// Empty content: no title, subtitle or body. A notification service extension that has the filtering
    /// entitlement passes it to suppress the notification.
    override public init() {
        fields = Locked(NotificationFields())
        super.init()
    }

    package init(fields: NotificationFields) {
        self.fields = Locked(fields)
        super.init()
    }

    /// The fields, as one value: what the runtime sends across the process boundary.
    package var snapshot: NotificationFields { fields.withLock { $0 } }

    open var title: String { fields.withLock { $0.title } }
    open var subtitle: String { fields.withLock { $0.subtitle } }
    open var body: String { fields.withLock { $0.body } }
    /// The number on the app's icon: `nil` leaves it as it is, 0 removes it.
    open var badge: NSNumber? { fields.withLock { $0.badge } }
    open var sound: UNNotificationSound? { fields.withLock { $0.sound } }
    open var launchImageName: String { fields.withLock { $0.launchImageName } }
    /// The whole push payload, `aps` included, for a remote notification.
    open var userInfo: [AnyHashable: Any] { fields.withLock { $0.userInfo } }
    open var attachments: [UNNotificationAttachment] { fields.withLock { $0.attachments } }
    open var categoryIdentifier: String { fields.withLock { $0.categoryIdentifier } }
    open var threadIdentifier: String { fields.withLock { $0.threadIdentifier } }
    open var targetContentIdentifier: String? { fields.withLock { $0.targetContentIdentifier } }
    open var interruptionLevel: UNNotificationInterruptionLevel { fields.withLock { $0.interruptionLevel } }
    /// Between 0 and 1.
    open var relevanceScore: Double { fields.withLock { $0.relevanceScore } }
    open var filterCriteria: String? { fields.withLock { $0.filterCriteria } }
    @available(*, deprecated, message: "summaryArgument is ignored")
    open var summaryArgument: String { fields.withLock { $0.summaryArgument } }
    @available(*, deprecated, message: "summaryArgumentCount is ignored")
    open var summaryArgumentCount: Int { fields.withLock { $0.summaryArgumentCount } }

    open func copy(with zone: NSZone? = nil) -> Any {
        UNNotificationContent(fields: snapshot)
    }

    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        UNMutableNotificationContent(fields: snapshot)
    }

    override open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationContent else { return false }
        return snapshot == other.snapshot
    }

    override open var hash: Int { snapshot.title.hashValue ^ snapshot.body.hashValue }

    override open var description: String {
        let fields = snapshot
        return "<\(type(of: self)): title: \"\(fields.title)\", subtitle: \"\(fields.subtitle)\", body: \"\(fields.body)\", "
            + "categoryIdentifier: \(fields.categoryIdentifier), threadIdentifier: \(fields.threadIdentifier), "
            + "attachments: \(fields.attachments.map(\.identifier))>"
    }

    // MARK: NSSecureCoding

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        let fields = snapshot
        coder.encode(fields.title, forKey: "title")
        coder.encode(fields.subtitle, forKey: "subtitle")
        coder.encode(fields.body, forKey: "body")
        coder.encode(fields.badge, forKey: "badge")
        coder.encode(fields.sound, forKey: "sound")
        coder.encode(fields.launchImageName, forKey: "launchImageName")
        coder.encode(NSDictionary(dictionary: fields.userInfo), forKey: "userInfo")
        coder.encode(NSArray(array: fields.attachments), forKey: "attachments")
        coder.encode(fields.categoryIdentifier, forKey: "categoryIdentifier")
        coder.encode(fields.threadIdentifier, forKey: "threadIdentifier")
        coder.encode(fields.targetContentIdentifier, forKey: "targetContentIdentifier")
        coder.encode(Int(fields.interruptionLevel.rawValue), forKey: "interruptionLevel")
        coder.encode(fields.relevanceScore, forKey: "relevanceScore")
        coder.encode(fields.filterCriteria, forKey: "filterCriteria")
        coder.encode(fields.summaryArgument, forKey: "summaryArgument")
        coder.encode(fields.summaryArgumentCount, forKey: "summaryArgumentCount")
    }

    public required init?(coder: NSCoder) {
        var fields = NotificationFields()
        fields.title = coder.decodeObject(forKey: "title") as? String ?? ""
        fields.subtitle = coder.decodeObject(forKey: "subtitle") as? String ?? ""
        fields.body = coder.decodeObject(forKey: "body") as? String ?? ""
        fields.badge = coder.decodeObject(forKey: "badge") as? NSNumber
        fields.sound = coder.decodeObject(forKey: "sound") as? UNNotificationSound
        fields.launchImageName = coder.decodeObject(forKey: "launchImageName") as? String ?? ""
        fields.userInfo = coder.decodeObject(forKey: "userInfo") as? [AnyHashable: Any] ?? [:]
        fields.attachments = coder.decodeObject(forKey: "attachments") as? [UNNotificationAttachment] ?? []
        fields.categoryIdentifier = coder.decodeObject(forKey: "categoryIdentifier") as? String ?? ""
        fields.threadIdentifier = coder.decodeObject(forKey: "threadIdentifier") as? String ?? ""
        fields.targetContentIdentifier = coder.decodeObject(forKey: "targetContentIdentifier") as? String
        fields.interruptionLevel = UNNotificationInterruptionLevel(rawValue: UInt(max(0, coder.decodeInteger(forKey: "interruptionLevel")))) ?? .active
        fields.relevanceScore = coder.decodeDouble(forKey: "relevanceScore")
        fields.filterCriteria = coder.decodeObject(forKey: "filterCriteria") as? String
        fields.summaryArgument = coder.decodeObject(forKey: "summaryArgument") as? String ?? ""
        fields.summaryArgumentCount = coder.decodeInteger(forKey: "summaryArgumentCount")
        self.fields = Locked(fields)
        super.init()
    }
}

/// A notification content's fields as one value.
// @unchecked: it holds userInfo ([AnyHashable: Any]) and Foundation objects, copied in and out under the content's lock.
package struct NotificationFields: @unchecked Sendable, Equatable {
    package var title = ""
    package var subtitle = ""
    package var body = ""
    package var badge: NSNumber?
    package var sound: UNNotificationSound?
    package var launchImageName = ""
    package var userInfo: [AnyHashable: Any] = [:]
    package var attachments: [UNNotificationAttachment] = []
    package var categoryIdentifier = ""
    package var threadIdentifier = ""
    package var targetContentIdentifier: String?
    package var interruptionLevel: UNNotificationInterruptionLevel = .active
    package var relevanceScore: Double = 0
    package var filterCriteria: String?
    package var summaryArgument = ""
    package var summaryArgumentCount = 0
    /// The sender and conversation `updating(from:)` took from an intent, for a communication notification.
    package var communication: CommunicationFields?

    package init() {}

    /// Whether the content alerts the person visibly: it has a title, a subtitle or a body.
    package var isVisible: Bool { !title.isEmpty || !subtitle.isEmpty || !body.isEmpty }

    package static func == (lhs: NotificationFields, rhs: NotificationFields) -> Bool {
        lhs.title == rhs.title && lhs.subtitle == rhs.subtitle && lhs.body == rhs.body && lhs.badge == rhs.badge
            && lhs.sound == rhs.sound && lhs.launchImageName == rhs.launchImageName
            && same(lhs.userInfo, rhs.userInfo)
            && lhs.attachments == rhs.attachments && lhs.categoryIdentifier == rhs.categoryIdentifier
            && lhs.threadIdentifier == rhs.threadIdentifier && lhs.targetContentIdentifier == rhs.targetContentIdentifier
            && lhs.interruptionLevel == rhs.interruptionLevel && lhs.relevanceScore == rhs.relevanceScore
            && lhs.filterCriteria == rhs.filterCriteria && lhs.summaryArgument == rhs.summaryArgument
            && lhs.summaryArgumentCount == rhs.summaryArgumentCount && lhs.communication == rhs.communication
    }

    /// Whether two property-list values are equal, dictionaries and arrays by their elements.
    private static func same(_ lhs: Any, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case let (left as [AnyHashable: Any], right as [AnyHashable: Any]):
            left.count == right.count && left.allSatisfy { key, value in right[key].map { same(value, $0) } ?? false }
        case let (left as [Any], right as [Any]):
            left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case let (left as AnyHashable, right as AnyHashable):
            left == right
        default:
            false
        }
    }
}
