public import Foundation
import PackageSupport

/// How an action behaves. Stands in for `UNNotificationActionOptions`, with Apple's raw values.
public struct UNNotificationActionOptions: OptionSet, @unchecked Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

/// How a category's notifications behave. Stands in for `UNNotificationCategoryOptions`, with Apple's raw values.
public struct UNNotificationCategoryOptions: OptionSet, @unchecked Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    @available(*, deprecated, message: "Announcement is always allowed")
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}

/// A button a notification of some category shows. Stands in for `UNNotificationAction`.
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

/// A kind of notification the app declares, with its actions. Stands in for `UNNotificationCategory`.
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

/// What of the notification center an extension uses: the app's categories, and its delivered notifications.
///
/// Stands in for `UNUserNotificationCenter`. In an extension run by OpenSharing's runtime, the host keeps both
/// for the run (`sharing notify` prints what the extension changed); elsewhere, this process keeps them.
/// Completion handlers run on a thread of their own, as Apple's may run on a background thread.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    private static let shared = UNUserNotificationCenter()

    /// The app's notification center.
    open class func current() -> UNUserNotificationCenter { shared }

    override private init() {
        super.init()
    }

    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        NotificationCenterStore.current.setCategories(Array(categories))
    }

    open func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        NotificationCenterStore.current.categories { categories in completionHandler(Set(categories)) }
    }

    open func notificationCategories() async -> Set<UNNotificationCategory> {
        await withCheckedContinuation { continuation in
            getNotificationCategories { continuation.resume(returning: $0) }
        }
    }

    open func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        NotificationCenterStore.current.delivered(completionHandler)
    }

    open func deliveredNotifications() async -> [UNNotification] {
        await withCheckedContinuation { continuation in
            getDeliveredNotifications { continuation.resume(returning: $0) }
        }
    }

    open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        NotificationCenterStore.current.removeDelivered(identifiers)
    }

    open func removeAllDeliveredNotifications() {
        NotificationCenterStore.current.removeAllDelivered()
    }
}

/// Where the notification center's categories and delivered notifications live: this process
/// (`LocalNotificationCenter`), unless the runtime installs the host's. Answers never come on the caller's thread.
package protocol NotificationCenterBackend: Sendable {
    func setCategories(_ categories: [UNNotificationCategory])
    func categories(_ reply: @escaping @Sendable ([UNNotificationCategory]) -> Void)
    func delivered(_ reply: @escaping @Sendable ([UNNotification]) -> Void)
    func removeDelivered(_ identifiers: [String])
    func removeAllDelivered()
}

/// The backend the notification center uses now.
package enum NotificationCenterStore {
    private static let installed = Locked<any NotificationCenterBackend>(LocalNotificationCenter())

    package static var current: any NotificationCenterBackend {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }
}

/// A notification center kept in this process.
package final class LocalNotificationCenter: NotificationCenterBackend {
    private let state = Locked((categories: [UNNotificationCategory](), delivered: [UNNotification]()))

    package init() {}

    package func setCategories(_ categories: [UNNotificationCategory]) {
        state.withLock { $0.categories = categories }
    }

    package func categories(_ reply: @escaping @Sendable ([UNNotificationCategory]) -> Void) {
        let categories = state.withLock { $0.categories }
        Thread.detachNewThread { reply(categories) }
    }

    package func delivered(_ reply: @escaping @Sendable ([UNNotification]) -> Void) {
        let delivered = state.withLock { $0.delivered }
        Thread.detachNewThread { reply(delivered) }
    }

    package func removeDelivered(_ identifiers: [String]) {
        state.withLock { $0.delivered.removeAll { identifiers.contains($0.request.identifier) } }
    }

    package func removeAllDelivered() {
        state.withLock { $0.delivered.removeAll() }
    }

    /// Records a notification as shown.
    package func deliver(_ notification: UNNotification) {
        state.withLock { $0.delivered.append(notification) }
    }
}
