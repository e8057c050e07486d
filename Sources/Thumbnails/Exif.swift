/// The orientation tag (0x0112) of EXIF's first image directory — all a thumbnail needs from EXIF.
enum Exif {
    /// `tiff` starts at the TIFF header ("II*\0" or "MM\0*"); nil when there is no valid orientation.
    static func orientation(in tiff: [UInt8]) -> ImageOrientation? {
        let source = BufferBytes(buffer: tiff)
        guard let (bigEndian, first) = try? TIFFDirectory.header(of: source),
              let directory = try? TIFFDirectory(source, at: first, bigEndian: bigEndian),
              let value = try? directory.integer(0x0112, in: source) else { return nil }
        return ImageOrientation(rawValue: value)
    }
}

/// A TIFF image file directory: the structure of TIFF files, and of EXIF, which is a TIFF inside a JPEG,
/// PNG or WebP.
struct TIFFDirectory {
    let bigEndian: Bool
    /// Each tag's type, count, and the offset of its 4-byte value field.
    private let entries: [UInt16: (type: UInt16, count: Int, field: Int)]
    /// The next directory's offset; 0 when this is the last.
    let next: Int

    /// The byte order the TIFF header at the start of `source` gives, and the first directory's offset.
    static func header(of source: some ByteSource) throws(ThumbnailError) -> (bigEndian: Bool, first: Int) {
        let start = try source.bytes(at: 0, count: 4)
        let bigEndian: Bool
        switch (start[0], start[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw .corrupt("TIFF: no byte order mark")
        }
        let magic = try source.uint16(at: 2, bigEndian: bigEndian)
        guard magic == 42 else { throw magic == 43 ? .unsupported("BigTIFF") : .corrupt("TIFF: the magic number is \(magic), not 42") }
        return (bigEndian, Int(try source.uint32(at: 4, bigEndian: bigEndian)))
    }

    init(_ source: some ByteSource, at offset: Int, bigEndian: Bool) throws(ThumbnailError) {
        self.bigEndian = bigEndian
        let count = Int(try source.uint16(at: offset, bigEndian: bigEndian))
        // 12 bytes an entry, then the next directory's offset (which EXIF writers sometimes leave out): one
        // read, which the 64 KB limit bounds.
        let bytes = BufferBytes(buffer: try source.bytes(at: offset + 2, count: count * 12 + 4, exact: false))
        var entries: [UInt16: (type: UInt16, count: Int, field: Int)] = [:]
        for index in 0..<count {
            let entry = index * 12
            let tag = try bytes.uint16(at: entry, bigEndian: bigEndian)
            entries[tag] = (try bytes.uint16(at: entry + 2, bigEndian: bigEndian), Int(try bytes.uint32(at: entry + 4, bigEndian: bigEndian)),
                            offset + 2 + entry + 8)
        }
        self.entries = entries
        next = Int((try? bytes.uint32(at: count * 12, bigEndian: bigEndian)) ?? 0)
    }

    /// The first value of `tag` when it is a SHORT or a LONG; nil when the directory does not have it.
    func integer(_ tag: UInt16, in source: some ByteSource) throws(ThumbnailError) -> Int? {
        guard let entry = entries[tag], entry.count >= 1 else { return nil }
        switch entry.type {
        case 3:
            // Values that fit in the 4-byte field are kept there; larger ones at the offset it holds.
            let at = entry.count <= 2 ? entry.field : Int(try source.uint32(at: entry.field, bigEndian: bigEndian))
            return Int(try source.uint16(at: at, bigEndian: bigEndian))
        case 4:
            let at = entry.count <= 1 ? entry.field : Int(try source.uint32(at: entry.field, bigEndian: bigEndian))
            return Int(try source.uint32(at: at, bigEndian: bigEndian))
        default:
            return nil
        }
    }
}
