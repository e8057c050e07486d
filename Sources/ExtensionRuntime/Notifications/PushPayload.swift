public import Foundation
public import OpenUserNotifications
import PackageSupport

/// A remote notification's payload, read as Apple's push service reads it, strictly: at most 4096 bytes of
/// one JSON object with an `aps` dictionary whose keys have Apple's types ("Generating a remote
/// notification"). The whole payload becomes the content's `userInfo`; `aps` gives the rest.
public struct PushPayload: Sendable {
    /// Where the payload came from, for messages: a file's path.
    public var name: String
    /// The request's identifier (a UUID, as the system makes one for each remote notification).
    public var identifier: String
    /// Why a notification service extension does not get this notification, or `nil` when it does: the
    /// payload must set `mutable-content` to 1 and have an alert with a title, subtitle or body.
    public var skipsServiceExtension: String?
    /// The content the payload shows as it is.
    package var content: WireContent
    /// The app a simulator push file (`.apns`) is for, its top-level `Simulator Target Bundle` (Xcode 11.4's
    /// release notes: the simulator delivers the file to the app with that bundle identifier).
    public var simulatorTargetBundle: String?

    /// Whether the simulator would deliver this payload to the app whose extension is identified by
    /// `extensionIdentifier`: true when the payload names no app, or names the extension's app (an extension's
    /// identifier is its app's followed by a dot and a name of its own).
    public func isFor(extensionIdentifier: String) -> Bool {
        guard let app = simulatorTargetBundle else { return true }
        return extensionIdentifier.hasPrefix(app + ".") || extensionIdentifier == app
    }

    /// The request iOS gives a notification service for this payload: its identifier, the content the payload
    /// shows, a push trigger.
    public func makeRequest() -> UNNotificationRequest {
        UNNotificationRequest(identifier: identifier, content: UNNotificationContent(fields: NotificationMirror.fields(content)),
                              trigger: UNPushNotificationTrigger())
    }

    /// The most bytes a payload holds (VoIP pushes, 5120, never reach a notification service extension).
    public static let maximumSize = 4096

