public import Foundation
import SharingSystem
import PackageSupport
import SystemPackage

/// An item being written under the inbox's `tmp/`. The inbox owns every write into it: copy or write the
/// payload, add previews, then `deliver` — which names the payload, records its kind, size and hash as the
/// inbox measured them, makes the whole item durable and moves it into `new/` in one rename.
///
/// Released undelivered, or `discard`ed, it is removed; if the process dies first, `collectGarbage` removes it.
public final class InboxDelivery: Sendable {
    public let id: String
    /// The item's directory under `tmp/`.
    let directory: URL
    private let inbox: ShareInbox
    private let state = Locked(State())

    private struct State {
        var ended = false
        var payload: Payload?
        var previews: [InboxManifest.Preview] = []
    }

    /// The payload's name until it is delivered, when the manifest's name replaces it.
    static let stagingName = ".incoming"

    private var payloadDirectory: URL { directory.appending(component: "payload", directoryHint: .isDirectory) }
    private var staging: URL { payloadDirectory.appending(component: Self.stagingName) }

    /// The identifiers of this process's deliveries in progress, which garbage collection leaves alone.
    private static let open = Locked(Set<String>())

    static func isOpen(_ id: String) -> Bool {
        open.withLock { $0.contains(id) }
    }

    init(inbox: ShareInbox, id: String) throws(InboxError) {
        self.inbox = inbox
        self.id = id
        self.directory = inbox.tmp.appending(component: id, directoryHint: .isDirectory)
        Self.open.withLock { _ = $0.insert(id) }
        do {
            try FileSystem.createDirectory(directory)
            try FileSystem.createDirectory(payloadDirectory)
        } catch {
            end()
            throw InboxError(error)
        }
    }

    deinit {
        end()
    }

    // MARK: The payload

    /// What a delivery holds as its payload, measured by the inbox as it was written.
    public struct Payload: Sendable, Equatable {
        public var kind: InboxManifest.Kind
        /// Bytes of the file, or of all regular files in the tree.
        public var size: Int64
        /// The hash of the file, or of the tree (see `InboxManifest.hash`).
        public var hash: ContentHash
        /// What a tree copy left out and why (links leading out of it, devices).
        public var leftOut: [String]
    }

    /// A file or directory to copy in, opened (a file) or checked (a directory) before anything is copied,
    /// so that a caller can refuse it by its kind and size — and what was measured is what is copied.
    public struct Source: Sendable {
        public let kind: InboxManifest.Kind
        /// Bytes of the file, or of all regular files in the tree.
        public let size: Int64
        let url: URL
        let file: OpenFile?
    }

    /// Opens what `url` names (following a link at its end) as a payload to copy: a regular file or a
    /// directory, nothing else (a FIFO or device is refused without reading it).
    ///
    /// - Throws: `InboxError` with `.sourceMissing`, `.sourceUnreadable`, `.sourceNotAFile`, or
    ///   `.fileSystem` for anything else the system refused.
    public func openSource(_ url: URL) throws(InboxError) -> Source {
        let file: OpenFile, status: FileStatus
        do throws(SystemError) {
            file = try OpenFile.reading(url, regularOnly: false)
            status = try file.status()
        } catch {
            switch error.code {
            case .system(.noSuchFileOrDirectory), .system(.notDirectory):
                throw InboxError(.sourceMissing, "\(url.path) does not exist", path: url.path, underlying: error)
            case .system(.permissionDenied), .system(.notPermitted):
                throw InboxError(.sourceUnreadable, "\(url.path) cannot be read here", path: url.path, underlying: error)
            default:
                throw InboxError(error)
            }
        }
        switch status.kind {
        case .regular:
            return Source(kind: .file, size: status.size, url: url, file: file)
        case .directory:
            return Source(kind: .directory, size: try InboxError.wrap { () throws(SystemError) in try TreeCopier.size(of: url) }, url: url, file: nil)
        case .symbolicLink, .other:
            throw InboxError(.sourceNotAFile, "\(url.path) is neither a regular file nor a directory", path: url.path)
        }
    }

