// A stand-in for the names DuckDuckGo's action extension takes from the app's own `Core` framework
// (https://github.com/duckduckgo/iOS, Apache-2.0), which brings the whole browser with it: the deep-link scheme
// (`AppDeepLinkSchemes`, DuckDuckGo's values), a search URL for text (DuckDuckGo's `q` and `t` parameters,
// none of its statistics), and the unified-logging names Core brings with it (`os_log`, `OSLog`), written to
// standard error. No module here is named `os`: a module of that name would turn other packages'
// `canImport(os)` checks (swift-argument-parser's lock) to Apple's code paths. The compatibility suite only;
// not a product.

import Foundation

public enum AppDeepLinkSchemes: String, CaseIterable {
    case quickLink = "ddgQuickLink"

    public func appending(_ string: String) -> String {
        "\(rawValue)://\(string)"
    }
}

extension URL {
    /// A DuckDuckGo search for `text`.
    public static func makeSearchURL(text: String) -> URL? {
        var components = URLComponents(string: "https://duckduckgo.com/")
        components?.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "t", value: "ddg_ios")]
        return components?.url
    }
}

/// A log to write to: a subsystem and a category.
public final class OSLog: NSObject, Sendable {
    public let subsystem: String
    public let category: String

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    public static let `default` = OSLog(subsystem: "", category: "")
    public static let lifecycleLog = OSLog(subsystem: "com.duckduckgo.mobile.ios", category: "Lifecycle")
}

/// How severe a message is.
public struct OSLogType: Equatable, Sendable, RawRepresentable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let `default` = OSLogType(rawValue: 0x00)
    public static let error = OSLogType(rawValue: 0x10)
}

/// Writes `message`, formatted with `args` as `String(format:)` does, to standard error. Swift strings
/// arrive as objects, as they do in Apple's overlay, so `%s` formats them as `%@` would.
public func os_log(_ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default,
                   type: OSLogType = .default, _ args: any CVarArg...) {
    let format = message.description.replacingOccurrences(of: "%{public}", with: "%").replacingOccurrences(of: "%s", with: "%@")
    FileHandle.standardError.write(Data("[\(log.subsystem):\(log.category)] \(String(format: format, arguments: args))\n".utf8))
}
