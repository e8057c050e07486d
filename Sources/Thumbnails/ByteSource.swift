import Foundation
import SharingSystem

/// Bytes at offsets, from a file or a buffer: what header readers read through.
protocol ByteSource {
    /// `count` bytes at `offset`; fewer only when `exact` is false and the end comes first.
    func bytes(at offset: Int, count: Int, exact: Bool) throws(ThumbnailError) -> [UInt8]
}

extension ByteSource {
    func bytes(at offset: Int, count: Int) throws(ThumbnailError) -> [UInt8] {
        try bytes(at: offset, count: count, exact: true)
    }

    func uint16(at offset: Int, bigEndian: Bool) throws(ThumbnailError) -> UInt16 {
        let b = try bytes(at: offset, count: 2)
        return bigEndian ? UInt16(b[0]) << 8 | UInt16(b[1]) : UInt16(b[1]) << 8 | UInt16(b[0])
    }

    func uint32(at offset: Int, bigEndian: Bool) throws(ThumbnailError) -> UInt32 {
        let b = try bytes(at: offset, count: 4).map(UInt32.init)
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }
}

/// Header reads never ask for more than this at once, whatever a length field claims.
let largestHeaderRead = 1 << 16

/// Bytes in memory — an array, or `Data` as a share delivers it, read where it lies, not copied whole.
struct BufferBytes<Buffer: RandomAccessCollection<UInt8>>: ByteSource where Buffer.Index == Int {
    let buffer: Buffer

    func bytes(at offset: Int, count: Int, exact: Bool) throws(ThumbnailError) -> [UInt8] {
        guard offset >= 0, count >= 0, count <= largestHeaderRead, offset <= buffer.count else { throw .endsEarly(at: offset) }
        let end = min(buffer.count, offset + count)
        if exact && end - offset < count { throw .endsEarly(at: offset) }
        // A slice of Data need not start at index 0.
        return Array(buffer[(buffer.startIndex + offset)..<(buffer.startIndex + end)])
    }
}

extension ThumbnailError {
    static func endsEarly(at offset: Int) -> ThumbnailError {
        .corrupt("the file ends before the header does (reading at byte \(offset))")
    }
}

/// A file read at offsets, a few bytes at a time: headers are small and scattered.
final class FileBytes: ByteSource, Sendable {
    let file: OpenFile
    let size: Int

    init(_ url: URL) throws(ThumbnailError) {
        do {
            file = try OpenFile.reading(url)
            size = Int(try file.status().size)
        } catch {
            throw .unreadable(error)
        }
    }

    func bytes(at offset: Int, count: Int, exact: Bool) throws(ThumbnailError) -> [UInt8] {
        guard offset >= 0, count >= 0, count <= largestHeaderRead, offset <= size else { throw .endsEarly(at: offset) }
        let wanted = min(count, size - offset)
        if exact && wanted < count { throw .endsEarly(at: offset) }
        let bytes: [UInt8]
        do {
            bytes = try file.bytes(at: Int64(offset), count: wanted)
        } catch {
            throw .unreadable(error)
        }
        guard bytes.count == wanted else { throw .endsEarly(at: offset + bytes.count) }
        return bytes
    }
}
