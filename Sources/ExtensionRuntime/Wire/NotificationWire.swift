import Foundation
package import OpenUserNotifications

/// A notification's content as it crosses the boundary, both ways: the request's to the extension, and the
/// content the extension gives its handler back to the host, its attachments' files as the packet's descriptors.
package struct WireContent: Equatable, Sendable {
    package var title = ""
    package var subtitle = ""
    package var body = ""
    package var badge: Int64?
    package var sound: WireSound?
    package var launchImageName = ""
    /// Always a dictionary.
    package var userInfo: WireValue = .dictionary([])
    package var attachments: [WireNotificationAttachment] = []
    package var categoryIdentifier = ""
    package var threadIdentifier = ""
    package var targetContentIdentifier: String?
    package var interruptionLevel: UInt8 = 1
    package var relevanceScore: Double = 0
    package var filterCriteria: String?
    package var summaryArgument = ""
    package var summaryArgumentCount: Int64 = 0
    /// The sender and conversation of a communication notification (`updating(from:)`).
    package var communication: CommunicationFields?

    package init() {}
}

package struct WireSound: Equatable, Sendable {
    package var name: String?
    package var critical: Bool
    /// A volume of 0 to 1; negative for none.
    package var volume: Float
    package var ringtone: Bool
}

/// An attachment: what the extension's `UNNotificationAttachment` says, and whether its file travels with it
/// (the extension could not open a file it no longer has, or one outside what it may read).
package struct WireNotificationAttachment: Equatable, Sendable {
    package var identifier: String
    package var url: String
    package var type: String
    package var thumbnailHidden: Bool
    package var thumbnailClippingRect: [String: Double]?
    /// Negative for none.
    package var thumbnailTime: Double
    package var carriesFile: Bool
}

/// A value of `userInfo`: what a push payload's JSON holds, and what secure coding carries besides (data, dates).
package indirect enum WireValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case data([UInt8])
    /// Seconds since 2001 (`Date.timeIntervalSinceReferenceDate`).
    case date(Double)
    case array([WireValue])
    case dictionary([(String, WireValue)])

    /// How deep values nest at most: deeper is refused, so that decoding never runs out of stack.
    static let maximumDepth = 64

    package static func == (lhs: WireValue, rhs: WireValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }
}

/// A category the extension sets or the host answers with.
package struct WireCategory: Equatable, Sendable {
    package var identifier: String
    package var actions: [WireAction]
    package var intentIdentifiers: [String]
    package var options: UInt32
    package var hiddenPreviewsBodyPlaceholder: String
    package var categorySummaryFormat: String
}

package struct WireAction: Equatable, Sendable {
    package var identifier: String
    package var title: String
    package var options: UInt32
}

/// A delivered notification the host answers with.
package struct WireDelivered: Equatable, Sendable {
    package var identifier: String
    /// Seconds since 2001.
    package var date: Double
    package var content: WireContent
}

/// What the extension asks of the notification center the host keeps.
package enum WireCenterCall: Equatable, Sendable {
    case setCategories([WireCategory])
    case categories
    case delivered
    case removeDelivered([String])
    case removeAllDelivered
}

/// The host's answer to `categories` or `delivered`.
package enum WireCenterAnswer: Equatable, Sendable {
    case categories([WireCategory])
    case delivered([WireDelivered])
}

// MARK: - Encoding

extension WireWriter {
    mutating func double(_ value: Double) { u64(value.bitPattern) }
    mutating func flag(_ value: Bool) { u8(value ? 1 : 0) }

    mutating func strings(_ values: [String]) {
        u32(UInt32(values.count))
        values.forEach { string($0) }
    }

    mutating func value(_ value: WireValue) {
        switch value {
        case .null: u8(0)
        case .bool(let flag): u8(1); self.flag(flag)
        case .integer(let number): u8(2); u64(UInt64(bitPattern: number))
        case .double(let number): u8(3); double(number)
        case .string(let text): u8(4); string(text)
        case .data(let bytes): u8(5); data(bytes)
        case .date(let seconds): u8(6); double(seconds)
        case .array(let elements):
            u8(7); u32(UInt32(elements.count))
            elements.forEach { self.value($0) }
        case .dictionary(let entries):
            u8(8); u32(UInt32(entries.count))
            for (key, element) in entries { string(key); self.value(element) }
        }
    }

