public import Foundation
import SharingFiles

/// A delivered item: its directory, holding `manifest.json`, `payload/` and `previews/`.
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

    init(directory: String, state: State) throws(FileSystemError) {
        let path = directory + "/manifest.json"
        let data = try FileReader.readAll(path) { $0 <= Self.maximumManifestSize }
        let manifest: InboxManifest
        do {
            manifest = try InboxManifest.decoder.decode(InboxManifest.self, from: data)
        } catch {
            throw FileSystemError(.wrongKind, operation: "read", path: path, detail: "not an inbox manifest: \(error)")
        }
        self.id = (directory as NSString).lastPathComponent
        self.state = state
        self.url = URL(fileURLWithPath: directory, isDirectory: true)
        self.manifest = manifest
    }

    /// Whether the payload on disk is what the manifest says: its size and its SHA-256.
    public func verify() throws(InboxError) -> Bool {
        let path = payloadURL.path
        return try InboxError.wrap { () throws -> Bool in
            switch manifest.kind {
            case .file:
                guard let status = try Syscall.linkStatus(path), Syscall.isRegularFile(status), Int64(status.st_size) == manifest.size
                else { return false }
                return try SHA256Hasher.hash(fileAt: path) == manifest.sha256
            case .directory:
                guard let status = try Syscall.linkStatus(path), Syscall.isDirectory(status) else { return false }
                guard TreeCopier.size(of: path) == manifest.size else { return false }
                return try SHA256Hasher.hash(treeAt: path) == manifest.sha256
            }
        }
    }
}

extension InboxManifest {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