    /// Reads `json`, named `name` in errors.
    ///
    /// - Throws: `PushPayloadError` naming what is wrong and where: too large, not a JSON object, no `aps`,
    ///   a key of the wrong type or value.
    public init(json: Data, name: String, identifier: String = UUID().uuidString) throws(PushPayloadError) {
        self.name = name
        self.identifier = identifier
        guard json.count <= Self.maximumSize else {
            throw PushPayloadError(.tooLarge, name: name, "holds \(json.count) bytes; Apple's push service refuses a payload over \(Self.maximumSize)")
        }
        do throws(StrictJSON.Fault) {
            try StrictJSON.check(Array(json))
        } catch {
            throw PushPayloadError(.notJSON, name: name, "is not JSON at line \(error.line), column \(error.column): \(error.reason)")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw PushPayloadError(.notJSON, name: name, "is not JSON (\((error as NSError).localizedDescription))")
        }
        guard let root = object as? [String: Any] else {
            throw PushPayloadError(.notAnObject, name: name, "is JSON but not an object: a payload is one dictionary")
        }
        guard let apsValue = root["aps"] else { throw PushPayloadError(.noAPS, name: name, "has no aps dictionary") }
        guard let aps = apsValue as? [String: Any] else { throw PushPayloadError(.wrongType, name: name, "aps is \(Self.kind(of: apsValue)), not a dictionary") }
        switch root["Simulator Target Bundle"] {
        case nil: break
        case let app as String where !app.isEmpty: simulatorTargetBundle = app
        case let other?: throw PushPayloadError(.wrongType, name: name, "Simulator Target Bundle is \(Self.kind(of: other)), not an app's bundle identifier")
        }
        let reader = Reader(name: name)
        var content = WireContent()
        do {
            content.userInfo = try NotificationMirror.value(root, at: "")
        } catch {
            throw PushPayloadError(.wrongType, name: name, "\(error)")
        }
        let alert = aps["alert"]
        switch alert {
        case nil: break
        case let body as String: content.body = body
        case let dictionary as [String: Any]:
            let fields = try reader.alert(dictionary)
            content.title = fields.title
            content.subtitle = fields.subtitle
            content.body = fields.body
            content.launchImageName = fields.launchImage
        case let other?: throw PushPayloadError(.wrongType, name: name, "aps.alert is \(Self.kind(of: other)), not a string or a dictionary")
        }
        content.badge = try reader.integer(aps, "badge", in: "aps")
        content.sound = try reader.sound(aps["sound"])
        content.threadIdentifier = try reader.string(aps, "thread-id", in: "aps") ?? ""
        content.categoryIdentifier = try reader.string(aps, "category", in: "aps") ?? ""
        content.targetContentIdentifier = try reader.string(aps, "target-content-id", in: "aps")
        content.filterCriteria = try reader.string(aps, "filter-criteria", in: "aps")
        if let level = try reader.string(aps, "interruption-level", in: "aps") {
            let levels: [String: UNNotificationInterruptionLevel] = ["passive": .passive, "active": .active, "time-sensitive": .timeSensitive, "critical": .critical]
            guard let known = levels[level] else {
                throw PushPayloadError(.badValue, name: name, "aps.interruption-level is \"\(level)\"; it is one of passive, active, time-sensitive, critical")
            }
            content.interruptionLevel = UInt8(known.rawValue)
        }
        if let score = try reader.number(aps, "relevance-score", in: "aps") { content.relevanceScore = score }
        let contentAvailable = try reader.integer(aps, "content-available", in: "aps")
        let mutableContent = try reader.integer(aps, "mutable-content", in: "aps")
        // What Apple's service accepts but the runtime could not hand to the extension in one message: refused
        // here, with the reason, rather than blamed on the extension when it cannot read what it was sent.
        let depth = Self.depth(content.userInfo)
        guard depth <= WireValue.maximumDepth else {
            throw PushPayloadError(.cannotCarry, name: name, "nests \(depth) deep; the runtime carries a payload at most \(WireValue.maximumDepth) levels deep to the extension")
        }
        let carried = RuntimeMessage.notification(index: 0, identifier: identifier, content: content).encoded().bytes.count
        guard carried <= RuntimeMessage.maximumPacket else {
            throw PushPayloadError(.cannotCarry, name: name,
                                   "makes a notification of \(carried) bytes once its localization arguments are expanded; the runtime carries at most \(RuntimeMessage.maximumPacket) to the extension in one message")
        }
        self.content = content
        if mutableContent != 1 {
            skipsServiceExtension = mutableContent == nil ? "the payload has no mutable-content" + Self.suggestion("mutable-content", among: aps.keys)
                                                          : "mutable-content is \(mutableContent ?? 0), not 1"
        } else if alert == nil {
            skipsServiceExtension = contentAvailable == 1 ? "a background notification (content-available, no alert)"
                                                          : "the payload has no alert" + Self.suggestion("alert", among: aps.keys)
        } else if content.title.isEmpty && content.subtitle.isEmpty && content.body.isEmpty {
            skipsServiceExtension = "the alert has no title, subtitle or body"
        } else {
            skipsServiceExtension = nil
        }
    }

    /// " (aps has KEY: did you mean WANTED?)" when one of `keys` is a near miss of the key `wanted`: the same
    /// but for case, underscores or spaces, or at most two letters off; else nothing.
    static func suggestion(_ wanted: String, among keys: Dictionary<String, Any>.Keys) -> String {
        func normalized(_ key: String) -> String { key.lowercased().replacing("_", with: "-").replacing(" ", with: "-") }
        let near = keys.filter { $0 != wanted }.sorted().first { key in
            normalized(key) == wanted || editDistance(Array(normalized(key)), Array(wanted)) <= 2
        }
        return near.map { " (aps has \($0): did you mean \(wanted)?)" } ?? ""
    }

    /// How deep a value nests: 1 for a scalar, one more for each array or dictionary around it.
    static func depth(_ value: WireValue) -> Int {
        switch value {
        case .array(let elements): 1 + (elements.map(depth).max() ?? 0)
        case .dictionary(let entries): 1 + (entries.map { depth($0.1) }.max() ?? 0)
        default: 1
        }
    }

    static func kind(of value: Any) -> String {
        switch value {
        case is NSNull: "null"
        case let number as NSNumber: String(cString: number.objCType) == "c" ? "a boolean" : "a number"
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "a dictionary"
        default: "\(type(of: value))"
        }
    }

    /// Reads keys of the types Apple gives them, naming the key's path when one is not.
    private struct Reader {
        var name: String

        func fail(_ path: String, _ value: Any, _ expected: String) -> PushPayloadError {
            PushPayloadError(.wrongType, name: name, "\(path) is \(PushPayload.kind(of: value)); it must be \(expected)")
        }

