public import Foundation

/// The sound a notification plays: the default one, a named file, a critical alert's (at a volume), or a
/// ringtone. Stands in for `UNNotificationSound`, final here (a subclass of a sound has no use); nothing plays
/// here, the report names the sound.
public final class UNNotificationSound: NSObject, NSCopying, NSSecureCoding, Sendable {
    /// The file's name; `nil` for the system's default sound.
    package let name: String?
    package let isCritical: Bool
    /// A critical alert's volume, 0 to 1; `nil` when none was given.
    package let volume: Float?
    package let isRingtone: Bool

    package init(name: String?, isCritical: Bool = false, volume: Float? = nil, isRingtone: Bool = false) {
        self.name = name
        self.isCritical = isCritical
        self.volume = volume.map { min(max($0, 0), 1) }
        self.isRingtone = isRingtone
        super.init()
    }

    /// The system's default sound.
    public class var `default`: UNNotificationSound { UNNotificationSound(name: nil) }

    /// The sound in the file named `name`.
    public convenience init(named name: UNNotificationSoundName) {
        self.init(name: name.rawValue)
    }

    /// The default critical alert sound (critical alerts need an entitlement Apple grants).
    public class var defaultCritical: UNNotificationSound { UNNotificationSound(name: nil, isCritical: true) }

    public class func defaultCriticalSound(withAudioVolume volume: Float) -> Self {
        Self(name: nil, isCritical: true, volume: volume)
    }

    public class func criticalSoundNamed(_ name: UNNotificationSoundName) -> Self {
        Self(name: name.rawValue, isCritical: true)
    }

    public class func criticalSoundNamed(_ name: UNNotificationSoundName, withAudioVolume volume: Float) -> Self {
        Self(name: name.rawValue, isCritical: true, volume: volume)
    }

    /// The default ringtone (only for content updated from a call intent).
    public class var defaultRingtone: UNNotificationSound { UNNotificationSound(name: nil, isRingtone: true) }

    public class func ringtoneSoundNamed(_ name: UNNotificationSoundName) -> Self {
        Self(name: name.rawValue, isRingtone: true)
    }

    /// How a report names the sound: `default`, the file's name, either with `critical` (and its volume) or
    /// `ringtone` before it.
    package var summary: String {
        var words: [String] = []
        if isCritical { words.append("critical") }
        if isRingtone { words.append("ringtone") }
        words.append(name ?? "default")
        if let volume { words.append("at volume \(volume)") }
        return words.joined(separator: " ")
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    override public func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationSound else { return false }
        return name == other.name && isCritical == other.isCritical && volume == other.volume && isRingtone == other.isRingtone
    }

    override public var hash: Int { summary.hashValue }

    override public var description: String { "<UNNotificationSound: \(summary)>" }

    public class var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(isCritical, forKey: "critical")
        coder.encode(volume.map { NSNumber(value: $0) }, forKey: "volume")
        coder.encode(isRingtone, forKey: "ringtone")
    }

    public required init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String
        isCritical = coder.decodeBool(forKey: "critical")
        volume = (coder.decodeObject(forKey: "volume") as? NSNumber)?.floatValue
        isRingtone = coder.decodeBool(forKey: "ringtone")
        super.init()
    }
}
