public import Foundation
import SharingSystem

/// A delivered item: its directory, holding `manifest.json`, `payload/` and, when there are previews, `previews/`.
public struct InboxItem: Sendable, Equatable {
    public enum State: String, Sendable, Codable {
        /// In `new/`, waiting to be claimed.
        case pending
        /// In `cur/`, claimed by a reader.
        case claimed
    }

    public let id: String
    public let state: State
    /// The item's directory.
    public let url: URL
    public let manifest: InboxManifest

    /// The payload: a file, or the root of a directory tree.
    public var payloadURL: URL { url.appendingPathComponent("payload").appendingPathComponent(manifest.name) }

    /// The URL of one of the manifest's previews.
    public func previewURL(_ preview: InboxManifest.Preview) -> URL {
        url.appendingPathComponent("previews").appendingPathComponent(preview.name)
    }

    /// Most bytes a manifest may have: it holds metadata and the shared text, never the payload.
    static let maximumManifestSize = 4 << 20

    init(id: String, state: State, url: URL, manifest: InboxManifest) {
        self.id = id
        self.state = state
        self.url = url
        self.manifest = manifest
    }

    /// Reads the item in `directory`, whose name is its identifier. A link in its place is no item: whoever
    /// can write the inbox (an extension, in its app group) could otherwise point one anywhere.
    init(directory: URL, state: State) throws(InboxError) {
        let kind = try InboxError.wrap { () throws(SystemError) in try FileSystem.status(directory, followingLinks: false)?.kind }
        guard kind == .directory else {
            throw InboxError(.damagedManifest, "\(directory.path) is not an item's directory", path: directory.path)
        }
        let file = directory.appending(component: "manifest.json")
        let data = try InboxError.wrap { () throws(SystemError) in
            try OpenFile.reading(file, followingLinks: false).readAll(limit: Self.maximumManifestSize)
        }
        do {
            manifest = try InboxManifest.decoder.decode(InboxManifest.self, from: data)
        } catch {
            throw InboxError(.damagedManifest, "\(file.path) is not an inbox manifest: \(error)", path: file.path)
        }
        self.id = directory.lastPathComponent
        self.state = state
        self.url = directory
    }

    /// Whether the payload on disk is what the manifest says: its size and its hash, by the manifest's
    /// algorithm (items written with SHA-256 still verify).
    public func verify() throws(InboxError) -> Bool {
        let payload = payloadURL
        return try InboxError.wrap { () throws(SystemError) -> Bool in
            let status = try FileSystem.status(payload, followingLinks: false)
            switch manifest.kind {
            case .file:
                guard let status, status.kind == .regular, status.size == manifest.size else { return false }
                return try ContentHash.of(fileAt: payload, manifest.hash.algorithm) == manifest.hash
            case .directory:
                guard status?.kind == .directory, try TreeCopier.size(of: payload) == manifest.size else { return false }
                return try ContentHash.of(treeAt: payload, manifest.hash.algorithm) == manifest.hash
            }
        }
    }
}

extension InboxManifest {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InternetTime.string(from: date))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = InternetTime.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a time as YYYY-MM-DDThh:mm:ss.sssZ: \(text)")
            }
            return date
        }
        return decoder
    }()
}
