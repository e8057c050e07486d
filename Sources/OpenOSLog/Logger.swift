public import Foundation

/// Writes messages to a log. Stands in for the `os` module's `Logger` (iOS 14): each method writes one line to
/// the process's standard error, which an extension's run keeps as its log (`OSLog`).
public struct Logger: @unchecked Sendable {
    private let log: OSLog

    /// A logger of the default log.
    public init() { log = .default }

    public init(subsystem: String, category: String) { log = OSLog(subsystem: subsystem, category: category) }

    public init(_ logObj: OSLog) { log = logObj }

    public func log(_ message: OSLogMessage) { log.write(.default, message.rendered) }

    public func log(level: OSLogType, _ message: OSLogMessage) { log.write(level, message.rendered) }

    public func trace(_ message: OSLogMessage) { log.write(.debug, message.rendered) }

    public func debug(_ message: OSLogMessage) { log.write(.debug, message.rendered) }

    public func info(_ message: OSLogMessage) { log.write(.info, message.rendered) }

    public func notice(_ message: OSLogMessage) { log.write(.default, message.rendered) }

    public func warning(_ message: OSLogMessage) { log.write(.error, message.rendered) }

    public func error(_ message: OSLogMessage) { log.write(.error, message.rendered) }

    public func critical(_ message: OSLogMessage) { log.write(.fault, message.rendered) }

    public func fault(_ message: OSLogMessage) { log.write(.fault, message.rendered) }
}

/// A message with interpolated values, made from a string literal. Stands in for the `os` module's
/// `OSLogMessage`.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public var interpolation: OSLogInterpolation

    public init(stringInterpolation: OSLogInterpolation) { interpolation = stringInterpolation }

    public init(stringLiteral value: String) {
        interpolation = OSLogInterpolation(literalCapacity: value.utf8.count, interpolationCount: 0)
        interpolation.appendLiteral(value)
    }

    /// The message as the log shows it.
    var rendered: String { interpolation.text }
}

/// The parts of a log message. Stands in for the `os` module's `OSLogInterpolation`: each value is rendered
/// with its format and alignment; privacy changes nothing here (`OSLog`).
public struct OSLogInterpolation: StringInterpolationProtocol {
    var text = ""

    public init(literalCapacity: Int, interpolationCount: Int) {
        text.reserveCapacity(literalCapacity + interpolationCount * 8)
    }

    public mutating func appendLiteral(_ literal: String) { text += literal }

    public mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
                                             privacy: OSLogPrivacy = .auto) {
        text += align.aligned(argumentString())
    }

    public mutating func appendInterpolation<T>(_ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none,
                                                privacy: OSLogPrivacy = .auto) where T: CustomStringConvertible {
        text += align.aligned(value().description)
    }

    public mutating func appendInterpolation(_ value: @autoclosure @escaping () -> any Any.Type, align: OSLogStringAlignment = .none,
                                             privacy: OSLogPrivacy = .auto) {
        text += align.aligned(String(describing: value()))
    }

    public mutating func appendInterpolation(_ argumentObject: @autoclosure @escaping () -> NSObject, privacy: OSLogPrivacy = .auto) {
        text += argumentObject().description
    }

    public mutating func appendInterpolation(_ error: @autoclosure @escaping () -> any Error, privacy: OSLogPrivacy = .auto, attributes: String = "") {
        text += String(describing: error())
    }

    public mutating func appendInterpolation(_ boolean: @autoclosure @escaping () -> Bool, format: OSLogBoolFormat = .truth,
                                             privacy: OSLogPrivacy = .auto) {
        text += format.rendered(boolean())
    }

    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        text += align.aligned(format.rendered(number()))
    }

    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> UInt, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        text += align.aligned(format.rendered(number()))
    }

    public mutating func appendInterpolation<T>(_ number: @autoclosure @escaping () -> T, format: OSLogIntegerFormatting = .decimal,
                                                align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto,
                                                attributes: String) where T: FixedWidthInteger {
        text += align.aligned(format.rendered(number()))
    }

    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Double, format: OSLogFloatFormatting = .fixed,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        text += align.aligned(format.rendered(number()))
    }

    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Float, format: OSLogFloatFormatting = .fixed,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        text += align.aligned(format.rendered(Double(number())))
    }
}

/// Whether a value may be shown. Stands in for the `os` module's `OSLogPrivacy`; here every value is shown.
public struct OSLogPrivacy: Equatable, Sendable {
    /// What a redacted value shows instead: nothing, or a hash.
    public struct Mask: Equatable, Sendable {
        let hashes: Bool
        public static let hash = Mask(hashes: true)
        public static let none = Mask(hashes: false)
    }

