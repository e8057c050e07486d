#if os(Linux)
import Glibc
import CSharingSystem
package import Foundation
import PackageSupport

/// Directories watched for writes (inotify): `descriptor` becomes readable when a file beneath them is created,
/// written or moved in, so that whoever meters them measures as the writes happen rather than on a clock.
/// The directories beneath them when the watch starts are watched too, and each directory created or moved in
/// later, itself only (not what a tree moved in already holds), up to `directoryLimit` in all: past these,
/// writes go unseen here, and a meter that also measures on a clock still sees them. Handling an event costs
/// one system call at most, whatever the writer does.
package final class WriteWatch: Sendable {
    /// Readable when something was written since the last `drain()`.
    package let descriptor: CInt
    private let directories = Locked<[CInt: String]>([:])
    private let directoryLimit: Int

    /// Watches `roots` and every directory beneath them (at most `directoryLimit` in all).
    ///
    /// - Throws: `SystemError` when the system gives no watch.
    package init(_ roots: [URL], directoryLimit: Int = 1024) throws(SystemError) {
        descriptor = try Syscall.retrying(.create, "a write watch") { csharing_watch_create() }
        self.directoryLimit = directoryLimit
        for root in roots { add(root.path, recursively: true) }
    }

    deinit {
        Syscall.closeDescriptor(descriptor)
    }

    /// Reads the events waiting, one buffer's worth (watching the directories that appeared); whether there
    /// were any. A writer that never stops cannot hold the caller here: what is left is read at the next call.
    @discardableResult
    package func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        do {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return false }
            var offset = 0
            // Each event: a watch descriptor, a mask, a cookie, a name's length, then the name, NUL-padded.
            while offset + 16 <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                    (bytes.loadUnaligned(fromByteOffset: offset, as: CInt.self), bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                if csharing_watch_is_directory(mask) != 0, let parent = directories.withLock({ $0[watch] }) {
                    add(parent + "/" + String(decoding: nameBytes, as: UTF8.self), recursively: false)
                }
            }
        }
        return true
    }

    /// Watches `path`, and with `recursively` the directories beneath it, while the limit allows.
    private func add(_ path: String, recursively: Bool) {
        guard directories.withLock({ $0.count < directoryLimit }) else { return }
        let watch = csharing_watch_add(descriptor, path)
        guard watch >= 0 else { return }
        directories.withLock { $0[watch] = path }
        guard recursively, let names = try? FileSystem.contentsOfDirectory(URL(fileURLWithPath: path)) else { return }
        for name in names where (try? FileSystem.status(URL(fileURLWithPath: path).appending(component: name), followingLinks: false))??.kind == .directory {
            add(path + "/" + name, recursively: true)
        }
    }
}
#endif
