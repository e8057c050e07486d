public import Foundation

/// What an inbox item holds, written beside its payload as `manifest.json`.
public struct InboxManifest: Codable, Sendable, Equatable {
    /// Whether the payload is one file or a directory tree.
    public enum Kind: String, Codable, Sendable {
        case file, directory
    }

    /// A smaller image of the payload, in `previews/`.
    public struct Preview: Codable, Sendable, Equatable {
        /// The file's name in the item's `previews/` directory.
        public var name: String
        public var width: Int
        public var height: Int

        public init(name: String, width: Int, height: Int) {
            self.name = name
            self.width = width
            self.height = height
        }
    }

    /// Where in the share the payload came from (both counted from 1, as people count).
    public struct Source: Codable, Sendable, Equatable {
        public var item: Int
        public var attachment: Int?

        public init(item: Int, attachment: Int?) {
            self.item = item
            self.attachment = attachment
        }
    }

    /// The item's identifier.
    public var id: String
    /// When the item was delivered; `deliver` sets it.
    public var received: Date
    /// The host app, when known.
    public var host: String?
    /// The payload's type identifier: what its bytes are, which may be more precise than what the host declared.
    public var type: String
    /// The type the host declared, when it differs from `type`.
    public var declaredType: String?
    /// The name the host suggested, exactly as given (it may be hostile; `name` is what is on disk).
    public var originalName: String?
    /// The payload's name in the item's `payload/` directory.
    public var name: String
    public var kind: Kind
    /// Bytes of the file, or of all regular files in the tree.
    public var size: Int64
    /// The hash of the file, or of the tree (see `ContentHash.of(treeAt:)`), with its algorithm: written as
    /// `"hash": "blake3:…"`; a manifest of an older inbox has `"sha256": "…"` instead, read as `sha256:…`.
    public var hash: ContentHash
    /// The shared item's `attributedContentText`, as plain text.
    public var text: String?
    /// The shared item's `attributedTitle`, as plain text.
    public var title: String?
    /// The web address, when what was shared is one.
    public var url: String?
    public var previews: [Preview]
    public var source: Source?

    /// A manifest for `InboxDelivery.deliver`, which fills in what the inbox measured: the identifier, the
    /// time, and the payload's kind, size, hash and previews.
    public init(host: String? = nil, type: String, declaredType: String? = nil, originalName: String? = nil, name: String,
                text: String? = nil, title: String? = nil, url: String? = nil, source: Source? = nil) {
        self.id = ""
        self.received = Date(timeIntervalSince1970: 0)
        self.host = host
        self.type = type
        self.declaredType = declaredType
        self.originalName = originalName
        self.name = name
        self.kind = .file
        self.size = 0
        self.hash = ContentHash(ContentHash.preferredAlgorithm, hexadecimal: String(repeating: "0", count: 64))
        self.text = text
        self.title = title
        self.url = url
        self.previews = []
        self.source = source
    }

    private enum CodingKeys: String, CodingKey {
        case id, received, host, type, declaredType, originalName, name, kind, size, hash, text, title, url, previews, source
        /// Where inboxes before `hash` kept a SHA-256.
        case sha256
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        received = try container.decode(Date.self, forKey: .received)
        host = try container.decodeIfPresent(String.self, forKey: .host)
        type = try container.decode(String.self, forKey: .type)
        declaredType = try container.decodeIfPresent(String.self, forKey: .declaredType)
        originalName = try container.decodeIfPresent(String.self, forKey: .originalName)
        name = try container.decode(String.self, forKey: .name)
        kind = try container.decode(Kind.self, forKey: .kind)
        size = try container.decode(Int64.self, forKey: .size)
        if let legacy = try container.decodeIfPresent(String.self, forKey: .sha256), !container.contains(.hash) {
            guard let hash = ContentHash("sha256:" + legacy) else {
                throw DecodingError.dataCorruptedError(forKey: .sha256, in: container, debugDescription: "not a SHA-256 in hexadecimal: \(legacy)")
            }
            self.hash = hash
        } else {
            hash = try container.decode(ContentHash.self, forKey: .hash)
        }
        text = try container.decodeIfPresent(String.self, forKey: .text)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        previews = try container.decode([Preview].self, forKey: .previews)
        source = try container.decodeIfPresent(Source.self, forKey: .source)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(received, forKey: .received)
        try container.encodeIfPresent(host, forKey: .host)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(declaredType, forKey: .declaredType)
        try container.encodeIfPresent(originalName, forKey: .originalName)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .kind)
        try container.encode(size, forKey: .size)
        try container.encode(hash, forKey: .hash)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encode(previews, forKey: .previews)
        try container.encodeIfPresent(source, forKey: .source)
    }
}
