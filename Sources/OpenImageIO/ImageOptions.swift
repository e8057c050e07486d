import Foundation
import OpenCoreFoundation

/// An options or properties dictionary as code passes it: `[kCGImageSource…: value] as CFDictionary`, an
/// `NSDictionary`, or `[String: Any]` bridged, its numbers as `Int`, `Double`, `CGFloat`, `Bool` or `NSNumber`.
struct ImageOptions {
    private let dictionary: CFDictionary?

    init(_ dictionary: CFDictionary?) {
        self.dictionary = dictionary
    }

    func value(_ key: CFString) -> Any? {
        dictionary?.object(forKey: key)
    }

    /// A number, however it was given; `nil` when absent or not a number.
    func number(_ key: CFString) -> Double? {
        switch value(key) {
        case let number as NSNumber: number.doubleValue
        case let number as Int: Double(number)
        case let number as Double: number
        case let number as CGFloat: Double(number)
        case let number as Float: Double(number)
        case let flag as Bool: flag ? 1 : 0
        default: nil
        }
    }

    /// A Boolean, however it was given (a number is true when not 0); `otherwise` when absent.
    func flag(_ key: CFString, otherwise: Bool = false) -> Bool {
        switch value(key) {
        case let flag as Bool: flag
        case let number as NSNumber: number.boolValue
        default: number(key).map { $0 != 0 } ?? otherwise
        }
    }

    /// A string, given as `String`, `NSString` or `CFString`.
    func string(_ key: CFString) -> String? {
        switch value(key) {
        case let text as String: text
        case let text as NSString: text as String
        default: nil
        }
    }
}
