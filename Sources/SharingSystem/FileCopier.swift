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
    /// The pieces an observed copy reads, observes and writes each byte through, and how many: one being
    /// written while the next is read and observed, and one spare, so that neither side waits for the other.
    package static let pieceSize = 512 << 10
    package static let pieceCount = 3
    /// The memory an observed copy's pieces take.
    package static let observedCopyMemory = pieceSize * pieceCount

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
        try copy(from: input, to: destination, durable: durable, forceBuffered: forceBuffered, observing: nil, progress: progress)
    }

    private static func copy(
        from input: OpenFile, to destination: URL, durable: Bool, forceBuffered: Bool, observing: Observing?, progress: (Int64) -> Bool
    ) throws(SystemError) -> Result {
        let before = try input.regularFileStatus(for: .copy)
        return try write(destination, durable: durable) { output throws(SystemError) in
            // A durable copy's blocks are reserved at once: ext4 then maps them in one extent, where delayed
            // allocation would map them page by page as write-behind reaches them (Benchmarks/RESULTS.md).
            if durable { csharing_reserve_blocks(output.descriptor, off_t(before.size)) }
            let result = try copyBytes(from: input, to: output, forceBuffered: forceBuffered, writingBehind: durable, observing: observing, progress: progress)
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
            try copyBytes(from: input, to: output, forceBuffered: true, writingBehind: false, isStream: true, observing: nil, progress: { _ in true })
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

    /// - Parameter writingBehind: start writing to the device as soon as a chunk's worth is copied, so that the
    ///   flush at the end finds little left to do: the disk works while the next chunks are copied, where
    ///   otherwise it would start only as the kernel's own writeback or the flush got to it.
    /// - Parameter isStream: the input is a pipe, read from where it is; a file is read at offsets of the copy's
    ///   own, from its start.
    /// - Parameter observing: what sees each piece as it is read, before it is written; the bytes then go
    ///   through this process, never by the kernel's copy.
    private static func copyBytes(
        from input: OpenFile, to output: OpenFile, forceBuffered: Bool, writingBehind: Bool, isStream: Bool = false,
        observing: Observing?, progress: (Int64) -> Bool
    ) throws(SystemError) -> Result {
        var total: Int64 = 0
        var offset: Int64 = 0
        var behind: Int64 = 0
        func written(_ count: Int) throws(SystemError) {
            total += Int64(count)
            if writingBehind && total - behind >= Int64(chunkSize) {
                csharing_start_writeback(output.descriptor, off_t(behind), off_t(total - behind))
                behind = total
            }
            if !progress(total) { throw SystemError(.copy, .cancelled, path: input.path, destination: output.path) }
        }
        if !forceBuffered && observing == nil {
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
        let pieces = PieceReader(from: input, isStream: isStream, observing: observing ?? Observing(pieceSize: bufferSize))
        defer { pieces.stop() }
        while let piece = try pieces.next() {
            try output.write(UnsafeRawBufferPointer(piece.bytes))
            pieces.giveBack(piece)
            try written(piece.bytes.count)
        }
        return Result(bytes: total, method: .readWrite)
    }
}

extension FileCopier {
    /// Copies like `copy(from:to:)`, and hands the bytes, in order, to `observe` as they are copied. Each byte
    /// is read from the source once, into one of a few pieces, observed and then written from it; for a file
    /// larger than a chunk a thread of its own reads and observes ahead of the writing, so that on two cores
    /// what `observe` does (a hash) overlaps the copy. What it sees is exactly what was written, whatever the
    /// source does meanwhile. The kernel's own copy is not used here: the bytes have to reach this process
    /// anyway, and reading them back after a `copy_file_range` is a second pass over every byte, where on a file
    /// system without reflinks (ext4) that copy costs no less than a read and a write (Benchmarks/RESULTS.md).
    ///
    /// `observe` runs on one thread at a time, in order; it has seen every byte when this returns.
    @discardableResult
    package static func copy(
        from input: OpenFile, to destination: URL, durable: Bool = false,
        progress: (Int64) -> Bool = { _ in true }, observe: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws(SystemError) -> Result {
        let size = try input.regularFileStatus(for: .copy).size
        // A file of a chunk or less is read, observed and written in turn: a thread would cost what it saves.
        let observing = Observing(pieceSize: pieceSize, overlapped: size > Int64(chunkSize), observe: observe)
        return try copy(from: input, to: destination, durable: durable, forceBuffered: true, observing: observing, progress: progress)
    }
}

/// How a buffered copy's pieces are read: their size, and what sees each as it is read, on the copying thread
/// or, `overlapped`, on one of its own that reads ahead.
private struct Observing {
    var pieceSize: Int
    var overlapped = false
    var observe: (@Sendable (UnsafeRawBufferPointer) -> Void)?
}

/// What one call of a kernel copy did.
enum KernelCopyOutcome {
    case moved(Int)
    case end
    /// The call is not supported for these files; another way may be.
    case unsupported(Errno)
    case failed(Errno)
}

/// The pieces a buffered copy writes, read in order from its input and each seen by `observe` once read. Not
/// overlapped, `next()` reads and observes on the calling thread into one buffer. Overlapped, a thread of its
/// own reads and observes into up to `pieceCount` buffers ahead of the writing (the pieces observed are then
/// still in that thread's core's cache; a hash of pieces another core read was a third slower,
/// Benchmarks/RESULTS.md), and `next()` takes them in order.
// @unchecked: its mutable state is only touched under its condition's lock, but for `offset`, which only the
// reading side touches; a buffer is touched by one side at a time, the one holding it (the reader takes it from
// `free`, the writer from `ready`).
private final class PieceReader: @unchecked Sendable {
    struct Piece {
        let index: Int
        let bytes: UnsafeMutableRawBufferPointer
    }

    private let input: OpenFile
    private let isStream: Bool
    private let observe: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    private let overlapped: Bool
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let condition = NSCondition()
    private var offset: Int64 = 0
    private var free: [Int]
    private var ready: [Piece] = []
    private var ended = false
    private var failure: SystemError?
    private var stopping = false
    private var readerEnded = false

    init(from input: OpenFile, isStream: Bool, observing: Observing) {
        self.input = input
        self.isStream = isStream
        observe = observing.observe
        overlapped = observing.overlapped
        buffers = (0..<(overlapped ? FileCopier.pieceCount : 1)).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: observing.pieceSize, alignment: 64)
        }
        free = Array(buffers.indices)
        if overlapped { BlockingThreads.submit { self.readAhead() } }
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// The next piece, read and observed; nil at the input's end.
    func next() throws(SystemError) -> Piece? {
        guard overlapped else { return try read(into: 0) }
        let (piece, failure) = condition.withLock { () -> (Piece?, SystemError?) in
            while ready.isEmpty && !ended { condition.wait() }
            return ready.isEmpty ? (nil, self.failure) : (ready.removeFirst(), nil)
        }
        if let failure { throw failure }
        return piece
    }

    /// The writer is done with `piece`: its buffer may be read into again.
    func giveBack(_ piece: Piece) {
        guard overlapped else { return }
        condition.withLock {
            free.append(piece.index)
            condition.broadcast()
        }
    }

    /// No more pieces are taken: returns once the reading thread, if any, has ended.
    func stop() {
        guard overlapped else { return }
        condition.withLock {
            stopping = true
            condition.broadcast()
            while !readerEnded { condition.wait() }
        }
    }

    private func read(into index: Int) throws(SystemError) -> Piece? {
        let buffer = buffers[index]
        let count = isStream ? try input.read(into: buffer) : try input.read(into: buffer, at: offset)
        guard count > 0 else { return nil }
        offset += Int64(count)
        let piece = Piece(index: index, bytes: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))
        observe?(UnsafeRawBufferPointer(piece.bytes))
        return piece
    }

    private func readAhead() {
        while true {
            let index = condition.withLock { () -> Int? in
                while free.isEmpty && !stopping { condition.wait() }
                return stopping ? nil : free.removeFirst()
            }
            guard let index else { break }
            let outcome = Result { () throws(SystemError) in try read(into: index) }
            let more = condition.withLock { () -> Bool in
                switch outcome {
                case .success(let piece?): ready.append(piece)
                case .success(nil): ended = true
                case .failure(let error):
                    failure = error
                    ended = true
                }
                condition.broadcast()
                return !ended
            }
            if !more { break }
        }
        condition.withLock {
            readerEnded = true
            condition.broadcast()
        }
    }
}
