#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSharingSystem

/// The one copy engine: a regular file's bytes into a new file, in the kernel where it can
/// (`copy_file_range`, then `sendfile`), else through one bounded buffer. Never holds the file in memory.
package enum FileCopier {
    /// Bytes moved per kernel call, and so how often progress is reported and cancellation checked.
    package static let chunkSize = 8 << 20
    /// The buffer of the read/write fallback.
    package static let bufferSize = 256 << 10

    /// How the bytes moved, for tests and benchmarks.
    package enum Method: Sendable, Equatable {
        case copyFileRange, sendfile, readWrite
    }

    package struct Result: Sendable, Equatable {
        package var bytes: Int64
        package var method: Method
    }

    /// Copies the regular file at `source` to a new file at `destination`.
    ///
    /// - Parameters:
    ///   - followSymlinks: whether `source` may be a symbolic link to the file (it never may be anything
    ///     but a regular file: a FIFO or a device is refused, never read from, so nothing can hang here).
    ///   - durable: flush the new file to stable storage before returning.
    ///   - forceBuffered: use the read/write path (for tests and benchmarks).
    ///   - progress: called with the bytes copied so far after each chunk; returning `false` cancels.
    /// - Throws: `FileSystemError`; the destination is removed on any failure or cancellation.
    @discardableResult
    package static func copyFile(
        from source: String, to destination: String, followSymlinks: Bool = true, durable: Bool = false,
        forceBuffered: Bool = false, progress: (Int64) -> Bool = { _ in true }
    ) throws(FileSystemError) -> Result {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        let input = try Syscall.openFile(source, O_RDONLY | O_NONBLOCK | (followSymlinks ? 0 : O_NOFOLLOW))
        defer { Syscall.closeFile(input) }
        let status = try Syscall.status(of: input, path: source)
        guard Syscall.isRegularFile(status) else {
            throw FileSystemError(.wrongKind, operation: "copy", path: source, detail: "not a regular file")
        }
        let output = try Syscall.openFile(destination, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        var finished = false
        defer {
            Syscall.closeFile(output)
            if !finished { try? Syscall.removeFile(destination) }
        }
        let result = try copyBytes(from: input, to: output, sourcePath: source, destinationPath: destination,
                                   forceBuffered: forceBuffered, progress: progress)
        if durable { try Syscall.flush(output, path: destination) }
        finished = true
        return result
    }

    private static func copyBytes(
        from input: Int32, to output: Int32, sourcePath: String, destinationPath: String,
        forceBuffered: Bool, progress: (Int64) -> Bool
    ) throws(FileSystemError) -> Result {
        var total: Int64 = 0
        func report() throws(FileSystemError) {
            if !progress(total) { throw FileSystemError(.cancelled, operation: "copy", path: sourcePath) }
        }
        if !forceBuffered {
            for method in [Method.copyFileRange, .sendfile] {
                while true {
                    let moved = method == .copyFileRange
                        ? csharing_copy_file_range(input, output, chunkSize)
                        : csharing_sendfile(output, input, chunkSize)
                    if moved > 0 {
                        total += Int64(moved)
                        try report()
                        continue
                    }
                    if moved == 0 { return Result(bytes: total, method: method) }
                    let number = errno
                    if number == EINTR || number == EAGAIN { continue }
                    // Not supported for these files (another file system, an old kernel): try the next way,
                    // but only before any byte moved, so that no way repeats another's bytes.
                    let unsupported = [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP, ENOTSUP].contains(number)
                    if unsupported && total == 0 { break }
                    throw FileSystemError(.system(number), operation: "copy", path: "\(sourcePath) to \(destinationPath)")
                }
            }
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try Syscall.check("read", sourcePath) { read(input, buffer.baseAddress, bufferSize) }
            if count == 0 { return Result(bytes: total, method: .readWrite) }
            var written = 0
            while written < count {
                written += try Syscall.check("write", destinationPath) {
                    write(output, buffer.baseAddress! + written, count - written)
                }
            }
            total += Int64(count)
            try report()
        }
    }
}