    enum Kind: Equatable { case auto, `public`, `private`, sensitive }
    let kind: Kind
    let mask: Mask

    public static let auto = OSLogPrivacy(kind: .auto, mask: .none)
    public static let `public` = OSLogPrivacy(kind: .public, mask: .none)
    public static let `private` = OSLogPrivacy(kind: .private, mask: .none)
    public static let sensitive = OSLogPrivacy(kind: .sensitive, mask: .none)

    public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .auto, mask: mask) }
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .private, mask: mask) }
    public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .sensitive, mask: mask) }
}

/// A column width and the side a value keeps to in it. Stands in for the `os` module's
/// `OSLogStringAlignment`.
public struct OSLogStringAlignment: Sendable {
    let columns: Int
    let left: Bool

    public static let none = OSLogStringAlignment(columns: 0, left: false)

    public static func left(columns: @autoclosure @escaping () -> Int) -> OSLogStringAlignment { OSLogStringAlignment(columns: columns(), left: true) }

    public static func right(columns: @autoclosure @escaping () -> Int) -> OSLogStringAlignment { OSLogStringAlignment(columns: columns(), left: false) }

    func aligned(_ value: String) -> String {
        let padding = String(repeating: " ", count: max(0, columns - value.count))
        return left ? value + padding : padding + value
    }
}

/// How an integer is written. Stands in for the `os` module's `OSLogIntegerFormatting`.
public struct OSLogIntegerFormatting: Sendable {
    let radix: Int
    let explicitPositiveSign: Bool
    let includePrefix: Bool
    let uppercase: Bool
    let minDigits: Int

    public static let decimal = decimal(explicitPositiveSign: false)
    public static let hex = hex(explicitPositiveSign: false)
    public static let octal = octal(explicitPositiveSign: false)

    public static func decimal(explicitPositiveSign: Bool = false) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 10, explicitPositiveSign: explicitPositiveSign, includePrefix: false, uppercase: false, minDigits: 0)
    }

    public static func decimal(explicitPositiveSign: Bool = false, minDigits: @autoclosure @escaping () -> Int) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 10, explicitPositiveSign: explicitPositiveSign, includePrefix: false, uppercase: false, minDigits: minDigits())
    }

    public static func hex(explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase, minDigits: 0)
    }

    public static func hex(explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
                           minDigits: @autoclosure @escaping () -> Int) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
                               minDigits: minDigits())
    }

    public static func octal(explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase, minDigits: 0)
    }

    public static func octal(explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
                             minDigits: @autoclosure @escaping () -> Int) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
                               minDigits: minDigits())
    }

    func rendered<T: BinaryInteger>(_ value: T) -> String {
        var digits = String(value.magnitude, radix: radix, uppercase: uppercase)
        if digits.count < minDigits { digits = String(repeating: "0", count: minDigits - digits.count) + digits }
        if includePrefix { digits = (radix == 16 ? "0x" : "0o") + digits }
        let sign = value < 0 ? "-" : explicitPositiveSign ? "+" : ""
        return sign + digits
    }
}

/// How a floating-point number is written. Stands in for the `os` module's `OSLogFloatFormatting`.
public struct OSLogFloatFormatting: Sendable {
    let conversion: String
    let precision: Int?
    let explicitPositiveSign: Bool
    let uppercase: Bool

    public static let fixed = fixed(explicitPositiveSign: false)
    public static let hex = hex(explicitPositiveSign: false)
    public static let exponential = exponential(explicitPositiveSign: false)
    public static let hybrid = hybrid(explicitPositiveSign: false)

    public static func fixed(precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: "f", precision: precision(), explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func fixed(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: "f", precision: nil, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func hex(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: "a", precision: nil, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func exponential(precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: "e", precision: precision(), explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func exponential(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: "e", precision: nil, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func hybrid(precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: "g", precision: precision(), explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func hybrid(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: "g", precision: nil, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    /// As printf writes it with this conversion, as the system's formatter does.
    func rendered(_ value: Double) -> String {
        let specifier = "%" + (explicitPositiveSign ? "+" : "") + (precision.map { ".\($0)" } ?? "")
            + (uppercase ? conversion.uppercased() : conversion)
        return String(format: specifier, value)
    }
}

/// How a Boolean is written: `true`/`false` or `YES`/`NO`. Stands in for the `os` module's `OSLogBoolFormat`.
public enum OSLogBoolFormat: Sendable {
    case truth
    case answer

    func rendered(_ value: Bool) -> String {
        switch self {
        case .truth: value ? "true" : "false"
        case .answer: value ? "YES" : "NO"
        }
    }
}
