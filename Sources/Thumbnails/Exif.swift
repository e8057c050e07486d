/// The orientation tag (0x0112) of EXIF's first image directory — all a thumbnail needs from EXIF.
enum Exif {
    /// `tiff` starts at the TIFF header ("II*\0" or "MM\0*"); nil when there is no valid orientation.
    static func orientation(in tiff: [UInt8]) -> ImageOrientation? {
        let source = BufferBytes(buffer: tiff)
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        guard let magic = try? source.uint16(at: 2, bigEndian: bigEndian), magic == 42,
              let directory = try? source.uint32(at: 4, bigEndian: bigEndian),
              let entries = try? source.uint16(at: Int(directory), bigEndian: bigEndian) else { return nil }
        for index in 0..<Int(entries) {
            let entry = Int(directory) + 2 + index * 12
            guard let tag = try? source.uint16(at: entry, bigEndian: bigEndian) else { return nil }
            guard tag == 0x0112 else { continue }
            // A SHORT (type 3), one value, kept in the entry's first two value bytes.
            guard let type = try? source.uint16(at: entry + 2, bigEndian: bigEndian), type == 3,
                  let value = try? source.uint16(at: entry + 8, bigEndian: bigEndian) else { return nil }
            return ImageOrientation(rawValue: Int(value))
        }
        return nil
    }
}
