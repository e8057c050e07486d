import Foundation
import OpenUserNotifications

/// A payload Apple's push service would refuse, or that is not a payload at all: which, what kind of fault,
/// and what exactly (the key's path, the value, what it must be).
public struct PushPayloadError: Error, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Over 4096 bytes.
        case tooLarge
        /// Not JSON.
        case notJSON
        /// JSON, but not one object.
        case notAnObject
        /// No `aps` key.
        case noAPS
        /// A key whose value is not of Apple's type.
        case wrongType
        /// A key of the right type with a value Apple does not allow.
        case badValue
        /// A payload Apple accepts that the runtime cannot hand to the extension in one message: nested deeper
        /// than a message carries, or larger than one once its localization arguments are expanded.
        case cannotCarry
    }

    public var code: Code
    public var name: String
    public var message: String

    init(_ code: Code, name: String, _ message: String) {
        self.code = code
        self.name = name
        self.message = message
    }

    public var description: String { "\(name) \(message)" }
}
