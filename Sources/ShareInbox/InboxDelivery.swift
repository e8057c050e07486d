public import Foundation
import SharingFiles

/// An item being written under the inbox's `tmp/`: put the payload in `payloadDirectory` (one file or one
/// directory, named as the manifest says) and any previews in `makePreviewsDirectory()`, then `deliver` it.
/// Released undelivered, or `discard`ed, it is removed; if the process dies first, `collectGarbage` removes it.
public final class InboxDelivery: Sendable {
    public let id: String
    /// The item's directory under `tmp/`.
    public let directory: URL
    private let inbox: ShareInbox
    private let state = NSLock()
    private nonisolated(unsafe) var ended = false

    public var payloadDirectory: URL { directory.appendingPathComponent("payload", isDirectory: true) }

    /// The item's `previews/` directory, made when first asked for (most items have none).
    public func makePreviewsDirectory() throws(InboxError) -> URL {
        let previews = directory.appendingPathComponent("previews", isDirectory: true)
        try InboxError.wrap {
            if try Syscall.linkStatus(previews.path) == nil { try Syscall.makeDirectory(previews.path, mode: 0o700) }
        }
        return previews
    }

    /// The identifiers of this process's deliveries in progress, which garbage collection leaves alone.
    private nonisolated(unsafe) static var open: Set<String> = []
    private static let openLock = NSLock()

    static func isOpen(_ id: String) -> Bool {
        openLock.withLock { open.contains(id) }
    }

    init(inbox: ShareInbox, id: String) throws(InboxError) {
        self.inbox = inbox
        self.id = id
        self.directory = URL(fileURLWithPath: inbox.tmp + "/" + id, isDirectory: true)
        Self.openLock.withLock { _ = Self.open.insert(id) }
        do {
            try Syscall.makeDirectory(directory.path, mode: 0o700)
            try Syscall.makeDirectory(payloadDirectory.path, mode: 0o700)
        } catch {
            end()
            throw InboxError(error)
        }
    }

    deinit {
        end()
    }

    /// Removes the item (nothing once it is delivered).
    public func discard() {
        end()
    }

    private func end() {
        let first = state.withLock { () -> Bool in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        try? Syscall.removeTree(directory.path)
        Self.openLock.withLock { _ = Self.open.remove(id) }
    }

    /// Writes the manifest (with this item's identifier and the time), makes the whole item durable, and
    /// moves it into `new/` in one rename.
    ///
    /// - Throws: `InboxError` when the payload the manifest names is not there, or writing fails; the
    ///   item is then removed.
    public func deliver(_ manifest: InboxManifest) throws(InboxError) -> InboxItem {
        let alreadyEnded = state.withLock { ended }
        guard !alreadyEnded else { throw InboxError("the delivery \(id) has already ended", path: directory.path) }
        do {
            let item = try write(manifest)
            state.withLock { ended = true }
            Self.openLock.withLock { _ = Self.open.remove(id) }
            return item
        } catch {
            end()
            throw error
        }
    }

    private func write(_ manifest: InboxManifest) throws(InboxError) -> InboxItem {
        guard !manifest.name.isEmpty, manifest.name != ".", manifest.name != "..", !manifest.name.contains("/"), !manifest.name.contains("\0") else {
            throw InboxError("the payload name \(manifest.name.debugDescription) is not a plain file name", path: nil)
        }
        let payload = payloadDirectory.path + "/" + manifest.name
        let payloadStatus = try InboxError.wrap { try Syscall.linkStatus(payload) }
        guard let payloadStatus else { throw InboxError("no payload named \(manifest.name)", path: payloadDirectory.path) }
        let kind: InboxManifest.Kind = Syscall.isDirectory(payloadStatus) ? .directory : .file
        guard kind == manifest.kind, kind == .directory || Syscall.isRegularFile(payloadStatus) else {
            throw InboxError("the payload \(manifest.name) is not the \(manifest.kind.rawValue) the manifest says", path: payload)
        }
        var manifest = manifest
        manifest.id = id
        manifest.received = InternetTime.now()
        let data: Data
        do {
            data = try InboxManifest.encoder.encode(manifest)
        } catch {
            throw InboxError("cannot encode the manifest: \(error)", path: nil)
        }
        let manifestPath = directory.path + "/manifest.json"
        guard FileManager.default.createFile(atPath: manifestPath, contents: data) else {
            throw InboxError("cannot write the manifest", path: manifestPath)
        }
        let delivered = inbox.new + "/" + id
        try InboxError.wrap {
            try Syscall.flushTree(directory.path)
            try Syscall.renameNoReplace(directory.path, to: delivered)
            // Only new/ is flushed: should a crash undo the removal from tmp/ and not the arrival in new/
            // (a file system that does not journal renames), garbage collection removes the leftover.
            try Syscall.flushDirectory(inbox.new)
        }
        return InboxItem(id: id, state: .pending, url: URL(fileURLWithPath: delivered, isDirectory: true), manifest: manifest)
    }
}
