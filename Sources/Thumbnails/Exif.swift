/// EXIF as a TIFF structure (inside a JPEG's APP1, a PNG's eXIf, a WebP's EXIF chunk, a HEIF Exif item, or a
/// TIFF file itself): the first directory's tags, the Exif and GPS sub-directories', and the JPEG thumbnail
/// the second directory points at. Values over 4 KB (strips, maker notes) are passed over; every offset and
/// count is checked against the bytes there are.
package struct Exif: Sendable, Equatable {
    /// The first directory (IFD0): the image's TIFF tags.
    package var primary: [UInt16: TIFFValue] = [:]
    /// The Exif sub-directory (tag 0x8769).
    package var exif: [UInt16: TIFFValue] = [:]
    /// The GPS sub-directory (tag 0x8825).
    package var gps: [UInt16: TIFFValue] = [:]
    /// The JPEG stream of the thumbnail the second directory (IFD1) points at.
    package var thumbnail: [UInt8]?

    /// The largest value kept.
    static let largestValue = 4096

    /// `tiff` starts at the TIFF header ("II*\0" or "MM\0*"); `nil` when it is not one.
    package init?(tiff: [UInt8]) {
        self.init(BufferBytes(buffer: tiff), thumbnail: true)
    }

    /// The directories of the TIFF structure in `source`; with `thumbnail`, the second directory's JPEG too.
    init?(_ source: some ByteSource, thumbnail wantsThumbnail: Bool) {
        guard let (layout, first) = try? TIFFDirectory.header(of: source),
              let directory = try? TIFFDirectory(source, at: first, layout: layout) else { return nil }
        primary = Self.values(of: directory, in: source)
        if let offset = try? directory.integer(0x8769, in: source), let sub = try? TIFFDirectory(source, at: offset, layout: layout) {
            exif = Self.values(of: sub, in: source)
        }
        if let offset = try? directory.integer(0x8825, in: source), let sub = try? TIFFDirectory(source, at: offset, layout: layout) {
            gps = Self.values(of: sub, in: source)
        }
        if wantsThumbnail, directory.next != 0, directory.next != first, let second = try? TIFFDirectory(source, at: directory.next, layout: layout),
           let start = try? second.integer(0x0201, in: source), let length = try? second.integer(0x0202, in: source),
           length > 0, length <= largestHeaderRead, let bytes = try? source.bytes(at: start, count: length) {
            thumbnail = bytes
        }
    }

    private static func values(of directory: TIFFDirectory, in source: some ByteSource) -> [UInt16: TIFFValue] {
        var values: [UInt16: TIFFValue] = [:]
        for tag in directory.tags {
            if let value = try? directory.value(tag, in: source, largest: largestValue) { values[tag] = value }
        }
        return values
    }

    /// The orientation the first directory gives (tag 0x0112), if valid.
    package var orientation: ImageOrientation? {
        guard case .integers(let values)? = primary[0x0112], let first = values.first else { return nil }
        return ImageOrientation(rawValue: first)
    }

    /// The orientation in the EXIF at the start of `tiff`; `nil` when there is none, or it is not valid.
    static func orientation(in tiff: [UInt8]) -> ImageOrientation? {
        Exif(BufferBytes(buffer: tiff), thumbnail: false)?.orientation
    }
}

/// A TIFF field's value, by the kind of its type.
package enum TIFFValue: Sendable, Equatable {
    /// BYTE, SHORT, LONG, their signed kinds, and BigTIFF's LONG8.
    case integers([Int])
    /// RATIONAL, SRATIONAL, FLOAT and DOUBLE (a rational with a denominator of 0 is 0).
    case numbers([Double])
    /// ASCII, to its first NUL.
    case text(String)
    /// UNDEFINED.
    case bytes([UInt8])
}

/// The orientation XMP gives (`tiff:Orientation`, as an attribute or an element), which is how macOS writes a
/// PNG's orientation when Finder or `sips` turns it.
enum XMP {
    /// An iTXt chunk's data when it is uncompressed XMP (keyword "XML:com.adobe.xmp"); nil without a valid
    /// orientation.
    static func orientation(inTextChunk chunk: [UInt8]) -> ImageOrientation? {
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        // Keyword, compression flag and method, language tag, translated keyword, then the text.
        guard chunk.starts(with: keyword), chunk.count > keyword.count + 2, chunk[keyword.count] == 0 else { return nil }
        var rest = chunk[(keyword.count + 2)...]
        for _ in 0..<2 {
            guard let end = rest.firstIndex(of: 0) else { return nil }
            rest = rest[(end + 1)...]
        }
        return orientation(inPacket: Array(rest))
    }

