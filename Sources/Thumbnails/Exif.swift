/// The orientation tag (0x0112) of EXIF's first image directory — all a thumbnail needs from EXIF.
enum Exif {
    /// `tiff` starts at the TIFF header ("II*\0" or "MM\0*"); nil when there is no valid orientation.
    static func orientation(in tiff: [UInt8]) -> ImageOrientation? {
        let source = BufferBytes(buffer: tiff)
        guard let (layout, first) = try? TIFFDirectory.header(of: source),
              let directory = try? TIFFDirectory(source, at: first, layout: layout),
              let value = try? directory.integer(0x0112, in: source) else { return nil }
        return ImageOrientation(rawValue: value)
    }
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