        func string(_ dictionary: [String: Any], _ key: String, in path: String) throws(PushPayloadError) -> String? {
            guard let value = dictionary[key] else { return nil }
            guard let text = value as? String else { throw fail("\(path).\(key)", value, "a string") }
            return text
        }

        func number(_ dictionary: [String: Any], _ key: String, in path: String) throws(PushPayloadError) -> Double? {
            guard let value = dictionary[key] else { return nil }
            guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { throw fail("\(path).\(key)", value, "a number") }
            return number.doubleValue
        }

        func integer(_ dictionary: [String: Any], _ key: String, in path: String) throws(PushPayloadError) -> Int64? {
            guard let number = try self.number(dictionary, key, in: path) else { return nil }
            guard number.rounded() == number, abs(number) < 1e15 else { throw fail("\(path).\(key)", dictionary[key] as Any, "a whole number") }
            return Int64(number)
        }

        func strings(_ dictionary: [String: Any], _ key: String, in path: String) throws(PushPayloadError) -> [String] {
            guard let value = dictionary[key] else { return [] }
            guard let array = value as? [Any] else { throw fail("\(path).\(key)", value, "an array of strings") }
            var strings: [String] = []
            for (index, element) in array.enumerated() {
                guard let text = element as? String else { throw fail("\(path).\(key)[\(index)]", element, "a string") }
                strings.append(text)
            }
            return strings
        }

        /// One alert text: the localized key's format with its arguments (the key itself when there is no
        /// localization, as here: the app's strings files are not the runtime's), else the plain text.
        func text(_ alert: [String: Any], plain: String, key: String, args: String) throws(PushPayloadError) -> String {
            if let format = try string(alert, key, in: "aps.alert") {
                return PushPayload.format(format, try strings(alert, args, in: "aps.alert"))
            }
            return try string(alert, plain, in: "aps.alert") ?? ""
        }

        func alert(_ alert: [String: Any]) throws(PushPayloadError) -> (title: String, subtitle: String, body: String, launchImage: String) {
            (try text(alert, plain: "title", key: "title-loc-key", args: "title-loc-args"),
             try text(alert, plain: "subtitle", key: "subtitle-loc-key", args: "subtitle-loc-args"),
             try text(alert, plain: "body", key: "loc-key", args: "loc-args"),
             try string(alert, "launch-image", in: "aps.alert") ?? "")
        }

        func sound(_ value: Any?) throws(PushPayloadError) -> WireSound? {
            switch value {
            case nil: return nil
            case let name as String: return WireSound(name: name == "default" ? nil : name, critical: false, volume: -1, ringtone: false)
            case let dictionary as [String: Any]:
                let critical = try integer(dictionary, "critical", in: "aps.sound") ?? 0
                guard critical == 0 || critical == 1 else { throw PushPayloadError(.badValue, name: name, "aps.sound.critical is \(critical); it is 0 or 1") }
                let soundName = try string(dictionary, "name", in: "aps.sound")
                let volume = try number(dictionary, "volume", in: "aps.sound")
                if let volume, !(0...1).contains(volume) { throw PushPayloadError(.badValue, name: name, "aps.sound.volume is \(volume); it is between 0 and 1") }
                return WireSound(name: soundName == "default" ? nil : soundName, critical: critical == 1, volume: volume.map(Float.init) ?? -1, ringtone: false)
            case let other?:
                throw fail("aps.sound", other, "a string or a dictionary")
            }
        }
    }

    /// A localization format with its arguments: `%@` takes the next, `%n$@` the n-th, `%%` is `%`.
    static func format(_ format: String, _ arguments: [String]) -> String {
        var result = ""
        var next = 0
        var characters = Substring(format)
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            let rest = characters[characters.index(after: percent)...]
            if rest.hasPrefix("%") {
                result += "%"
                characters = rest.dropFirst()
            } else if rest.hasPrefix("@") {
                result += next < arguments.count ? arguments[next] : ""
                next += 1
                characters = rest.dropFirst()
            } else if let dollar = rest.firstIndex(of: "$"), let position = Int(rest[..<dollar]), rest[rest.index(after: dollar)...].hasPrefix("@") {
                result += position >= 1 && position <= arguments.count ? arguments[position - 1] : ""
                characters = rest[rest.index(dollar, offsetBy: 2)...]
            } else {
                result += "%"
                characters = rest
            }
        }
        return result + characters
    }
}
