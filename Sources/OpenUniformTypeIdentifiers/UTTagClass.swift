/// A class of tags that identify a type outside the type system: a filename extension, a MIME type, ….
///
/// Stands in for Apple's `UTTagClass`.
public struct UTTagClass: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The tag class's identifier, such as `public.filename-extension`.
    public let rawValue: String

    /// Which well-known class this is, so that hot paths compare a byte instead of a string.
    enum Known: UInt8 { case filenameExtension, mimeType, other }
    let known: Known

    /// Creates a tag class from its identifier.
    public init(rawValue: String) {
        self.rawValue = rawValue
        switch rawValue {
        case "public.filename-extension": known = .filenameExtension
        case "public.mime-type": known = .mimeType
        default: known = .other
        }
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func == (lhs: UTTagClass, rhs: UTTagClass) -> Bool {
        lhs.known == rhs.known && (lhs.known != .other || lhs.rawValue == rhs.rawValue)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    private init(literal rawValue: String, known: Known) {
        self.rawValue = rawValue
        self.known = known
    }

    // Made on each use from a literal, which costs nothing, where a stored constant costs a once-check and
    // a reference count on every lookup.

    /// Filename extensions (`public.filename-extension`), written without the leading dot.
    public static var filenameExtension: UTTagClass { UTTagClass(literal: "public.filename-extension", known: .filenameExtension) }

    /// MIME types (`public.mime-type`).
    public static var mimeType: UTTagClass { UTTagClass(literal: "public.mime-type", known: .mimeType) }

    public var description: String { rawValue }

    /// Tags of these classes are compared case-insensitively and stored lowercased in dynamic identifiers:
    /// filename extensions and MIME types (RFC 2045 §5.1) are case-insensitive by definition.
    var isCaseInsensitive: Bool {
        known != .other
    }
}