    /// Copies a source in as the payload, hashing it as it is written, and replacing any payload before it.
    /// A large file is flushed to disk as it is copied, the flush overlapping the hash.
    ///
    /// Blocks until done: call it where a host's file is valid, inside the load's completion handler.
    ///
    /// - Parameter progress: told the bytes copied so far; returning `false` cancels (`.cancelled`).
    public func copyPayload(from source: Source, progress: (Int64) -> Bool = { _ in true }) throws(InboxError) -> Payload {
        try checkOpen()
        removePayload()
        let payload = try InboxError.wrap { () throws(SystemError) -> Payload in
            guard let file = source.file else {
                let result = try TreeCopier.copyTree(from: source.url, to: staging, progress: progress)
                return Payload(kind: .directory, size: result.bytes, hash: try ContentHash.of(treeAt: staging),
                               leftOut: result.skipped.map { "left out \($0.path): \($0.reason)" })
            }
            let hasher = ContentHasher()
            let large = source.size > Int64(FileCopier.chunkSize)
            let result = try FileCopier.copy(from: file, to: staging, durable: large, progress: progress) { hasher.update($0) }
            return Payload(kind: .file, size: result.bytes, hash: hasher.finalize(), leftOut: [])
        }
        state.withLock { $0.payload = payload }
        return payload
    }

    /// Writes bytes as the payload, replacing any payload before it.
    public func writePayload(_ data: Data) throws(InboxError) -> Payload {
        try checkOpen()
        removePayload()
        try InboxError.wrap { () throws(SystemError) in try OpenFile.creating(staging).write(data) }
        let hasher = ContentHasher()
        data.withUnsafeBytes { hasher.update($0) }
        let payload = Payload(kind: .file, size: Int64(data.count), hash: hasher.finalize(), leftOut: [])
        state.withLock { $0.payload = payload }
        return payload
    }

    /// Up to `count` bytes from the start of the payload file (fewer when it is shorter), to sniff or parse;
    /// empty for a directory.
    public func payloadPrefix(_ count: Int) throws(InboxError) -> [UInt8] {
        guard let payload = state.withLock({ $0.payload }) else { throw InboxError(.noPayload, "the delivery \(id) has no payload yet") }
        guard payload.kind == .file else { return [] }
        return try InboxError.wrap { () throws(SystemError) in
            try OpenFile.reading(staging, followingLinks: false).bytes(at: 0, count: min(count, Int(payload.size)))
        }
    }

    /// Where the payload is until it is delivered, for reading it (to make previews); `nil` before there is one.
    public var payloadURL: URL? {
        state.withLock { $0.payload == nil ? nil : staging }
    }

    /// Removes the payload, to try another way of receiving it.
    public func removePayload() {
        state.withLock { $0.payload = nil }
        try? FileSystem.removeTree(staging)
    }

    // MARK: Previews

    /// Makes previews of the payload: `make` writes image files into the directory it is given and returns
    /// what it wrote. It runs on a thread for blocking work, never on Swift concurrency's few. The inbox
    /// records each preview that is a regular file of a plain name in that directory.
    ///
    /// - Throws: `InboxError` when the directory cannot be made, a preview is not there, or `make` threw
    ///   (its error is rethrown unchanged).
    public func addPreviews(_ make: @escaping @Sendable (_ payload: URL, _ directory: URL) throws -> [InboxManifest.Preview]) async throws -> [InboxManifest.Preview] {
        try checkOpen()
        let previews = directory.appending(component: "previews", directoryHint: .isDirectory)
        guard let payload = payloadURL else { throw InboxError(.noPayload, "the delivery \(id) has no payload to preview") }
        let made = try await BlockingThreads.run { () throws -> [InboxManifest.Preview] in
            try InboxError.wrap { () throws(SystemError) in
                if try FileSystem.status(previews, followingLinks: false) == nil { try FileSystem.createDirectory(previews) }
            }
            let made = try make(payload, previews)
            for preview in made {
                guard Self.isPlainName(preview.name) else {
                    throw InboxError(.invalidName, "the preview name \(preview.name.debugDescription) is not a plain file name")
                }
                let file = previews.appending(component: preview.name)
                guard try InboxError.wrap({ () throws(SystemError) in try FileSystem.status(file, followingLinks: false)?.kind == .regular }) else {
                    throw InboxError(.noPayload, "no preview file named \(preview.name)", path: file.path)
                }
            }
            return made
        }
        state.withLock { $0.previews += made }
        return made
    }