    static func orientation(inPacket packet: [UInt8]) -> ImageOrientation? {
        let name = Array("tiff:Orientation".utf8)
        guard let start = packet.indices.first(where: { packet[$0...].starts(with: name) }) else { return nil }
        // `tiff:Orientation="6"` or `<tiff:Orientation>6</…>`: the first digit after the name's `=` or `>`.
        var index = start + name.count
        while index < packet.count, [UInt8(ascii: " "), UInt8(ascii: "=")].contains(packet[index]) { index += 1 }
        guard index < packet.count, [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ">")].contains(packet[index]) else { return nil }
        index += 1
        guard index < packet.count, (UInt8(ascii: "1")...UInt8(ascii: "8")).contains(packet[index]),
              index + 1 == packet.count || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(packet[index + 1]) else { return nil }
        return ImageOrientation(rawValue: Int(packet[index] - UInt8(ascii: "0")))
    }
}

/// A TIFF image file directory: the structure of TIFF files, and of EXIF, which is a TIFF inside a JPEG,
/// PNG or WebP. Classic TIFF and BigTIFF (8-byte counts and offsets) alike.
struct TIFFDirectory {
    /// How a file lays out its directories.
    struct Layout {
        var bigEndian: Bool
        /// BigTIFF ("II+\0" / "MM\0+"): counts and offsets of 8 bytes, entries of 20 with 8-byte value fields.
        var big: Bool

        var offsetSize: Int { big ? 8 : 4 }
        var entrySize: Int { big ? 20 : 12 }

        /// A count or offset (4 bytes in TIFF, 8 in BigTIFF) at `offset`; an offset beyond any file is refused.
        func offset(at offset: Int, in source: some ByteSource) throws(ThumbnailError) -> Int {
            guard big else { return Int(try source.uint32(at: offset, bigEndian: bigEndian)) }
            let (first, second) = (UInt64(try source.uint32(at: offset, bigEndian: bigEndian)),
                                   UInt64(try source.uint32(at: offset + 4, bigEndian: bigEndian)))
            let value = bigEndian ? first << 32 | second : second << 32 | first
            guard value <= UInt64(Int32.max) * 1024 else { throw .corrupt("BigTIFF: an offset of \(value) at byte \(offset)") }
            return Int(value)
        }
    }

    let layout: Layout
    /// Each tag's type, count, and the offset of its value field.
    private let entries: [UInt16: (type: UInt16, count: Int, field: Int)]
    /// The next directory's offset; 0 when this is the last.
    let next: Int

