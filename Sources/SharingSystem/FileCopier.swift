package import Foundation
import CSharingSystem
import SystemPackage

/// The one copy engine: a regular file's bytes into a new file, in the kernel where it can, else through one
/// bounded buffer. Never holds a file in memory.
package enum FileCopier {
    /// Bytes moved per kernel call, and so how often progress is reported and cancellation checked.
    package static let chunkSize = 8 << 20
    /// The buffer of the read/write way.
    package static let bufferSize = 256 << 10
    /// The buffer an observed copy is read back through.
    package static let readBackSize = 1 << 20

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
    ///   - followingLinks: whether `source` may be a symbolic link to the file. It is never anything but a
    ///     regular file: a FIFO or a device is refused, never read from, so nothing can hang here.
    ///   - durable: flush the new file to stable storage before returning.
    ///   - forceBuffered: use the read/write way (for tests and benchmarks).
    ///   - progress: told the bytes copied so far after each chunk; returning `false` cancels.
    /// - Throws: `SystemError`; the destination is removed on any failure or cancellation.
    @discardableResult
    package static func copyFile(
        from source: URL, to destination: URL, followingLinks: Bool = true, durable: Bool = false,
        forceBuffered: Bool = false, progress: (Int64) -> Bool = { _ in true }
    ) throws(SystemError) -> Result {
        let input = try OpenFile.reading(source, followingLinks: followingLinks)
        return try copy(from: input, to: destination, durable: durable, forceBuffered: forceBuffered, progress: progress)
    }

    /// Copies an open regular file, from its start, to a new file at `destination`, reading at offsets of its
    /// own: the descriptor's offset, which another holder of it (the process that passed it) may share and move,
    /// is neither used nor moved.
    ///
    /// A source written to while it is copied is refused (`.changed`), the copy removed: its size or its
    /// modification time differs after the copy from before. Not its change time: renaming, linking or
    /// unlinking the file sets that too, and a provider's file may be unlinked by its other holder while it is
    /// copied, its bytes untouched. As fine as the file system's clock: a write in the same tick as the one
    /// before the copy began, not changing the size, goes unseen.
    @discardableResult
    package static func copy(
        from input: OpenFile, to destination: URL, durable: Bool = false, forceBuffered: Bool = false,
        progress: (Int64) -> Bool = { _ in true }
    ) throws(SystemError) -> Result {
        let before = try input.regularFileStatus(for: .copy)
        return try write(destination, durable: durable) { output throws(SystemError) in
            // A durable copy's blocks are reserved at once: ext4 then maps them in one extent, where delayed
            // allocation would map them page by page as write-behind reaches them (Benchmarks/RESULTS.md).
            if durable { csharing_reserve_blocks(output.descriptor, off_t(before.size)) }
            let result = try copyBytes(from: input, to: output, forceBuffered: forceBuffered, writingBehind: durable, progress: progress)
            let after = try input.status()
            guard after.size == before.size && after.modificationTime == before.modificationTime else {
                throw SystemError(.copy, .changed("the file changed while it was copied"), path: input.path, destination: output.path)
            }
            return result
        }
    }

    /// Copies a stream (the reading end of a pipe) to its end into a new file at `destination`; the bytes.
    package static func copyStream(from input: OpenFile, to destination: URL) throws(SystemError) -> Int64 {
        try write(destination, durable: false) { output throws(SystemError) in
            try copyBytes(from: input, to: output, forceBuffered: true, writingBehind: false, isStream: true, progress: { _ in true })
        }.bytes
    }

    /// Makes a new file at `destination` and fills it with `body`; removes it if that fails.
    private static func write(_ destination: URL, durable: Bool, _ body: (OpenFile) throws(SystemError) -> Result) throws(SystemError) -> Result {
        let output = try OpenFile.creating(destination)
        do {
            let result = try body(output)
            if durable { try output.flush() }
            return result
        } catch {
            try? FileSystem.removeFile(destination)
            throw error
        }
    }

    /// - Parameter writingBehind: start writing each chunk to the device as soon as it is copied, so that the
    ///   flush at the end finds little left to do: the disk works while the next chunks are copied, where
    ///   otherwise it would start only as the kernel's own writeback or the flush got to it.
    /// - Parameter isStream: the input is a pipe, read from where it is; a file is read at offsets of the copy's
    ///   own, from its start.
    private static func copyBytes(
        from input: OpenFile, to output: OpenFile, forceBuffered: Bool, writingBehind: Bool, isStream: Bool = false, progress: (Int64) -> Bool
    ) throws(SystemError) -> Result {
        var total: Int64 = 0
        var offset: Int64 = 0
        func written(_ count: Int) throws(SystemError) {
            if writingBehind { csharing_start_writeback(output.descriptor, off_t(total), off_t(count)) }
            total += Int64(count)
            if !progress(total) { throw SystemError(.copy, .cancelled, path: input.path, destination: output.path) }
        }
        if !forceBuffered {
            for method in KernelCopy.methods {
                while true {
                    let moved = method.move(from: input.descriptor, at: &offset, to: output.descriptor, count: chunkSize)
                    switch moved {
                    case .moved(let count):
                        try written(count)
                        continue
                    case .end:
                        return Result(bytes: total, method: method.name)
                    case .unsupported where total == 0:
                        // Not for these files (another file system, an old kernel): the next way, but only
                        // before any byte moved, so that no way repeats another's bytes.
                        break
                    case .unsupported(let number), .failed(let number):
                        throw SystemError(.copy, .system(number), path: input.path, destination: output.path)
                    }
                    break
                }
            }
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = isStream ? try input.read(into: buffer) : try input.read(into: buffer, at: offset)
            if count == 0 { return Result(bytes: total, method: .readWrite) }
            offset += Int64(count)
            try output.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            try written(count)
        }
    }
}

