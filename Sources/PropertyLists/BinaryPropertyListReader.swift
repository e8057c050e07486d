import struct Foundation.Data
import struct Foundation.Date

/// Reads a binary property list (`bplist00`), checking every offset, size and reference against the
/// document before using it: hostile input gets an error, never a crash, a hang or an unbounded allocation.
///
/// Format: an 8-byte header, objects, an offset table, and a 32-byte trailer giving the sizes of offsets and
/// object references, the object count, the root object and where the offset table starts.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var offsetTableStart = 0
    private var nodeCount = 0
    /// Objects being read on the current path, to refuse a reference back to an ancestor.
    private var inProgress: Set<Int> = []
    /// Scalars already read, by object number: a value shared many times is decoded (and stored) once.
    private var scalars: [Int: PropertyListNode] = [:]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func isBinaryPropertyList(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("bplist".utf8))
    }

    mutating func read() throws(PropertyListError) -> PropertyListNode {
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            let version = String(decoding: bytes.prefix(8), as: UTF8.self)
            throw PropertyListError(.malformedBinary, "unsupported binary property list version '\(version)' (only bplist00 is read)", at: .init(byteOffset: 0))
        }
        guard bytes.count >= 8 + 1 + 32 else {
            throw PropertyListError(.malformedBinary, "a binary property list of \(bytes.count) bytes is too short", at: .init(byteOffset: 0))
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = readUnsigned(at: trailer + 8, size: 8)
        let root = readUnsigned(at: trailer + 16, size: 8)
        let tableStart = readUnsigned(at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw malformed("offset size \(offsetSize) or reference size \(referenceSize) is not between 1 and 8", at: trailer + 6)
        }
        // Every object takes at least one byte, so there cannot be more objects than bytes.
        guard count >= 1, count <= UInt64(bytes.count) else { throw malformed("object count \(count) does not fit the file", at: trailer + 8) }
        guard root < count else { throw malformed("root object \(root) is not among the \(count) objects", at: trailer + 16) }
        guard tableStart >= 9, tableStart < UInt64(trailer),
              UInt64(trailer) - tableStart >= count * UInt64(offsetSize)
        else {
            throw malformed("offset table at \(tableStart) does not fit between the header and the trailer", at: trailer + 24)
        }
        objectCount = Int(count)
        offsetTableStart = Int(tableStart)
        return try readObject(Int(root), depth: 0)
    }

    private mutating func readObject(_ reference: Int, depth: Int) throws(PropertyListError) -> PropertyListNode {
        guard reference < objectCount else {
            throw malformed("reference to object \(reference), but there are only \(objectCount)", at: offsetTableStart)
        }
        nodeCount += 1
        if nodeCount > PropertyListLimits.maximumNodes {
            throw PropertyListError(.limitExceeded, "more than \(PropertyListLimits.maximumNodes) values", at: .init(byteOffset: offsetTableStart))
        }
        if let scalar = scalars[reference] { return scalar }
        let offset = Int(readUnsigned(at: offsetTableStart + reference * offsetSize, size: offsetSize))
        guard offset >= 8, offset < offsetTableStart else {
            throw malformed("object \(reference) starts at \(offset), outside the object area", at: offsetTableStart + reference * offsetSize)
        }
        let location = PropertyListLocation(byteOffset: offset)
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0xA, 0xB, 0xC:
            let (start, length) = try readLength(at: offset, unit: referenceSize)
            let children = try withObject(reference, at: offset, depth: depth) { reader throws(PropertyListError) in
                var elements: [PropertyListNode] = []
                elements.reserveCapacity(min(length / reader.referenceSize, 4096))
                var i = start
                while i < start + length {
                    let child = Int(reader.readUnsigned(at: i, size: reader.referenceSize))
                    elements.append(try reader.readObject(child, depth: depth + 1))
                    i += reader.referenceSize
                }
                return elements
            }
            return PropertyListNode(.array(children), at: location)
        case 0xD:
            let (start, length) = try readLength(at: offset, unit: referenceSize * 2)
            let entries = try withObject(reference, at: offset, depth: depth) { reader throws(PropertyListError) in
                let count = length / (reader.referenceSize * 2)
                var entries: [PropertyListDictionary.Entry] = []
                entries.reserveCapacity(min(count, 4096))
                for i in 0..<count {
                    let keyReference = Int(reader.readUnsigned(at: start + i * reader.referenceSize, size: reader.referenceSize))
                    let valueReference = Int(reader.readUnsigned(at: start + (count + i) * reader.referenceSize, size: reader.referenceSize))
                    let key = try reader.readObject(keyReference, depth: depth + 1)
                    guard let keyString = key.string else {
                        throw reader.malformed("a dictionary key is a \(key.kindName), not a string", at: key.location.byteOffset)
                    }
                    let value = try reader.readObject(valueReference, depth: depth + 1)
                    entries.append(.init(key: keyString, keyLocation: key.location, value: value))
                }
                return entries
            }
            return PropertyListNode(.dictionary(PropertyListDictionary(entries: entries)), at: location)
        default:
            let node = PropertyListNode(try readScalar(at: offset), at: location)
            scalars[reference] = node
            return node
        }
    }

    private func readScalar(at offset: Int) throws(PropertyListError) -> PropertyListNode.Value {
        let marker = bytes[offset]
        let low = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch low {
            case 0x8: return .boolean(false)
            case 0x9: return .boolean(true)
            default: throw malformed("object marker 0x\(String(marker, radix: 16)) is not supported", at: offset)
            }
        case 0x1:
            return .integer(try readInteger(at: offset))
        case 0x2:
            let size = 1 << Int(low)
            guard size == 4 || size == 8, offset + 1 + size <= offsetTableStart else { throw malformed("a real of \(size) bytes", at: offset) }
            let raw = readUnsigned(at: offset + 1, size: size)
            return .real(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
        case 0x3:
            guard low == 0x3, offset + 9 <= offsetTableStart else { throw malformed("a malformed date", at: offset) }
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: readUnsigned(at: offset + 1, size: 8))))
        case 0x4:
            let (start, length) = try readLength(at: offset, unit: 1)
            return .data(Data(bytes[start..<(start + length)]))
        case 0x5:
            let (start, length) = try readLength(at: offset, unit: 1)
            let payload = bytes[start..<(start + length)]
            guard payload.allSatisfy({ $0 < 0x80 }) else { throw malformed("an ASCII string holds non-ASCII bytes", at: offset) }
            return .string(String(decoding: payload, as: UTF8.self))
        case 0x6:
            let (start, length) = try readLength(at: offset, unit: 2)
            var units: [UInt16] = []
            units.reserveCapacity(length / 2)
            var i = start
            while i < start + length {
                units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            guard let string = String(validating: units, as: UTF16.self) else {
                throw malformed("a UTF-16 string is not valid UTF-16", at: offset)
            }
            return .string(string)
        case 0x8:
            let size = Int(low) + 1
            guard offset + 1 + size <= offsetTableStart else { throw malformed("a UID runs past the object area", at: offset) }
            return .uid(readUnsigned(at: offset + 1, size: size))
        default:
            throw malformed("object marker 0x\(String(marker, radix: 16)) is not supported", at: offset)
        }
    }

    /// Runs `body` for a container object, refusing cycles and excessive depth.
    private mutating func withObject<T>(
        _ reference: Int, at offset: Int, depth: Int,
        _ body: (inout BinaryPropertyListReader) throws(PropertyListError) -> T
    ) throws(PropertyListError) -> T {
        if depth >= PropertyListLimits.maximumDepth {
            throw PropertyListError(.limitExceeded, "nesting deeper than \(PropertyListLimits.maximumDepth) levels", at: .init(byteOffset: offset))
        }
        guard inProgress.insert(reference).inserted else {
            throw PropertyListError(.cyclicReference, "object \(reference) contains itself", at: .init(byteOffset: offset))
        }
        defer { inProgress.remove(reference) }
        return try body(&self)
    }

    /// An integer object: 1, 2, 4, 8 or 16 bytes, big-endian; 8- and 16-byte values are signed.
    private func readInteger(at offset: Int) throws(PropertyListError) -> Int64 {
        let marker = bytes[offset]
        guard marker >> 4 == 0x1 else { throw malformed("expected an integer", at: offset) }
        let size = 1 << Int(marker & 0x0F)
        guard size <= 16, offset + 1 + size <= offsetTableStart else { throw malformed("an integer of \(size) bytes", at: offset) }
        if size == 16 {
            // 128-bit: the upper half must be the sign extension of the lower half.
            let upper = readUnsigned(at: offset + 1, size: 8)
            let lower = readUnsigned(at: offset + 9, size: 8)
            let value = Int64(bitPattern: lower)
            guard upper == (value < 0 ? UInt64.max : 0) else {
                throw PropertyListError(.limitExceeded, "a 128-bit integer out of the 64-bit range", at: .init(byteOffset: offset))
            }
            return value
        }
        let raw = readUnsigned(at: offset + 1, size: size)
        return size == 8 ? Int64(bitPattern: raw) : Int64(raw)
    }

    /// The start and byte length of a variable-length object's payload, checked against the object area.
    private func readLength(at offset: Int, unit: Int) throws(PropertyListError) -> (start: Int, length: Int) {
        var count = Int(bytes[offset] & 0x0F)
        var start = offset + 1
        if count == 0x0F {
            guard start < offsetTableStart else { throw malformed("a length runs past the object area", at: offset) }
            let value = try readInteger(at: start)
            guard value >= 0, value <= Int64(bytes.count) else { throw malformed("length \(value) does not fit the file", at: offset) }
            count = Int(value)
            start += 1 + (1 << Int(bytes[start] & 0x0F))
        }
        let (length, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, start <= offsetTableStart, length <= offsetTableStart - start else {
            throw malformed("an object of \(count) elements runs past the object area", at: offset)
        }
        return (start, length)
    }

    /// A big-endian unsigned number of `size` bytes; callers check that it lies inside the document.
    private func readUnsigned(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    private func malformed(_ message: String, at offset: Int) -> PropertyListError {
        PropertyListError(.malformedBinary, message, at: .init(byteOffset: offset))
    }
}