    /// The layout the TIFF header at the start of `source` gives, and the first directory's offset.
    static func header(of source: some ByteSource) throws(ThumbnailError) -> (layout: Layout, first: Int) {
        let start = try source.bytes(at: 0, count: 4)
        let bigEndian: Bool
        switch (start[0], start[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw .corrupt("TIFF: no byte order mark")
        }
        switch try source.uint16(at: 2, bigEndian: bigEndian) {
        case 42:
            let layout = Layout(bigEndian: bigEndian, big: false)
            return (layout, try layout.offset(at: 4, in: source))
        case 43:
            let offsetSize = try source.uint16(at: 4, bigEndian: bigEndian)
            guard offsetSize == 8 else { throw .corrupt("BigTIFF: offsets of \(offsetSize) bytes, not 8") }
            let layout = Layout(bigEndian: bigEndian, big: true)
            return (layout, try layout.offset(at: 8, in: source))
        case let magic:
            throw .corrupt("TIFF: the magic number is \(magic), not 42 (or 43 for BigTIFF)")
        }
    }

    init(_ source: some ByteSource, at offset: Int, layout: Layout) throws(ThumbnailError) {
        self.layout = layout
        let count = layout.big ? try layout.offset(at: offset, in: source) : Int(try source.uint16(at: offset, bigEndian: layout.bigEndian))
        let first = offset + (layout.big ? 8 : 2)
        // The entries, then the next directory's offset (which EXIF writers sometimes leave out): one read,
        // which the 64 KB limit bounds.
        let bytes = BufferBytes(buffer: try source.bytes(at: first, count: count * layout.entrySize + layout.offsetSize, exact: false))
        var entries: [UInt16: (type: UInt16, count: Int, field: Int)] = [:]
        for index in 0..<count {
            let entry = index * layout.entrySize
            let tag = try bytes.uint16(at: entry, bigEndian: layout.bigEndian)
            entries[tag] = (try bytes.uint16(at: entry + 2, bigEndian: layout.bigEndian), try layout.offset(at: entry + 4, in: bytes),
                            first + entry + 4 + layout.offsetSize)
        }
        self.entries = entries
        next = (try? layout.offset(at: count * layout.entrySize, in: bytes)) ?? 0
    }

    /// The tags the directory has, in order.
    var tags: [UInt16] { entries.keys.sorted() }

    /// The value of `tag`, of any type; `nil` when the directory does not have it, its type is unknown, or it
    /// holds more than `largest` bytes.
    func value(_ tag: UInt16, in source: some ByteSource, largest: Int) throws(ThumbnailError) -> TIFFValue? {
        guard let entry = entries[tag], entry.count >= 1, entry.count <= largest else { return nil }
        let size: Int
        switch entry.type {
        case 1, 2, 6, 7: size = 1
        case 3, 8: size = 2
        case 4, 9, 11: size = 4
        case 5, 10, 12, 16, 17: size = 8
        default: return nil
        }
        guard entry.count * size <= largest else { return nil }
        let at = entry.count * size <= layout.offsetSize ? entry.field : try layout.offset(at: entry.field, in: source)
        let values = BufferBytes(buffer: try source.bytes(at: at, count: entry.count * size))
        let bigEndian = layout.bigEndian
        func each<T>(_ read: (Int) throws(ThumbnailError) -> T) throws(ThumbnailError) -> [T] {
            var result: [T] = []
            result.reserveCapacity(entry.count)
            for index in 0..<entry.count { result.append(try read(index * size)) }
            return result
        }
        switch entry.type {
        case 1: return .integers(values.buffer.map(Int.init))
        case 6: return .integers(values.buffer.map { Int(Int8(bitPattern: $0)) })
        case 2:
            let text = values.buffer.prefix { $0 != 0 }
            return .text(String(decoding: text, as: UTF8.self))
        case 7: return .bytes(values.buffer)
        case 3: return .integers(try each { offset throws(ThumbnailError) in Int(try values.uint16(at: offset, bigEndian: bigEndian)) })
        case 8: return .integers(try each { offset throws(ThumbnailError) in Int(Int16(bitPattern: try values.uint16(at: offset, bigEndian: bigEndian))) })
        case 4: return .integers(try each { offset throws(ThumbnailError) in Int(try values.uint32(at: offset, bigEndian: bigEndian)) })
        case 9: return .integers(try each { offset throws(ThumbnailError) in Int(Int32(bitPattern: try values.uint32(at: offset, bigEndian: bigEndian))) })
        case 11: return .numbers(try each { offset throws(ThumbnailError) in Double(Float(bitPattern: try values.uint32(at: offset, bigEndian: bigEndian))) })
        case 5, 10:
            return .numbers(try each { offset throws(ThumbnailError) in
                let (numerator, denominator) = (try values.uint32(at: offset, bigEndian: bigEndian), try values.uint32(at: offset + 4, bigEndian: bigEndian))
                guard denominator != 0 else { return 0 }
                return entry.type == 5 ? Double(numerator) / Double(denominator)
                    : Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
            })
        case 12:
            return .numbers(try each { offset throws(ThumbnailError) in
                let (first, second) = (UInt64(try values.uint32(at: offset, bigEndian: bigEndian)), UInt64(try values.uint32(at: offset + 4, bigEndian: bigEndian)))
                return Double(bitPattern: bigEndian ? first << 32 | second : second << 32 | first)
            })
        default:
            return .integers(try each { offset throws(ThumbnailError) in
                let (first, second) = (UInt64(try values.uint32(at: offset, bigEndian: bigEndian)), UInt64(try values.uint32(at: offset + 4, bigEndian: bigEndian)))
                let bits = bigEndian ? first << 32 | second : second << 32 | first
                return entry.type == 16 ? Int(clamping: bits) : Int(Int64(bitPattern: bits))
            })
        }
    }

    /// The first value of `tag` when it is a SHORT, a LONG or a LONG8; nil when the directory does not have it.
    func integer(_ tag: UInt16, in source: some ByteSource) throws(ThumbnailError) -> Int? {
        guard let entry = entries[tag], entry.count >= 1 else { return nil }
        let size: Int
        switch entry.type {
        case 3: size = 2
        case 4: size = 4
        case 16 where layout.big: size = 8
        default: return nil
        }
        // Values that fit in the value field are kept there; larger ones at the offset it holds.
        let at = entry.count * size <= layout.offsetSize ? entry.field : try layout.offset(at: entry.field, in: source)
        switch size {
        case 2: return Int(try source.uint16(at: at, bigEndian: layout.bigEndian))
        case 4: return Int(try source.uint32(at: at, bigEndian: layout.bigEndian))
        default: return try Layout(bigEndian: layout.bigEndian, big: true).offset(at: at, in: source)
        }
    }
}
