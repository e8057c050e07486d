public import Foundation
import PackageSupport

/// A button a notification of some category shows. Stands in for `UNNotificationAction`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check.
open class UNNotificationAction: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var title: String
    open private(set) var options: UNNotificationActionOptions

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(storing: identifier, title: title, options: options)
    }

    private init(storing identifier: String, title: String, options: UNNotificationActionOptions) {
        self.identifier = identifier
        self.title = title
        self.options = options
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    override open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationAction else { return false }
        return identifier == other.identifier && title == other.title && options == other.options
    }

    override open var hash: Int { identifier.hashValue }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encode(identifier, forKey: "identifier")
        coder.encode(title, forKey: "title")
        coder.encode(Int(options.rawValue), forKey: "options")
    }

    public required init?(coder: NSCoder) {
        guard let identifier = coder.decodeObject(forKey: "identifier") as? String else { return nil }
        self.identifier = identifier
        title = coder.decodeObject(forKey: "title") as? String ?? ""
        options = UNNotificationActionOptions(rawValue: UInt(max(0, coder.decodeInteger(forKey: "options"))))
        super.init()
    }
}
