public import Foundation

/// A notification's identifier, content and trigger. Stands in for `UNNotificationRequest`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check.
open class UNNotificationRequest: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    open private(set) var identifier: String
    @NSCopying open private(set) var content: UNNotificationContent
    open private(set) var trigger: UNNotificationTrigger?

    /// A request delivered at once when `trigger` is `nil`.
    public convenience init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.init(identifier: identifier, storing: content, trigger: trigger)
    }

    private init(identifier: String, storing content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = content.copy() as? UNNotificationContent ?? content
        self.trigger = trigger
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    override open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationRequest else { return false }
        return identifier == other.identifier && content == other.content
    }

    override open var hash: Int { identifier.hashValue }

    override open var description: String { "<UNNotificationRequest: identifier: \(identifier), content: \(content)>" }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encode(identifier, forKey: "identifier")
        coder.encode(content, forKey: "content")
        coder.encode(trigger, forKey: "trigger")
    }

    public required init?(coder: NSCoder) {
        guard let identifier = coder.decodeObject(forKey: "identifier") as? String,
              let content = coder.decodeObject(forKey: "content") as? UNNotificationContent else { return nil }
        self.identifier = identifier
        self.content = content
        trigger = coder.decodeObject(forKey: "trigger") as? UNNotificationTrigger
        super.init()
    }
}