extension FileCopier {
    /// Copies like `copy(from:to:)`, and hands the new file's bytes, in order, to `observe` while they are
    /// written: another thread reads the copy just behind the copying (from the page cache), so on two cores
    /// whatever `observe` does (a hash) overlaps the copy and its flush. What it sees is what was written,
    /// not a source that may change meanwhile; nothing is read back more than once.
    ///
    /// `observe` runs on one thread at a time, in order; it has seen every byte when this returns.
    @discardableResult
    package static func copy(
        from input: OpenFile, to destination: URL, durable: Bool = false,
        progress: (Int64) -> Bool = { _ in true }, observe: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws(SystemError) -> Result {
        let size = try input.regularFileStatus(for: .copy).size
        // A file of one chunk or less is copied in one call: reading it back after is as fast as a thread.
        if size <= Int64(chunkSize) {
            let result = try copy(from: input, to: destination, durable: durable, progress: progress)
            try OpenFile.reading(destination, followingLinks: false).forEachChunk(size: readBackSize) {
                observe($0)
                return true
            }
            return result
        }
        let follower = Follower(destination: destination, observe: observe)
        BlockingThreads.submit { follower.run() }
        let result: Result
        do {
            result = try copy(from: input, to: destination, durable: durable) { copied in
                follower.publish(copied)
                return progress(copied)
            }
        } catch {
            follower.finish(failed: true)
            _ = follower.wait()
            throw error
        }
        follower.finish(failed: false)
        try follower.wait().get()
        return result
    }
}

/// What one call of a kernel copy did.
enum KernelCopyOutcome {
    case moved(Int)
    case end
    /// The call is not supported for these files; another way may be.
    case unsupported(Errno)
    case failed(Errno)
}

/// The reading side of an observed copy: waits for bytes to be published, reads and hands them on.
// @unchecked: its mutable state is only touched under its lock (its condition's).
private final class Follower: @unchecked Sendable {
    private let destination: URL
    private let observe: @Sendable (UnsafeRawBufferPointer) -> Void
    private let condition = NSCondition()
    private var available: Int64 = 0
    private var finished = false
    private var failed = false
    private var outcome: Result<Void, SystemError>?
    private let done = DispatchSemaphore(value: 0)

    init(destination: URL, observe: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.destination = destination
        self.observe = observe
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

    func wait() -> Result<Void, SystemError> {
        done.wait()
        return outcome ?? .failure(SystemError(.read, .cancelled, path: destination.path))
    }

    func run() {
        defer { done.signal() }
        var file: OpenFile?
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileCopier.readBackSize, alignment: 64)
        defer { buffer.deallocate() }
        var seen: Int64 = 0
        do throws(SystemError) {
            while true {
                let (limit, ended, stop) = condition.withLock { () -> (Int64, Bool, Bool) in
                    while seen >= available && !finished { condition.wait() }
                    return (available, finished, failed)
                }
                if stop { return }
                if file == nil { file = try OpenFile.reading(destination, followingLinks: false) }
                while seen < limit, let file {
                    let wanted = Int(min(Int64(buffer.count), limit - seen))
                    let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: seen)
                    // Only another writer truncating the new file can make it shorter than what was copied.
                    if count == 0 { throw SystemError(.read, .changed("the copy shrank while it was read"), path: destination.path) }
                    observe(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                    seen += Int64(count)
                }
                if ended && seen >= limit { break }
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
    }
}
