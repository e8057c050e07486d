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

    /// Removes a file, a link or a whole tree (links are removed, never followed); nothing there is no error.
    package static func removeTree(_ url: URL) throws(SystemError) {
        guard let status = try status(url, followingLinks: false) else { return }
        if status.kind == .directory {
            for name in try contentsOfDirectory(url) { try removeTree(url.appending(component: name)) }
            let path = url.path
            try Syscall.retrying(.remove, path) { rmdir(path) }
        } else {
            do {
                try removeFile(url)
            } catch where error.code == .system(.noSuchFileOrDirectory) {
                return
            }
        }
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
