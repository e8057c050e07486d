public import Foundation
import PackageSupport

/// Content a notification service extension edits. Stands in for `UNMutableNotificationContent`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check; its fields are behind its superclass's lock.
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    override open var title: String {
        get { fields.withLock { $0.title } }
        set { fields.withLock { $0.title = newValue } }
    }
    override open var subtitle: String {
        get { fields.withLock { $0.subtitle } }
        set { fields.withLock { $0.subtitle = newValue } }
    }
    override open var body: String {
        get { fields.withLock { $0.body } }
        set { fields.withLock { $0.body = newValue } }
    }
    override open var badge: NSNumber? {
        get { fields.withLock { $0.badge } }
        set { fields.withLock { $0.badge = newValue } }
    }
    override open var sound: UNNotificationSound? {
        get { fields.withLock { $0.sound } }
        set { fields.withLock { $0.sound = newValue } }
    }
    override open var launchImageName: String {
        get { fields.withLock { $0.launchImageName } }
        set { fields.withLock { $0.launchImageName = newValue } }
    }
    override open var userInfo: [AnyHashable: Any] {
        get { fields.withLock { $0.userInfo } }
        set { fields.withLock { $0.userInfo = newValue } }
    }
    override open var attachments: [UNNotificationAttachment] {
        get { fields.withLock { $0.attachments } }
        set { fields.withLock { $0.attachments = newValue } }
    }
    override open var categoryIdentifier: String {
        get { fields.withLock { $0.categoryIdentifier } }
        set { fields.withLock { $0.categoryIdentifier = newValue } }
    }
    override open var threadIdentifier: String {
        get { fields.withLock { $0.threadIdentifier } }
        set { fields.withLock { $0.threadIdentifier = newValue } }
    }
    override open var targetContentIdentifier: String? {
        get { fields.withLock { $0.targetContentIdentifier } }
        set { fields.withLock { $0.targetContentIdentifier = newValue } }
    }
    override open var interruptionLevel: UNNotificationInterruptionLevel {
        get { fields.withLock { $0.interruptionLevel } }
        set { fields.withLock { $0.interruptionLevel = newValue } }
    }
    override open var relevanceScore: Double {
        get { fields.withLock { $0.relevanceScore } }
        set { fields.withLock { $0.relevanceScore = newValue } }
    }
    override open var filterCriteria: String? {
        get { fields.withLock { $0.filterCriteria } }
        set { fields.withLock { $0.filterCriteria = newValue } }
    }
    @available(*, deprecated, message: "summaryArgument is ignored")
    override open var summaryArgument: String {
        get { fields.withLock { $0.summaryArgument } }
        set { fields.withLock { $0.summaryArgument = newValue } }
    }
    @available(*, deprecated, message: "summaryArgumentCount is ignored")
    override open var summaryArgumentCount: Int {
        get { fields.withLock { $0.summaryArgumentCount } }
        set { fields.withLock { $0.summaryArgumentCount = newValue } }
    }
}
