#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif
import CSharingSystem

/// The system calls the project uses, in one place: each retries on EINTR and throws a `FileSystemError`
/// naming the operation and the path.
package enum Syscall {
    package static func message(for number: Int32) -> String {
        String(cString: strerror(number))
    }

    /// Runs a call that returns -1 and sets errno on failure, retrying when a signal interrupted it.
    @discardableResult
    package static func check<T: BinaryInteger>(_ operation: String, _ path: String, _ call: () -> T) throws(FileSystemError) -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let number = errno
            if number == EINTR { continue }
            throw FileSystemError(.system(number), operation: operation, path: path)
        }
    }

    package static func openFile(_ path: String, _ flags: Int32, mode: UInt32 = 0o644) throws(FileSystemError) -> Int32 {
        try check("open", path) { open(path, flags | O_CLOEXEC, mode_t(mode)) }
    }

    package static func closeFile(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    package static func status(of descriptor: Int32, path: String) throws(FileSystemError) -> stat {
        var status = stat()
        try check("inspect", path) { fstat(descriptor, &status) }
        return status
    }

    /// The status of a path itself (a symbolic link is not followed); `nil` when nothing is there.
    package static func linkStatus(_ path: String) throws(FileSystemError) -> stat? {
        try status(path, followingLinks: false)
    }

    /// The status of what a path names, following symbolic links unless told not to; `nil` when nothing is there.
    package static func status(_ path: String, followingLinks: Bool = true) throws(FileSystemError) -> stat? {
        var status = stat()
        while (followingLinks ? stat(path, &status) : lstat(path, &status)) == -1 {
            if errno == EINTR { continue }
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw FileSystemError(.system(errno), operation: "inspect", path: path)
        }
        return status
    }

    package static func flush(_ descriptor: Int32, path: String) throws(FileSystemError) {
        try check("flush", path) { fsync(descriptor) }
    }

    /// Makes a directory's entries (a file created or renamed in it) durable.
    package static func flushDirectory(_ path: String) throws(FileSystemError) {
        let descriptor = try openFile(path, O_RDONLY | O_DIRECTORY)
        defer { closeFile(descriptor) }
        try flush(descriptor, path: path)
    }

    /// Makes everything in a tree durable: each regular file's bytes, then each directory's entries, the
    /// root's last. Links are not followed.
    package static func flushTree(_ root: String) throws(FileSystemError) {
        guard let status = try linkStatus(root) else { throw FileSystemError(.system(ENOENT), operation: "flush", path: root) }
        if isRegularFile(status) {
            let descriptor = try openFile(root, O_RDONLY | O_NOFOLLOW)
            defer { closeFile(descriptor) }
            try flush(descriptor, path: root)
        } else if isDirectory(status) {
            for name in try contentsOfDirectory(root) { try flushTree(root + "/" + name) }
            try flushDirectory(root)
        }
    }

    /// Removes a file, a link or a whole tree (links are removed, never followed); nothing there is no error.
    package static func removeTree(_ path: String) throws(FileSystemError) {
        guard let status = try linkStatus(path) else { return }
        if isDirectory(status) {
            for name in try contentsOfDirectory(path) { try removeTree(path + "/" + name) }
            try check("remove", path) { rmdir(path) }
        } else {
            do {
                try removeFile(path)
            } catch where error.errno == ENOENT {
                return
            }
        }
    }

    /// Sets a path's modification time to now.
    package static func touch(_ path: String) throws(FileSystemError) {
        try check("touch", path) { utimensat(AT_FDCWD, path, nil, 0) }
    }

    /// Whether a process with this identifier exists (it may belong to another user).
    package static func processExists(_ identifier: Int32) -> Bool {
        kill(identifier, 0) == 0 || errno == EPERM
    }

    package static func renameNoReplace(_ from: String, to: String) throws(FileSystemError) {
        try check("rename", "\(from) to \(to)") { csharing_rename_noreplace(AT_FDCWD, from, AT_FDCWD, to) }
    }

    package static func renameReplacing(_ from: String, to: String) throws(FileSystemError) {
        try check("rename", "\(from) to \(to)") { rename(from, to) }
    }

    package static func removeFile(_ path: String) throws(FileSystemError) {
        try check("remove", path) { unlink(path) }
    }

    package static func makeDirectory(_ path: String, mode: UInt32 = 0o755) throws(FileSystemError) {
        try check("create directory", path) { mkdir(path, mode_t(mode)) }
    }

    package static func makeSymbolicLink(_ target: String, at path: String) throws(FileSystemError) {
        try check("create link", path) { symlink(target, path) }
    }

    package static func readSymbolicLink(_ path: String) throws(FileSystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try check("read link", path) { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in a directory but `.` and `..`, in byte order.
    package static func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else { throw FileSystemError(.system(errno), operation: "list", path: path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Whether the calling process may read the file at a path (access(2), R_OK).
    package static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// Creates a new directory with a unique name (mkdtemp), readable only by this user.
    package static func makeUniqueDirectory(in parent: String, prefix: String) throws(FileSystemError) -> String {
        let directory = parent.hasSuffix("/") ? parent : parent + "/"
        let text: String = directory + prefix + "XXXXXX"
        var template: [CChar] = text.utf8.map { CChar(bitPattern: $0) }
        template.append(0)
        guard mkdtemp(&template) != nil else {
            throw FileSystemError(.system(errno), operation: "create a temporary directory in", path: parent)
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func isRegularFile(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFREG }
    package static func isDirectory(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFDIR }
    package static func isSymbolicLink(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFLNK }
}
