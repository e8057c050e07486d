public import Foundation

/// What made a notification. Stands in for `UNNotificationTrigger`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check.
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
