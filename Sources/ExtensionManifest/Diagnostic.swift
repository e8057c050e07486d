/// One finding of the linter: how bad, where (the key path and, in an XML Info.plist, the line and column),
/// what, and how to fix it when there is one obvious fix.
public struct Diagnostic: Sendable, Equatable, Codable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case error, warning, note

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            let order: [Severity] = [.error, .warning, .note]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    public var severity: Severity
    /// Dotted, from the top of the Info.plist: `NSExtension.NSExtensionAttributes.NSExtensionActivationRule`.
    public var keyPath: String
    public var line: Int?
    public var column: Int?
    /// The byte offset, for binary property lists (which have no lines).
    public var byteOffset: Int?
    public var message: String
    public var fix: String?

    public init(severity: Severity, keyPath: String, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil,
                message: String, fix: String? = nil) {
        self.severity = severity
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.message = message
        self.fix = fix
    }

    /// `FILE:LINE:COL: error: message`, the form editors and CI annotate from.
    public func compilerStyle(file: String) -> String {
        let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return "\(place): \(severity.rawValue): \(message)" + (keyPath.isEmpty ? "" : " [\(keyPath)]")
    }
}
