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

/// An open file, closed when released. Every read and write of a file's bytes in the project goes through one.
///
/// Files are opened close-on-exec and, for reading, non-blocking, so that opening a FIFO a host named
/// cannot hang: it is opened, found not to be a regular file, and refused.
package final class OpenFile: Sendable {
    package let descriptor: CInt
    /// The path it was opened by, for errors.
    package let path: String

    private init(descriptor: CInt, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        Syscall.closeDescriptor(descriptor)
    }

    /// Takes ownership of a descriptor this process was given (received from another process, or made by
    /// the layer); `path` names it in errors.
    package static func adopting(_ descriptor: CInt, path: String) -> OpenFile {
        OpenFile(descriptor: descriptor, path: path)
    }

    /// Opens a file for reading.
    ///
    /// - Parameters:
    ///   - followingLinks: whether the path's last component may be a symbolic link.
    ///   - regularOnly: refuse anything but a regular file (`SystemError.Code.wrongKind`).
    package static func reading(_ url: URL, followingLinks: Bool = true, regularOnly: Bool = true) throws(SystemError) -> OpenFile {
        let path = url.path
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW)
        let file = OpenFile(descriptor: try Syscall.retrying(.open, path) { open(path, flags) }, path: path)
        if regularOnly { _ = try file.regularFileStatus(for: .read) }
        return file
    }

    /// Opens `url` as a name only (`O_PATH`): its status and file system can be read, its bytes cannot, and
    /// opening it has no effect on it. A FIFO opened for reading, even for a moment, is a reader: a writer
    /// waiting for one would start writing, and get SIGPIPE when that reader closed.
    package static func naming(_ url: URL) throws(SystemError) -> OpenFile {
        let path = url.path
        return OpenFile(descriptor: try Syscall.retrying(.open, path) { csharing_open_name(path) }, path: path)
    }

    /// The path the file is open at now, as the system names it, when it still names this very file (its device
    /// and inode): how a file a trusted peer passed is handed over by its path.
    package var currentPath: URL? {
        guard let path = try? FileSystem.destinationOfSymbolicLink(URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")), path.hasPrefix("/"),
              let given = try? status(), let named = try? FileSystem.status(URL(fileURLWithPath: path)),
              named.inode == given.inode, named.device == given.device else { return nil }
        return URL(fileURLWithPath: path, isDirectory: given.kind == .directory)
    }

    /// How a descriptor this process was given may be used: for reading, or only for writing, or not at all
    /// (`O_PATH`, which names a file without granting access to its bytes).
    package enum Access: Sendable, Equatable {
        case readable, writeOnly, pathOnly
    }

    /// How the descriptor was opened: what it grants, not what the file's permissions would.
    package var access: Access {
        switch csharing_descriptor_access(descriptor) {
        case 0: .readable
        case 1: .writeOnly
        default: .pathOnly
        }
    }

    /// Creates a new file for writing; fails with `.fileExists` when something is there.
    package static func creating(_ url: URL, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws(SystemError) -> OpenFile {
        let path = url.path
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        return OpenFile(descriptor: try Syscall.retrying(.create, path) { open(path, flags, permissions.rawValue) }, path: path)
    }

    /// Opens a file to replace what it holds, creating it if need be: a cgroup's control file, where each
    /// write is one command, or a regular file standing in for one.
    package static func replacing(_ url: URL) throws(SystemError) -> OpenFile {
        let path = url.path
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        return OpenFile(descriptor: try Syscall.retrying(.open, path) { open(path, flags, 0o644) }, path: path)
    }

    /// The file's status (`fstat`).
    package func status() throws(SystemError) -> FileStatus {
        var status = stat()
        try Syscall.retrying(.inspect, path) { fstat(descriptor, &status) }
        return FileStatus(Stat(rawValue: status))
    }

    /// The kernel's own file system the file is on, when it is one that shows a process's insides or the
    /// system's rather than stored files (`"/proc"`, `"/sys"`, debugfs, cgroups…); `nil` for any other.
    package var pseudoFileSystem: String? {
        let type = csharing_filesystem_type(descriptor)
        guard type >= 0 else { return nil }
        let names: [Int: String] = [0x9fa0: "/proc", 0x6265_6572: "/sys", 0x6462_6720: "debugfs", 0x7363_6673: "securityfs",
                                    0x0027_e0eb: "a cgroup file system", 0x6367_7270: "a cgroup file system", 0xcafe_4a11: "bpffs",
                                    0x7472_6163: "tracefs", 0x6e73_6673: "nsfs"]
        return names[Int(type)]
    }

    /// The status, when this is a regular file; else `wrongKind` for `operation`.
    package func regularFileStatus(for operation: SystemError.Operation) throws(SystemError) -> FileStatus {
        let status = try status()
        guard status.kind == .regular else { throw SystemError(operation, .wrongKind("not a regular file"), path: path) }
        return status
    }

    /// Reads at most `buffer.count` bytes from the current offset; 0 at the end.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try Syscall.retrying(.read, path) { systemRead(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Reads at most `buffer.count` bytes at `offset`, leaving the file's offset alone; 0 at the end.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Int {
        try Syscall.retrying(.read, path) { pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Reads `count` bytes at `offset`, or fewer where the file ends first.
    package func bytes(at offset: Int64, count: Int) throws(SystemError) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = try result.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + Int64(done))
                }
            }.get()
            if got == 0 { break }
            done += got
        }
        result.removeSubrange(done...)
        return result
    }

    /// Writes all of `bytes` at the current offset.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            written += try Syscall.retrying(.write, path) {
                systemWrite(descriptor, bytes.baseAddress! + written, bytes.count - written)
            }
        }
    }

    /// Writes all of `data` at the current offset.
    package func write(_ data: Data) throws(SystemError) {
        try data.withUnsafeBytes { bytes in Result { () throws(SystemError) in try write(bytes) } }.get()
    }

    /// Makes what was written durable (`fsync`).
    package func flush() throws(SystemError) {
        try Syscall.retrying(.flush, path) { fsync(descriptor) }
    }

    /// Reads the file from its current offset to its end, in `chunkSize` pieces handed to `body` in order.
    /// `body` returns `false` to stop (the read then throws `.cancelled`).
    package func forEachChunk(size chunkSize: Int, _ body: (UnsafeRawBufferPointer) -> Bool) throws(SystemError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: buffer)
            if count == 0 { return }
            if !body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { throw SystemError(.read, .cancelled, path: path) }
        }
    }

    /// The most a whole-file read takes into memory unless told otherwise: a larger file is loaded as a file.
    package static let largestReadWhole = 1 << 30

    /// The whole file, read in pieces so that `progress` (bytes so far; `false` cancels) is told as they arrive.
    /// A file larger than `limit`, or that grows beyond it, is refused with `.limitExceeded`.
    package func readAll(limit: Int = OpenFile.largestReadWhole, progress: (Int64) -> Bool = { _ in true }) throws(SystemError) -> Data {
        let size = Int(clamping: try status().size)
        if size > limit { throw SystemError(.read, .limitExceeded("larger than \(limit) bytes"), path: path) }
        var data = Data(count: size)
        var total = 0
        while true {
            if total == data.count { data.count += 256 << 10 }  // the file grew since fstat
            let count = try data.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total..<min(buffer.count, total + FileCopier.chunkSize)]))
                }
            }.get()
            if count == 0 { break }
            total += count
            if total > limit { throw SystemError(.read, .limitExceeded("larger than \(limit) bytes"), path: path) }
            if !progress(Int64(total)) { throw SystemError(.read, .cancelled, path: path) }
        }
        data.count = total
        return data
    }
}

/// The C library's `read` and `write`, named so that `OpenFile`'s own methods do not shadow them.
private func systemRead(_ descriptor: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
