import Foundation

/// The name of a sound file in the app's bundle or its `Library/Sounds`. Stands in for `UNNotificationSoundName`.
public struct UNNotificationSoundName: Hashable, RawRepresentable, Sendable {
    public var rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
