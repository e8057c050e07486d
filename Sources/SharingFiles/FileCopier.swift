#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSharingSystem
import Foundation

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

extension FileCopier {
    /// Copies like `copyFile`, and hashes the new file's bytes while they are written: a second thread reads
    /// the copy just behind the copying (from the page cache) and feeds SHA-256. The kernel copies and
    /// flushes while the hash runs, so on two cores the digest costs little time beyond the copy itself —
    /// and it is the digest of what was written, not of a source that may change meanwhile.
    ///
    /// - Returns: the copy's result and the SHA-256 of the new file, in hexadecimal.
    package static func copyFileHashing(
        from source: String, to destination: String, durable: Bool = false,
        progress: (Int64) -> Bool = { _ in true }
    ) throws(FileSystemError) -> (result: Result, sha256: String) {
        // A file of one chunk or less is copied in one call: hashing it after is as fast as a thread.
        if let status = try Syscall.status(source), Int64(status.st_size) <= Int64(chunkSize) {
            let result = try copyFile(from: source, to: destination, followSymlinks: true, durable: durable, progress: progress)
            return (result, try SHA256Hasher.hash(fileAt: destination))
        }
        let follower = HashFollower(path: destination)
        let thread = Thread { follower.run() }
        thread.stackSize = 256 << 10
        thread.start()
        let result: Result
        do {
            result = try copyFile(from: source, to: destination, followSymlinks: true, durable: durable) { copied in
                follower.publish(copied)
                return progress(copied)
            }
        } catch {
            follower.finish(failed: true)
            _ = follower.wait()
            throw error
        }
        follower.finish(failed: false)
        switch follower.wait() {
        case .success(let digest): return (result, digest)
        case .failure(let error): throw error
        }
    }
}

/// The hashing side of `copyFileHashing`: waits for bytes to be published, reads and hashes them.
private final class HashFollower: @unchecked Sendable {
    private let path: String
    private let condition = NSCondition()
    private var available: Int64 = 0
    private var finished = false
    private var failed = false
    private var outcome: Swift.Result<String, FileSystemError>?
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        self.path = path
    }

    func publish(_ bytes: Int64) {
        condition.withLock {
            available = bytes
            condition.signal()
        }
    }

    func finish(failed: Bool) {
        condition.withLock {
            finished = true
            self.failed = failed
            condition.signal()
        }
    }

    func wait() -> Swift.Result<String, FileSystemError> {
        done.wait()
        return outcome ?? .failure(FileSystemError(.cancelled, operation: "hash", path: path))
    }

    func run() {
        defer { done.signal() }
        var descriptor: Int32 = -1
        defer { if descriptor >= 0 { Syscall.closeFile(descriptor) } }
        var hasher = SHA256Hasher()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SHA256Hasher.readSize, alignment: 64)
        defer { buffer.deallocate() }
        var hashed: Int64 = 0
        while true {
            let (limit, ended, stop) = condition.withLock { () -> (Int64, Bool, Bool) in
                while hashed >= available && !finished { condition.wait() }
                return (available, finished, failed)
            }
            if stop { return }
            if descriptor < 0 {
                do {
                    descriptor = try Syscall.openFile(path, O_RDONLY | O_NOFOLLOW)
                } catch {
                    outcome = .failure(error)
                    return
                }
            }
            while hashed < limit {
                let count = pread(descriptor, buffer.baseAddress, Int(min(Int64(SHA256Hasher.readSize), limit - hashed)), off_t(hashed))
                if count < 0 {
                    if errno == EINTR { continue }
                    outcome = .failure(FileSystemError(.system(errno), operation: "read", path: path))
                    return
                }
                if count == 0 {
                    // Only another writer truncating the new file can make it shorter than what was copied.
                    outcome = .failure(FileSystemError(.wrongKind, operation: "hash", path: path, detail: "the copy shrank while it was hashed"))
                    return
                }
                hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                hashed += Int64(count)
            }
            if ended && hashed >= limit { break }
        }
        outcome = .success(hasher.finalize())
    }
}
