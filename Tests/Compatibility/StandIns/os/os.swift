// A stand-in for Apple's `os` module: the unified-logging calls extension code makes, written to standard
// error, so that `import os` and `os_log` compile and say something off Apple platforms. The compatibility
// suite only; not a product.

import Foundation

/// A log to write to: a subsystem and a category.
public final class OSLog: NSObject, Sendable {
    public let subsystem: String
    public let category: String

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    public static let `default` = OSLog(subsystem: "", category: "")
}

/// How severe a message is.
public struct OSLogType: Equatable, Sendable, RawRepresentable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let `default` = OSLogType(rawValue: 0x00)
    public static let info = OSLogType(rawValue: 0x01)
    public static let debug = OSLogType(rawValue: 0x02)
    public static let error = OSLogType(rawValue: 0x10)
    public static let fault = OSLogType(rawValue: 0x11)
}

/// Writes `message`, formatted with `args` as `String(format:)` does, to standard error. Swift strings
/// arrive as objects, as they do in Apple's overlay, so `%s` formats them as `%@` would.
public func os_log(_ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default,
                   type: OSLogType = .default, _ args: any CVarArg...) {
    let format = message.description.replacingOccurrences(of: "%{public}", with: "%").replacingOccurrences(of: "%s", with: "%@")
    let text = String(format: format, arguments: args)
    FileHandle.standardError.write(Data("[\(log.subsystem):\(log.category)] \(text)\n".utf8))
}
