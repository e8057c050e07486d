import Foundation
import OpenUserNotifications

/// The one mirror of notification content across the boundary: `UNNotificationContent` to `WireContent` on one
/// side, and back on the other.
enum NotificationMirror {
    /// A value `userInfo` holds that cannot cross: secure coding would refuse it on a device too.
    struct Uncarried: Error, CustomStringConvertible {
        var path: String
        var type: String
        var description: String { "userInfo\(path) holds a \(type), which cannot be sent to the system (not a property-list value or NSNull)" }
    }

    /// The wire form of `content`; `carriesFile` says which attachments' files travel with it.
    static func wire(_ content: UNNotificationContent, carriesFile: (UNNotificationAttachment) -> Bool = { _ in false }) throws(Uncarried) -> WireContent {
        try wire(content.snapshot, carriesFile: carriesFile)
    }

    static func wire(_ fields: NotificationFields, carriesFile: (UNNotificationAttachment) -> Bool = { _ in false }) throws(Uncarried) -> WireContent {
        var wire = WireContent()
        wire.title = fields.title
        wire.subtitle = fields.subtitle
        wire.body = fields.body
        wire.badge = fields.badge.map { $0.int64Value }
        wire.sound = fields.sound.map { WireSound(name: $0.name, critical: $0.isCritical, volume: $0.volume ?? -1, ringtone: $0.isRingtone) }
        wire.launchImageName = fields.launchImageName
        wire.userInfo = try value(fields.userInfo, at: "")
        wire.attachments = fields.attachments.map { attachment in
            WireNotificationAttachment(identifier: attachment.identifier, url: attachment.url.absoluteString, type: attachment.type,
                                       thumbnailHidden: attachment.thumbnailHidden, thumbnailClippingRect: attachment.thumbnailClippingRect,
                                       thumbnailTime: attachment.thumbnailTime ?? -1, carriesFile: carriesFile(attachment))
        }
        wire.categoryIdentifier = fields.categoryIdentifier
        wire.threadIdentifier = fields.threadIdentifier
        wire.targetContentIdentifier = fields.targetContentIdentifier
        wire.interruptionLevel = UInt8(fields.interruptionLevel.rawValue)
        wire.relevanceScore = fields.relevanceScore
        wire.filterCriteria = fields.filterCriteria
        wire.summaryArgument = fields.summaryArgument
        wire.summaryArgumentCount = Int64(fields.summaryArgumentCount)
        wire.communication = fields.communication
        return wire
    }

    /// The fields `wire` describes; its attachments as they were made on the other side.
    static func fields(_ wire: WireContent) -> NotificationFields {
        var fields = NotificationFields()
        fields.title = wire.title
        fields.subtitle = wire.subtitle
        fields.body = wire.body
        fields.badge = wire.badge.map { NSNumber(value: $0) }
        fields.sound = wire.sound.map { UNNotificationSound(name: $0.name, isCritical: $0.critical, volume: $0.volume < 0 ? nil : $0.volume, isRingtone: $0.ringtone) }
        fields.launchImageName = wire.launchImageName
        fields.userInfo = object(wire.userInfo) as? [AnyHashable: Any] ?? [:]
        fields.attachments = wire.attachments.map { attachment in
            let made = UNNotificationAttachment(identifier: attachment.identifier, url: fileURL(attachment.url),
                                                type: attachment.type, thumbnailHidden: attachment.thumbnailHidden,
                                                thumbnailClippingRect: attachment.thumbnailClippingRect,
                                                thumbnailTime: attachment.thumbnailTime < 0 ? nil : attachment.thumbnailTime)
            // What the host sends is what it has shown: its files are the data store's.
            made.isInDataStore = true
            return made
        }
        fields.categoryIdentifier = wire.categoryIdentifier
        fields.threadIdentifier = wire.threadIdentifier
        fields.targetContentIdentifier = wire.targetContentIdentifier
        fields.interruptionLevel = UNNotificationInterruptionLevel(rawValue: UInt(wire.interruptionLevel)) ?? .active
        fields.relevanceScore = wire.relevanceScore
        fields.filterCriteria = wire.filterCriteria
        fields.summaryArgument = wire.summaryArgument
        fields.summaryArgumentCount = Int(clamping: wire.summaryArgumentCount)
        fields.communication = wire.communication
        return fields
    }

    /// The URL a wire attachment names: a file URL's string, or a path.
    static func fileURL(_ string: String) -> URL {
        URL(string: string).flatMap { $0.isFileURL ? $0 : nil } ?? URL(fileURLWithPath: string)
    }

    /// The wire form of a `userInfo` value; `path` names it in an error.
    static func value(_ object: Any, at path: String) throws(Uncarried) -> WireValue {
        switch object {
        case is NSNull: return .null
        case let text as String: return .string(text)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "f", "d": return .double(number.doubleValue)
            case "Q" where number.uint64Value > UInt64(Int64.max): return .double(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        case let data as Data: return .data(Array(data))
        case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
        case let dictionary as [AnyHashable: Any]:
            var entries: [(String, WireValue)] = []
            for (key, element) in dictionary {
                guard let key = key.base as? String else { throw Uncarried(path: path, type: "key of type \(type(of: key.base))") }
                entries.append((key, try value(element, at: path + "[\"\(key)\"]")))
            }
            return .dictionary(entries.sorted { $0.0 < $1.0 })
        case let array as [Any]:
            var elements: [WireValue] = []
            for (index, element) in array.enumerated() { elements.append(try value(element, at: path + "[\(index)]")) }
            return .array(elements)
        default:
            throw Uncarried(path: path, type: "\(type(of: object))")
        }
    }

    /// The object a wire value stands for, as JSON and secure coding give them.
    static func object(_ value: WireValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): NSNumber(value: flag)
        case .integer(let number): NSNumber(value: number)
        case .double(let number): NSNumber(value: number)
        case .string(let text): text
        case .data(let bytes): Data(bytes)
        case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        case .array(let elements): elements.map(object)
        case .dictionary(let entries): Dictionary(entries.map { (AnyHashable($0.0), object($0.1)) }) { first, _ in first } as [AnyHashable: Any]
        }
    }

    static func wire(_ category: UNNotificationCategory) -> WireCategory {
        WireCategory(identifier: category.identifier,
                     actions: category.actions.map { WireAction(identifier: $0.identifier, title: $0.title, options: UInt32(truncatingIfNeeded: $0.options.rawValue)) },
                     intentIdentifiers: category.intentIdentifiers, options: UInt32(truncatingIfNeeded: category.options.rawValue),
                     hiddenPreviewsBodyPlaceholder: category.hiddenPreviewsBodyPlaceholder, categorySummaryFormat: category.categorySummaryFormat)
    }

    static func category(_ wire: WireCategory) -> UNNotificationCategory {
        UNNotificationCategory(identifier: wire.identifier,
                               actions: wire.actions.map { UNNotificationAction(identifier: $0.identifier, title: $0.title,
                                                                                options: UNNotificationActionOptions(rawValue: UInt($0.options))) },
                               intentIdentifiers: wire.intentIdentifiers, hiddenPreviewsBodyPlaceholder: wire.hiddenPreviewsBodyPlaceholder,
                               categorySummaryFormat: wire.categorySummaryFormat, options: UNNotificationCategoryOptions(rawValue: UInt(wire.options)))
    }
}