    mutating func content(_ content: WireContent) {
        string(content.title); string(content.subtitle); string(content.body)
        if let badge = content.badge { u8(1); u64(UInt64(bitPattern: badge)) } else { u8(0) }
        if let sound = content.sound {
            u8(1); optional(sound.name); flag(sound.critical); u32(sound.volume.bitPattern); flag(sound.ringtone)
        } else {
            u8(0)
        }
        string(content.launchImageName)
        value(content.userInfo)
        u32(UInt32(content.attachments.count))
        for attachment in content.attachments {
            string(attachment.identifier); string(attachment.url); string(attachment.type); flag(attachment.thumbnailHidden)
            if let rect = attachment.thumbnailClippingRect {
                u8(1); u32(UInt32(rect.count))
                for (key, number) in rect.sorted(by: { $0.key < $1.key }) { string(key); double(number) }
            } else {
                u8(0)
            }
            double(attachment.thumbnailTime)
            flag(attachment.carriesFile)
            if attachment.carriesFile { descriptors += 1 }
        }
        string(content.categoryIdentifier); string(content.threadIdentifier); optional(content.targetContentIdentifier)
        u8(content.interruptionLevel); double(content.relevanceScore); optional(content.filterCriteria)
        string(content.summaryArgument); u64(UInt64(bitPattern: content.summaryArgumentCount))
        if let communication = content.communication {
            u8(1); string(communication.senderName); optional(communication.senderHandle); optional(communication.avatar)
            optional(communication.groupName); optional(communication.groupImage); optional(communication.conversationIdentifier)
            u32(UInt32(clamping: communication.recipients))
        } else {
            u8(0)
        }
    }

    mutating func categories(_ categories: [WireCategory]) {
        u32(UInt32(categories.count))
        for category in categories {
            string(category.identifier)
            u32(UInt32(category.actions.count))
            for action in category.actions { string(action.identifier); string(action.title); u32(action.options) }
            strings(category.intentIdentifiers)
            u32(category.options)
            string(category.hiddenPreviewsBodyPlaceholder)
            string(category.categorySummaryFormat)
        }
    }

    mutating func centerCall(_ call: WireCenterCall) {
        switch call {
        case .setCategories(let categories): u8(1); self.categories(categories)
        case .categories: u8(2)
        case .delivered: u8(3)
        case .removeDelivered(let identifiers): u8(4); strings(identifiers)
        case .removeAllDelivered: u8(5)
        }
    }

    mutating func centerAnswer(_ answer: WireCenterAnswer) {
        switch answer {
        case .categories(let categories): u8(1); self.categories(categories)
        case .delivered(let notifications):
            u8(2); u32(UInt32(notifications.count))
            for notification in notifications {
                string(notification.identifier); double(notification.date); content(notification.content)
            }
        }
    }
}

extension WireReader {
    mutating func double() throws(ProtocolViolation) -> Double { Double(bitPattern: try u64()) }

    mutating func strings() throws(ProtocolViolation) -> [String] {
        var values: [String] = []
        for _ in 0..<(try count(minimumSize: 4)) { values.append(try string()) }
        return values
    }

    mutating func value(depth: Int = 0) throws(ProtocolViolation) -> WireValue {
        guard depth < WireValue.maximumDepth else {
            throw ProtocolViolation("a value nested more than \(WireValue.maximumDepth) deep at byte \(position)")
        }
        switch try u8() {
        case 0: return .null
        case 1: return .bool(try flag())
        case 2: return .integer(Int64(bitPattern: try u64()))
        case 3: return .double(try double())
        case 4: return .string(try string())
        case 5: return .data(try data())
        case 6: return .date(try double())
        case 7:
            var elements: [WireValue] = []
            for _ in 0..<(try count(minimumSize: 1)) { elements.append(try value(depth: depth + 1)) }
            return .array(elements)
        case 8:
            var entries: [(String, WireValue)] = []
            for _ in 0..<(try count(minimumSize: 5)) { entries.append((try string(), try value(depth: depth + 1))) }
            return .dictionary(entries)
        case let code: throw ProtocolViolation("unknown value kind \(code) at byte \(position - 1)")
        }
    }

