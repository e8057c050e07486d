public import Foundation

/// An attachment moved into the host's data store.
public struct StoredAttachment: Sendable, Equatable, Codable {
    public var identifier: String
    /// Its type, a UTI.
    public var type: String
    public var size: Int
    /// Where it is now, in the data store.
    public var url: URL

    private enum CodingKeys: String, CodingKey {
        case identifier, type, size, path
    }

    /// Encoded with its place as a path.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(type, forKey: .type)
        try container.encode(size, forKey: .size)
        try container.encode(url.path, forKey: .path)
    }
}

extension StoredAttachment {
    /// Read back from its place as a path (in an extension, so that the memberwise initializer stays).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(identifier: try container.decode(String.self, forKey: .identifier), type: try container.decode(String.self, forKey: .type),
                  size: try container.decode(Int.self, forKey: .size), url: URL(fileURLWithPath: try container.decode(String.self, forKey: .path)))
    }
}
