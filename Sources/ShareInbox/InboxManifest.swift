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
    /// The SHA-256 of the file, or of the tree (see `SHA256Hasher.hash(treeAt:)`), in hexadecimal.
    public var sha256: String
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
        self.sha256 = ""
        self.text = text
        self.title = title
        self.url = url
        self.previews = []
        self.source = source
    }
}
