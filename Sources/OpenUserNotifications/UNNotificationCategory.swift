public import Foundation
import PackageSupport

/// A kind of notification the app declares, with its actions. Stands in for `UNNotificationCategory`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check.
open class UNNotificationCategory: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var actions: [UNNotificationAction]
    open private(set) var intentIdentifiers: [String]
    open private(set) var options: UNNotificationCategoryOptions
    open private(set) var hiddenPreviewsBodyPlaceholder: String
    open private(set) var categorySummaryFormat: String

    public convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                            options: UNNotificationCategoryOptions = []) {
        self.init(identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers, hiddenPreviewsBodyPlaceholder: "",
                  categorySummaryFormat: "", options: options)
    }

    public convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                            hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = []) {
        self.init(identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
                  hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder, categorySummaryFormat: "", options: options)
    }

    public init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                hiddenPreviewsBodyPlaceholder: String?, categorySummaryFormat: String?, options: UNNotificationCategoryOptions = []) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder ?? ""
        self.categorySummaryFormat = categorySummaryFormat ?? ""
        self.options = options
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    override open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationCategory else { return false }
        return identifier == other.identifier && actions == other.actions && intentIdentifiers == other.intentIdentifiers
            && options == other.options && hiddenPreviewsBodyPlaceholder == other.hiddenPreviewsBodyPlaceholder
            && categorySummaryFormat == other.categorySummaryFormat
    }

    override open var hash: Int { identifier.hashValue }

    override open var description: String { "<UNNotificationCategory: \(identifier), actions: \(actions.map(\.identifier))>" }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encode(identifier, forKey: "identifier")
        coder.encode(NSArray(array: actions), forKey: "actions")
        coder.encode(NSArray(array: intentIdentifiers), forKey: "intentIdentifiers")
        coder.encode(Int(options.rawValue), forKey: "options")
        coder.encode(hiddenPreviewsBodyPlaceholder, forKey: "hiddenPreviewsBodyPlaceholder")
        coder.encode(categorySummaryFormat, forKey: "categorySummaryFormat")
    }

    public required init?(coder: NSCoder) {
        guard let identifier = coder.decodeObject(forKey: "identifier") as? String else { return nil }
        self.identifier = identifier
        actions = coder.decodeObject(forKey: "actions") as? [UNNotificationAction] ?? []
        intentIdentifiers = coder.decodeObject(forKey: "intentIdentifiers") as? [String] ?? []
        options = UNNotificationCategoryOptions(rawValue: UInt(max(0, coder.decodeInteger(forKey: "options"))))
        hiddenPreviewsBodyPlaceholder = coder.decodeObject(forKey: "hiddenPreviewsBodyPlaceholder") as? String ?? ""
        categorySummaryFormat = coder.decodeObject(forKey: "categorySummaryFormat") as? String ?? ""
        super.init()
    }
}
