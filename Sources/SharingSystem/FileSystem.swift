#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSharingSystem
package import Foundation
package import SystemPackage

/// Operations on paths: status, directories, renames, removal, links and durability.
package enum FileSystem {
    /// The status of what a path names, following a symbolic link at its end unless told not to; `nil` when
    /// nothing is there.
    package static func status(_ url: URL, followingLinks: Bool = true) throws(SystemError) -> FileStatus? {
        let path = url.path
        var status = stat()
        while (followingLinks ? stat(path, &status) : lstat(path, &status)) == -1 {
            let number = Errno.last
            if number == .interrupted { continue }
            if number == .noSuchFileOrDirectory || number == .notDirectory { return nil }
            throw SystemError(.inspect, .system(number), path: path)
        }
        return FileStatus(Stat(rawValue: status))
    }

    /// Creates a directory; fails with `.fileExists` when something is there.
    package static func createDirectory(_ url: URL, permissions: FilePermissions = .ownerReadWriteExecute) throws(SystemError) {
        let path = url.path
        try Syscall.retrying(.createDirectory, path) { mkdir(path, permissions.rawValue) }
    }

    /// Creates a directory and any missing parents; what is there already is fine if it is a directory.
    package static func createDirectories(_ url: URL, permissions: FilePermissions = .ownerReadWriteExecute) throws(SystemError) {
        if let status = try status(url) {
            guard status.kind == .directory else { throw SystemError(.createDirectory, .system(.fileExists), path: url.path) }
            return
        }
        let parent = url.deletingLastPathComponent()
        if parent.path != url.path { try createDirectories(parent, permissions: permissions) }
        do {
            try createDirectory(url, permissions: permissions)
        } catch where error.code == .system(.fileExists) {
            // Made by someone else meanwhile: fine if it is a directory.
            guard try status(url)?.kind == .directory else { throw error }
        }
    }

    /// Creates a new directory with a unique name (`mkdtemp`) in `parent`, readable only by this user.
    package static func createUniqueDirectory(in parent: URL, prefix: String) throws(SystemError) -> URL {
        var template = Array((parent.path.hasSuffix("/") ? parent.path : parent.path + "/").utf8CString.dropLast())
        template += Array((prefix + "XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw SystemError(.createDirectory, .system(.last), path: parent.path + "/" + prefix + "XXXXXX")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(filePath: path, directoryHint: .isDirectory)
    }

    /// Renames, failing with `.fileExists` when the destination exists (`renameat2` with `RENAME_NOREPLACE`
    /// on Linux, `renameatx_np` with `RENAME_EXCL` on Darwin).
    package static func renameNoReplace(_ source: URL, to destination: URL) throws(SystemError) {
        let from = source.path, to = destination.path
        try Syscall.retrying(.rename, from, destination: to) { csharing_rename_noreplace(AT_FDCWD, from, AT_FDCWD, to) }
    }

    /// Removes a file or a link; `nil`'s worth (nothing there) is `.noSuchFileOrDirectory`.
    package static func removeFile(_ url: URL) throws(SystemError) {
        let path = url.path
        try Syscall.retrying(.remove, path) { unlink(path) }
    }

    /// Removes an empty directory (or a cgroup, whose control files are not files to remove).
    package static func removeDirectory(_ url: URL) throws(SystemError) {
        let path = url.path
        try Syscall.retrying(.remove, path) { rmdir(path) }
    }

    /// Removes a file, a link or a whole tree; nothing there is no error.
    ///
    /// Only the path's parent is resolved as a path. Below it, every step is taken from a directory's
    /// descriptor by one name, never following a link (`openat` with `O_NOFOLLOW`, `unlinkat`), and a climb back
    /// up is checked against the directory it left: a directory swapped for a link meanwhile, by a process still
    /// running in the tree, leads nowhere outside it. Descriptors stay constant however deep the tree.
    package static func removeTree(_ url: URL) throws(SystemError) {
        let parentPath = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let parent = try Syscall.retrying(.open, parentPath) { open(parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { Syscall.closeDescriptor(parent) }
        try removeEntry(Array(name.utf8CString), in: parent, path: url.path)
    }

    /// A directory on the way down: its name in its parent, the parent's identity (to check the climb back),
    /// and the entries of it read but not yet removed.
    private struct Level {
        /// Its name as the file system has it, bytes and a terminating zero.
        var name: [CChar]
        var parent: (device: UInt64, inode: UInt64)
        var pending: [[CChar]] = []
    }

    private static func identity(_ descriptor: CInt) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// How many of a directory's names are read at a time while it is emptied.
    static let removalBatch = 65_536

    /// Removes the entry `name` of the directory `directory`, a whole tree when it is a directory.
    ///
    /// Each directory is read once through, a batch of names at a time, and each name removed as it comes
    /// (a directory's from below first): linear in the tree's size. When a batch is done the directory is read
    /// again, to find what was added meanwhile; an empty read ends it.
    private static func removeEntry(_ name: [CChar], in directory: CInt, path: String) throws(SystemError) {
        var status = stat()
        if fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) != 0 {
            if errno == ENOENT { return }
            throw SystemError(.remove, .system(.last), path: path)
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return try removeName(name, in: directory, path: path, directory: false) }
        var current = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if current < 0 {
            // No longer a directory (swapped for a link or a file): it goes as what it is now.
            if errno == ELOOP || errno == ENOTDIR { return try removeName(name, in: directory, path: path, directory: false) }
            if errno == ENOENT { return }
            throw SystemError(.remove, .system(.last), path: path)
        }
        guard let top = identity(directory) else {
            Syscall.closeDescriptor(current)
            throw SystemError(.remove, .system(.last), path: path)
        }
        var levels = [Level(name: name, parent: top)]
        defer { if current >= 0 { Syscall.closeDescriptor(current) } }
        while !levels.isEmpty {
            if levels[levels.count - 1].pending.isEmpty { levels[levels.count - 1].pending = names(in: current, limit: removalBatch).reversed() }
            if let child = levels[levels.count - 1].pending.popLast() {
                var childStatus = stat()
                if fstatat(current, child, &childStatus, AT_SYMLINK_NOFOLLOW) != 0 {
                    if errno == ENOENT { continue }
                    throw SystemError(.remove, .system(.last), path: path)
                }
                guard (childStatus.st_mode & S_IFMT) == S_IFDIR else {
                    try removeName(child, in: current, path: path, directory: false)
                    continue
                }
                let below = openat(current, child, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if below < 0 {
                    if errno == ELOOP || errno == ENOTDIR { try removeName(child, in: current, path: path, directory: false); continue }
                    if errno == ENOENT { continue }
                    throw SystemError(.remove, .system(.last), path: path)
                }
                guard let here = identity(current) else {
                    Syscall.closeDescriptor(below)
                    throw SystemError(.remove, .system(.last), path: path)
                }
                Syscall.closeDescriptor(current)
                current = below
                levels.append(Level(name: child, parent: here))
                continue
            }
            // Empty: climb to the parent it was opened from, and remove it there.
            let level = levels.removeLast()
            let up: CInt
            if levels.isEmpty {
                up = fcntl(directory, F_DUPFD_CLOEXEC, 0)
            } else {
                up = openat(current, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard up >= 0 else { throw SystemError(.remove, .system(.last), path: path) }
            Syscall.closeDescriptor(current)
            current = up
            guard let reached = identity(current), reached == level.parent else {
                // Moved elsewhere meanwhile: what is left of the tree stays rather than risk a wrong directory.
                throw SystemError(.remove, .changed("a directory of the tree moved while it was being removed"), path: path)
            }
            do {
                try removeName(level.name, in: current, path: path, directory: true)
            } catch where error.code == .system(.directoryNotEmpty) {
                // Something was added meanwhile: go down again.
                let again = openat(current, level.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard again >= 0, let here = identity(current) else { throw error }
                Syscall.closeDescriptor(current)
                current = again
                levels.append(Level(name: level.name, parent: here))
            }
        }
    }

    /// Removes `name` in `directory`: a file or link, or an empty directory; nothing there is no error.
    private static func removeName(_ name: [CChar], in directory: CInt, path: String, directory isDirectory: Bool) throws(SystemError) {
        if unlinkat(directory, name, isDirectory ? AT_REMOVEDIR : 0) == 0 || errno == ENOENT { return }
        throw SystemError(.remove, .system(.last), path: path + "/" + String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Up to `limit` entries of a directory but `.` and `..`, read from its start, each as bytes and a
    /// terminating zero.
    private static func names(in directory: CInt, limit: Int) -> [[CChar]] {
        let copy = fcntl(directory, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { Syscall.closeDescriptor(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [[CChar]] = []
        while names.count < limit, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in bytes.prefix { $0 != 0 }.map { CChar(bitPattern: $0) } }
            if name != [46] && name != [46, 46] { names.append(name + [0]) }
        }
        return names
    }

    /// What a tree's files take on disk, as far as it was walked.
    package struct DiskUsage: Sendable, Equatable {
        /// The allocated blocks of every entry walked, in bytes.
        package var bytes: Int
        /// The walk stopped at a limit (more entries than `entryLimit`, deeper than `depthLimit`): there is more
        /// than `bytes`.
        package var reachedLimit: Bool
    }

    /// The bytes each tree's entries take on disk (allocated blocks), walked beneath its directory's descriptor
    /// by one name at a time, never following a link: at most `entryLimit` entries, at most `depthLimit`
    /// directories deep. Reaching either limit is said (`reachedLimit`), never hidden. Each file is counted
    /// once, in the first tree it is met in, by its device and inode: a hard link is not a second file, and
    /// neither is a file renamed from a directory already walked to one walked later.
    package static func diskUsage(of urls: [URL], entryLimit: Int, depthLimit: Int = 256) -> [DiskUsage] {
        struct FileIdentity: Hashable { var device: UInt64, inode: UInt64 }
        var counted: Set<FileIdentity> = []
        return urls.map { url in
            var usage = DiskUsage(bytes: 0, reachedLimit: false)
            usage.reachedLimit = !walk(url, entryLimit: entryLimit, depthLimit: depthLimit) { _, status in
                guard counted.insert(FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))).inserted else { return }
                usage.bytes += Int(status.st_blocks) * 512
            }
            return usage
        }
    }

    /// The regular files beneath a directory, as paths relative to it in byte order (of the first `entryLimit`
    /// entries walked), walked as `diskUsage` walks, never following a link.
    package static func regularFiles(beneath url: URL, entryLimit: Int) -> [String] {
        var found: [String] = []
        walk(url, entryLimit: entryLimit, depthLimit: 64) { path, status in
            if (status.st_mode & S_IFMT) == S_IFREG { found.append(path) }
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The time the kernel stamps a file's change with now (the coarse real-time clock), in nanoseconds since
    /// 1970: a file changed from now on has a status-change time no earlier than this, whatever its own times say.
    package static func changeClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Whether a file (not a directory) beneath `url` was created, written or moved in at `since` or later (its
    /// status-change time, which no call but the kernel's sets), or the walk reached `entryLimit` or 64
    /// directories deep, past which it cannot say.
    package static func holdsChange(beneath url: URL, since: Int64, entryLimit: Int) -> Bool {
        var changed = false
        let whole = walk(url, entryLimit: entryLimit, depthLimit: 64) { _, status in
            guard (status.st_mode & S_IFMT) != S_IFDIR else { return }
            let time = status.st_ctim
            if Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) >= since { changed = true }
        }
        return changed || !whole
    }

    /// The regular files beneath `url` (not following links) of `size` bytes changed at or after `since` (the
    /// kernel's change clock, as `holdsChange` reads it): their paths relative to `url`, from at most
    /// `entryLimit` entries.
    package static func changedFiles(beneath url: URL, since: Int64, entryLimit: Int, size: Int) -> [String] {
        var found: [String] = []
        walk(url, entryLimit: entryLimit, depthLimit: 64) { path, status in
            guard (status.st_mode & S_IFMT) == S_IFREG, status.st_size == size else { return }
            let time = status.st_ctim
            if Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) >= since { found.append(path) }
        }
        return found
    }

    /// Visits the entries beneath `url` (not following links), depth first, each with its path relative to
    /// `url` and its status: at most `entryLimit`, at most `depthLimit` directories deep. Each directory's
    /// names are read once, its stream closed before going deeper: one descriptor held per level. Whether the
    /// walk was whole (no limit reached).
    @discardableResult
    private static func walk(_ url: URL, entryLimit: Int, depthLimit: Int, visit: (String, stat) -> Void) -> Bool {
        let root = open(url.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard root >= 0 else { return true }
        defer { Syscall.closeDescriptor(root) }
        var remaining = entryLimit
        var whole = true
        func enter(_ directory: CInt, _ prefix: String, depth: Int) {
            let batch = names(in: directory, limit: remaining + 1)
            for name in batch {
                guard remaining > 0 else {
                    whole = false
                    return
                }
                remaining -= 1
                var status = stat()
                guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let path = prefix + String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
                visit(path, status)
                guard (status.st_mode & S_IFMT) == S_IFDIR else { continue }
                guard depth < depthLimit else {
                    whole = false
                    continue
                }
                let below = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard below >= 0 else { continue }
                enter(below, path + "/", depth: depth + 1)
                Syscall.closeDescriptor(below)
            }
        }
        enter(root, "", depth: 1)
        return whole
    }

    /// Sets a path's modification time to now.
    package static func touch(_ url: URL) throws(SystemError) {
        let path = url.path
        try Syscall.retrying(.touch, path) { utimensat(AT_FDCWD, path, nil, 0) }
    }

    package static func createSymbolicLink(at url: URL, to target: String) throws(SystemError) {
        let path = url.path
        try Syscall.retrying(.createLink, path) { symlink(target, path) }
    }

    package static func destinationOfSymbolicLink(_ url: URL) throws(SystemError) -> String {
        let path = url.path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try Syscall.retrying(.readLink, path) { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in a directory but `.` and `..`, in byte order.
    package static func contentsOfDirectory(_ url: URL) throws(SystemError) -> [String] {
        let path = url.path
        guard let directory = opendir(path) else { throw SystemError(.list, .system(.last), path: path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Makes a directory's entries (a file created or renamed in it) durable.
    package static func flushDirectory(_ url: URL) throws(SystemError) {
        let path = url.path
        let descriptor = try Syscall.retrying(.open, path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { Syscall.closeDescriptor(descriptor) }
        try Syscall.retrying(.flush, path) { fsync(descriptor) }
    }

    /// Makes everything in a tree durable: each regular file's bytes, then each directory's entries, the
    /// root's last. Links are not followed.
    package static func flushTree(_ root: URL) throws(SystemError) {
        guard let status = try status(root, followingLinks: false) else {
            throw SystemError(.flush, .system(.noSuchFileOrDirectory), path: root.path)
        }
        if status.kind == .regular {
            try OpenFile.reading(root, followingLinks: false).flush()
        } else if status.kind == .directory {
            for name in try contentsOfDirectory(root) { try flushTree(root.appending(component: name)) }
            try flushDirectory(root)
        }
    }

    /// The system's directory for temporary files (`TMPDIR`, else `/tmp`).
    package static var temporaryDirectory: URL {
        URL(filePath: NSTemporaryDirectory(), directoryHint: .isDirectory)
    }
}