    mutating func content() throws(ProtocolViolation) -> WireContent {
        var content = WireContent()
        content.title = try string(); content.subtitle = try string(); content.body = try string()
        if try flag() { content.badge = Int64(bitPattern: try u64()) }
        if try flag() {
            content.sound = WireSound(name: try optional(), critical: try flag(), volume: Float(bitPattern: try u32()), ringtone: try flag())
        }
        content.launchImageName = try string()
        let start = position
        content.userInfo = try value()
        guard case .dictionary = content.userInfo else { throw ProtocolViolation("a content's userInfo at byte \(start) is not a dictionary") }
        for _ in 0..<(try count(minimumSize: 32)) {
            let identifier = try string(), url = try string(), type = try string(), hidden = try flag()
            var rect: [String: Double]?
            if try flag() {
                var entries: [String: Double] = [:]
                for _ in 0..<(try count(minimumSize: 12)) { entries[try string()] = try double() }
                rect = entries
            }
            let time = try double()
            let carriesFile = try flag()
            if carriesFile { descriptors += 1 }
            content.attachments.append(WireNotificationAttachment(identifier: identifier, url: url, type: type, thumbnailHidden: hidden,
                                                                  thumbnailClippingRect: rect, thumbnailTime: time, carriesFile: carriesFile))
        }
        content.categoryIdentifier = try string(); content.threadIdentifier = try string(); content.targetContentIdentifier = try optional()
        content.interruptionLevel = try u8()
        guard UNNotificationInterruptionLevel(rawValue: UInt(content.interruptionLevel)) != nil else {
            throw ProtocolViolation("interruption level \(content.interruptionLevel) at byte \(position - 1)")
        }
        content.relevanceScore = try double(); content.filterCriteria = try optional()
        content.summaryArgument = try string(); content.summaryArgumentCount = Int64(bitPattern: try u64())
        if try flag() {
            content.communication = CommunicationFields(senderName: try string(), senderHandle: try optional(), avatar: try optional(),
                                                        groupName: try optional(), groupImage: try optional(),
                                                        conversationIdentifier: try optional(), recipients: Int(try u32()))
        }
        return content
    }

    mutating func categories() throws(ProtocolViolation) -> [WireCategory] {
        var categories: [WireCategory] = []
        for _ in 0..<(try count(minimumSize: 24)) {
            let identifier = try string()
            var actions: [WireAction] = []
            for _ in 0..<(try count(minimumSize: 12)) { actions.append(WireAction(identifier: try string(), title: try string(), options: try u32())) }
            categories.append(WireCategory(identifier: identifier, actions: actions, intentIdentifiers: try strings(), options: try u32(),
                                           hiddenPreviewsBodyPlaceholder: try string(), categorySummaryFormat: try string()))
        }
        return categories
    }

    mutating func centerCall() throws(ProtocolViolation) -> WireCenterCall {
        switch try u8() {
        case 1: return .setCategories(try categories())
        case 2: return .categories
        case 3: return .delivered
        case 4: return .removeDelivered(try strings())
        case 5: return .removeAllDelivered
        case let code: throw ProtocolViolation("unknown notification center call \(code) at byte \(position - 1)")
        }
    }

    mutating func centerAnswer() throws(ProtocolViolation) -> WireCenterAnswer {
        switch try u8() {
        case 1: return .categories(try categories())
        case 2:
            var notifications: [WireDelivered] = []
            for _ in 0..<(try count(minimumSize: 16)) {
                notifications.append(WireDelivered(identifier: try string(), date: try double(), content: try content()))
            }
            return .delivered(notifications)
        case let code: throw ProtocolViolation("unknown notification center answer \(code) at byte \(position - 1)")
        }
    }
}
