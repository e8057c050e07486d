public import Foundation

/// A notification the system delivered: its date and request. Stands in for `UNNotification`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check.
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