    // MARK: Ending

    /// Removes the item (nothing once it is delivered).
    public func discard() {
        end()
    }

    private func checkOpen() throws(InboxError) {
        if state.withLock({ $0.ended }) { throw InboxError(.deliveryEnded, "the delivery \(id) has already ended", path: directory.path) }
    }

    private func end() {
        let first = state.withLock { state -> Bool in
            defer { state.ended = true }
            return !state.ended
        }
        guard first else { return }
        try? FileSystem.removeTree(directory)
        Self.open.withLock { _ = $0.remove(id) }
    }

    /// Names the payload as the manifest says, writes the manifest with what the inbox measured (identifier,
    /// time, kind, size, hash, previews), makes the whole item durable, and moves it into `new/` in one
    /// rename. The work runs on a thread for blocking work.
    ///
    /// - Throws: `InboxError` (`.noPayload`, `.invalidName`, `.fileSystem`, `.deliveryEnded`); the item is
    ///   then removed.
    public func deliver(_ manifest: InboxManifest) async throws(InboxError) -> InboxItem {
        try checkOpen()
        do {
            let item = try await BlockingThreads.run { () throws(InboxError) in try self.write(manifest) }
            state.withLock { $0.ended = true }
            Self.open.withLock { _ = $0.remove(id) }
            return item
        } catch {
            end()
            throw error
        }
    }

    private func write(_ manifest: InboxManifest) throws(InboxError) -> InboxItem {
        guard Self.isPlainName(manifest.name) else {
            throw InboxError(.invalidName, "the payload name \(manifest.name.debugDescription) is not a plain file name")
        }
        let (payload, previews) = state.withLock { ($0.payload, $0.previews) }
        guard let payload else { throw InboxError(.noPayload, "the delivery \(id) has no payload", path: payloadDirectory.path) }
        var manifest = manifest
        manifest.id = id
        manifest.received = InternetTime.now()
        manifest.kind = payload.kind
        manifest.size = payload.size
        manifest.hash = payload.hash
        manifest.previews = previews
        let data: Data
        do {
            data = try InboxManifest.encoder.encode(manifest)
        } catch {
            throw InboxError(.damagedManifest, "cannot encode the manifest: \(error)")
        }
        let delivered = inbox.new.appending(component: id, directoryHint: .isDirectory)
        try InboxError.wrap { () throws(SystemError) in
            try FileSystem.renameNoReplace(staging, to: payloadDirectory.appending(component: manifest.name))
            let file = try OpenFile.creating(directory.appending(component: "manifest.json"))
            try file.write(data)
            try FileSystem.flushTree(directory)
            try FileSystem.renameNoReplace(directory, to: delivered)
            // Only new/ is flushed: should a crash undo the removal from tmp/ and not the arrival in new/
            // (a file system that does not journal renames), garbage collection removes the leftover.
            try FileSystem.flushDirectory(inbox.new)
        }
        return InboxItem(id: id, state: .pending, url: delivered, manifest: manifest)
    }

    /// A name that stays in its directory: not empty, `.` or `..`, no `/` or NUL, at most 255 bytes.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0") && name.utf8.count <= 255
            && name != stagingName
    }
}
