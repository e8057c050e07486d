public import Foundation

/// What made a notification. Stands in for `UNNotificationTrigger`.
open class UNNotificationTrigger: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    open var repeats: Bool { false }

    package override init() {
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {}

    public required init?(coder: NSCoder) {
        super.init()
    }
}

/// The trigger of a notification that came from Apple's push service: what a notification service extension's
/// request carries. The system makes these. Stands in for `UNPushNotificationTrigger`.
open class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {}

/// A notification's identifier, content and trigger. Stands in for `UNNotificationRequest`.
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

/// A notification the system delivered: its date and request. Stands in for `UNNotification`.
open class UNNotification: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    open private(set) var date: Date
    @NSCopying open private(set) var request: UNNotificationRequest

    package init(date: Date, request: UNNotificationRequest) {
        self.date = date
        self.request = request
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    override open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotification else { return false }
        return date == other.date && request == other.request
    }

    override open var hash: Int { request.hash }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encode(date, forKey: "date")
        coder.encode(request, forKey: "request")
    }

    public required init?(coder: NSCoder) {
        guard let date = coder.decodeObject(forKey: "date") as? Date,
              let request = coder.decodeObject(forKey: "request") as? UNNotificationRequest else { return nil }
        self.date = date
        self.request = request
        super.init()
    }
}
