public import Foundation

/// How much a message matters. Stands in for the `os` module's `OSLogType` (C's `os_log_type_t`), with its
/// values.
public struct OSLogType: Equatable, Hashable, RawRepresentable, Sendable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let `default` = OSLogType(0x00)
    public static let info = OSLogType(0x01)
    public static let debug = OSLogType(0x02)
    public static let error = OSLogType(0x10)
    public static let fault = OSLogType(0x11)

    /// The name the log line shows.
    var name: String {
        switch self {
        case .info: "info"
        case .debug: "debug"
        case .error: "error"
        case .fault: "fault"
        default: "default"
        }
    }
}

/// A log: a subsystem and a category. Stands in for the `os` module's `OSLog`. Everything logged goes to the
/// process's standard error, one line per message, which an extension's run keeps as its log: what it logged
/// is among its last words in `sharing run`, `notify` and `test`. Values are written as Xcode's console shows
/// them while a debugger is attached: none is redacted, whatever its privacy.
public final class OSLog: NSObject, Sendable {
    /// The subsystem and category, empty for the default log.
    let subsystem: String, category: String
    private let enabled: Bool

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
        enabled = true
    }

    private init(enabled: Bool) {
        subsystem = ""
        category = ""
        self.enabled = enabled
    }

    /// The log of messages that name none.
    public static let `default` = OSLog(enabled: true)

    /// A log that writes nothing.
    public static let disabled = OSLog(enabled: false)

    /// Whether a message of `type` is written: every type is, unless the log is `disabled`.
    public func isEnabled(type: OSLogType) -> Bool { enabled }

    /// Writes `message` as a line: `subsystem:category type: message` (`default` alone for the default log).
    func write(_ type: OSLogType, _ message: String) {
        guard enabled else { return }
        let source = subsystem.isEmpty && category.isEmpty ? "" : "\(subsystem):\(category) "
        // One write per line, so that lines from several threads never interleave.
        FileHandle.standardError.write(Data("\(source)\(type.name): \(message)\n".utf8))
    }
}

/// Logs `message`, a format string whose arguments are `args`, to `log` at `type`. Stands in for the `os`
/// module's function: `%{public}@`, `%{private}d` and the other privacy annotations are read as their plain
/// conversions.
public func os_log(_ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default, type: OSLogType = .default,
                   _ args: any CVarArg...) {
    log.write(type, formatted(message, args))
}

/// Logs `message`, a format string whose arguments are `args`, to `log` at `type`. Stands in for the `os`
/// module's function.
public func os_log(_ type: OSLogType, dso: UnsafeRawPointer = #dsohandle, log: OSLog = .default, _ message: StaticString,
                   _ args: any CVarArg...) {
    log.write(type, formatted(message, args))
}

/// Logs `message` to the default log. Stands in for the `os` module's function.
public func os_log(_ message: OSLogMessage) {
    OSLog.default.write(.default, message.rendered)
}

/// `format` with its arguments, the privacy annotations (`{public}`, `{private}`, `{public, mask.hash}`…)
/// removed; a format with no arguments is written as it is, as the system does with a constant string.
private func formatted(_ format: StaticString, _ args: [any CVarArg]) -> String {
    let text = format.description
    guard !args.isEmpty else { return text }
    var plain = ""
    var rest = text[...]
    while let percent = rest.firstIndex(of: "%") {
        plain += rest[...percent]
        rest = rest[rest.index(after: percent)...]
        if rest.first == "{", let close = rest.firstIndex(of: "}") { rest = rest[rest.index(after: close)...] }
    }
    plain += rest
    return String(format: plain, arguments: args)
}
