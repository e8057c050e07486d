import ContentTypes

/// What an image file says about itself before any pixel is decoded.
public struct ImageHeader: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case jpeg, png, gif, webp, heif, tiff, bmp
    }

    public var format: Format
    /// The stored size, before the orientation is applied.
    public var width: Int
    public var height: Int
    /// How the stored pixels must be turned to be seen upright (EXIF's orientation, or the container's).
    public var orientation: ImageOrientation
    /// The number of frames (animations, image sequences); 1 for a still image.
    public var frameCount: Int
    public var hasAlpha: Bool

    /// The size once the orientation is applied.
    public var orientedSize: (width: Int, height: Int) {
        orientation.swapsAxes ? (height, width) : (width, height)
    }
}

/// Reads headers from bytes: only what is needed, through `ByteSource`, which reads a file at offsets
/// or a buffer — the same code either way, so the fuzz target exercises exactly what files go through.
enum HeaderReader {
    /// The format, from the first bytes.
    static func format(of source: some ByteSource) throws(ThumbnailError) -> ImageHeader.Format {
        switch FileSignature.identify(try source.bytes(at: 0, count: FileSignature.length, exact: false)) {
        case .jpeg: return .jpeg
        case .png: return .png
        case .gif: return .gif
        case .webP: return .webp
        case .heic, .heif, .avif: return .heif
        case .tiff, .bigTIFF: return .tiff
        case .bmp: return .bmp
        case let other?: throw ThumbnailError.unsupported("\(other.typeIdentifier), not an image read here (JPEG, PNG, GIF, WebP, HEIF, TIFF or BMP)")
        case nil: throw ThumbnailError.unsupported("not a JPEG, PNG, GIF, WebP, HEIF, TIFF or BMP image (the first bytes are no known signature)")
        }
    }

    /// The header of the image in `source`, and for HEIF what its `meta` box says, which decoding needs too.
    static func header(of source: some ByteSource) throws(ThumbnailError) -> (header: ImageHeader, heif: HEIFFile?) {
        let (metadata, heif) = try metadata(of: source)
        return (metadata.header, heif)
    }

    /// The header of the image in `source` with what else the way to it says, and for HEIF its `meta` box.
    static func metadata(of source: some ByteSource) throws(ThumbnailError) -> (metadata: ImageMetadata, heif: HEIFFile?) {
        switch try format(of: source) {
        case .jpeg: return (try jpeg(source), nil)
        case .png: return (try png(source), nil)
        case .gif: return (try gif(source), nil)
        case .webp: return (try webp(source), nil)
        case .tiff: return (try tiff(source), nil)
        case .bmp:
            let layout = try BMPLayout(source)
            var metadata = ImageMetadata(header: ImageHeader(format: .bmp, width: layout.width, height: layout.height, orientation: .up, frameCount: 1,
                                                             hasAlpha: layout.masks?.alpha ?? 0 != 0))
            metadata.isIndexed = layout.bitsPerPixel <= 8
            return (metadata, nil)
        case .heif:
            let file = try HEIFFile.read(source)
            var metadata = ImageMetadata(header: try file.header())
            metadata.depth = file.bitDepth(of: file.primary) ?? 8
            metadata.exif = file.exif(in: source)
            return (metadata, file)
        }
    }

    // MARK: JPEG

    private static func jpeg(_ source: some ByteSource) throws(ThumbnailError) -> ImageMetadata {
        var offset = 2
        var exif: Exif?
        var jfif: ImageMetadata.JFIF?
        while true {
            // Markers may be padded with any number of 0xFF bytes.
            var marker = try source.bytes(at: offset, count: 2)
            if marker[0] != 0xFF {
                offset = try nextMarker(in: source, from: offset)
                marker = try source.bytes(at: offset, count: 2)
            }
            while marker[1] == 0xFF {
                offset += 1
                marker = try source.bytes(at: offset, count: 2)
            }
            let code = marker[1]
            if code == 0xD8 || code == 0x01 || (0xD0...0xD7).contains(code) {
                offset += 2
                continue
            }
            if code == 0xD9 || code == 0xDA { throw .corrupt("JPEG: no frame header before the image data") }
            let length = Int(try source.uint16(at: offset + 2, bigEndian: true))
            guard length >= 2 else { throw .corrupt("JPEG: a segment of length \(length) at byte \(offset)") }
            switch code {
            case 0xE0 where jfif == nil:
                let payload = try source.bytes(at: offset + 4, count: min(length - 2, 14), exact: false)
                if payload.count >= 12, payload.starts(with: Array("JFIF\0".utf8)) {
                    jfif = ImageMetadata.JFIF(version: [Int(payload[5]), Int(payload[6]) / 10, Int(payload[6]) % 10], densityUnit: Int(payload[7]),
                                              xDensity: Int(payload[8]) << 8 | Int(payload[9]), yDensity: Int(payload[10]) << 8 | Int(payload[11]))
                }
            case 0xE1 where exif == nil:
                let payload = try source.bytes(at: offset + 4, count: length - 2, exact: false)
                if payload.starts(with: Array("Exif\0\0".utf8)) { exif = Exif(tiff: Array(payload.dropFirst(6))) }
            case 0xC0...0xCF where code != 0xC4 && code != 0xC8 && code != 0xCC:
                let frame = try source.bytes(at: offset + 4, count: 6)
                let height = Int(frame[1]) << 8 | Int(frame[2])
                let width = Int(frame[3]) << 8 | Int(frame[4])
                guard width > 0, height > 0 else { throw .corrupt("JPEG: the frame header declares \(width) × \(height) pixels") }
                guard (1...4).contains(frame[5]) else { throw .corrupt("JPEG: \(frame[5]) color components") }
                var metadata = ImageMetadata(header: ImageHeader(format: .jpeg, width: width, height: height, orientation: exif?.orientation ?? .up,
                                                                 frameCount: 1, hasAlpha: false))
                metadata.depth = Int(frame[0])
                metadata.colorModel = frame[5] == 1 ? .gray : frame[5] == 4 ? .cmyk : .rgb
                metadata.isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(code)
                metadata.exif = exif
                metadata.jfif = jfif
                return metadata
            default:
                break
            }
            offset += 2 + length
        }
    }

    /// Where the next marker starts, at or after `offset`. Stray bytes before a marker (junk after a segment,
    /// or a segment whose length is a byte off, as some Photoshop and Adobe segments' are) are skipped, as
    /// libjpeg skips them ("extraneous bytes before marker", a warning) and every viewer reads on.
    private static func nextMarker(in source: some ByteSource, from offset: Int) throws(ThumbnailError) -> Int {
        var position = offset
        while true {
            let chunk = try source.bytes(at: position, count: 4096, exact: false)
            guard chunk.count >= 2 else { throw .corrupt("JPEG: no marker after byte \(offset)") }
            // 0xFF 0x00 is a stuffed byte of entropy-coded data, not a marker.
            if let index = (0..<(chunk.count - 1)).first(where: { chunk[$0] == 0xFF && chunk[$0 + 1] != 0x00 }) {
                return position + index
            }
            position += chunk.count - 1
        }
    }

    // MARK: PNG

    private static func png(_ source: some ByteSource) throws(ThumbnailError) -> ImageMetadata {
        guard try source.bytes(at: 12, count: 4) == Array("IHDR".utf8) else { throw .corrupt("PNG: the first chunk is not IHDR") }
        let width = Int(try source.uint32(at: 16, bigEndian: true))
        let height = Int(try source.uint32(at: 20, bigEndian: true))
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .corrupt("PNG: IHDR declares \(width) × \(height) pixels")
        }
        let fields = try source.bytes(at: 24, count: 5)
        let (depth, color) = (fields[0], fields[1])
        let valid: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard valid[color]?.contains(depth) == true else { throw .corrupt("PNG: color type \(color) with bit depth \(depth)") }
        guard fields[4] <= 1 else { throw .corrupt("PNG: interlace method \(fields[4])") }
        var hasAlpha = color == 4 || color == 6
        var exif: Exif?
        var xmpOrientation: ImageOrientation?
        var frames = 1
        var png = ImageMetadata.PNG()
        png.interlaced = fields[4] == 1
        /// A chunk's data, up to the most a header read takes.
        func data(at offset: Int, _ length: Int) throws(ThumbnailError) -> [UInt8] {
            try source.bytes(at: offset + 8, count: min(length, largestHeaderRead), exact: false)
        }
        // The chunks before the image data: transparency, orientation (eXIf, else XMP's tiff:Orientation in an
        // iTXt chunk, as ImageIO reads it: see docs/thumbnails.md), animation (acTL).
        var offset = 33
        while true {
            let length = Int(try source.uint32(at: offset, bigEndian: true))
            let type = String(decoding: try source.bytes(at: offset + 4, count: 4), as: UTF8.self)
            guard length <= Int(Int32.max) else { throw .corrupt("PNG: a chunk of \(length) bytes at byte \(offset)") }
            switch type {
            case "IDAT", "IEND":
                var metadata = ImageMetadata(header: ImageHeader(format: .png, width: width, height: height,
                                                                 orientation: exif?.orientation ?? xmpOrientation ?? .up, frameCount: frames, hasAlpha: hasAlpha))
                metadata.depth = Int(depth)
                metadata.colorModel = color == 0 || color == 4 ? .gray : .rgb
                metadata.isIndexed = color == 3
                metadata.exif = exif
                metadata.png = png
                return metadata
            case "tRNS":
                hasAlpha = true
            case "eXIf":
                exif = Exif(tiff: try data(at: offset, length))
            case "iTXt":
                let text = try data(at: offset, length)
                xmpOrientation = XMP.orientation(inTextChunk: text) ?? xmpOrientation
                if let found = PNGText.international(text) { png.texts.append(found) }
            case "tEXt":
                if let found = PNGText.latin1(try data(at: offset, length)) { png.texts.append(found) }
            case "gAMA" where length == 4:
                png.gamma = Double(try source.uint32(at: offset + 8, bigEndian: true)) / 100_000
            case "sRGB" where length == 1:
                png.sRGBIntent = Int(try source.bytes(at: offset + 8, count: 1)[0])
            case "pHYs" where length == 9:
                let fields = try source.bytes(at: offset + 8, count: 9)
                let x = Int(fields[0]) << 24 | Int(fields[1]) << 16 | Int(fields[2]) << 8 | Int(fields[3])
                let y = Int(fields[4]) << 24 | Int(fields[5]) << 16 | Int(fields[6]) << 8 | Int(fields[7])
                png.pixelsPerUnit = (x, y, fields[8] == 1)
            case "acTL":
                frames = max(1, Int(try source.uint32(at: offset + 8, bigEndian: true)))
                png.loopCount = Int(try source.uint32(at: offset + 12, bigEndian: true))
            case "fcTL" where png.delay == nil && length >= 26:
                let numerator = Double(try source.uint16(at: offset + 8 + 20, bigEndian: true))
                let denominator = Double(try source.uint16(at: offset + 8 + 22, bigEndian: true))
                // A denominator of 0 means hundredths of a second (APNG's fcTL).
                png.delay = numerator / (denominator == 0 ? 100 : denominator)
            default:
                break
            }
            offset += 12 + length
        }
    }

    // MARK: GIF

    private static func gif(_ source: some ByteSource) throws(ThumbnailError) -> ImageMetadata {
        let screen = try source.bytes(at: 6, count: 7)
        let width = Int(screen[0]) | Int(screen[1]) << 8
        let height = Int(screen[2]) | Int(screen[3]) << 8
        guard width > 0, height > 0 else { throw .corrupt("GIF: the screen is \(width) × \(height) pixels") }
        var offset = 13 + (screen[4] & 0x80 != 0 ? 3 << (Int(screen[4] & 7) + 1) : 0)
        var frames = 0
        var transparent = false
        var gif = ImageMetadata.GIF(hasGlobalColorMap: screen[4] & 0x80 != 0)
        // Files cut short or ending without a trailer are common; once a frame has begun, what was read counts.
        func header() -> ImageMetadata {
            var metadata = ImageMetadata(header: ImageHeader(format: .gif, width: width, height: height, orientation: .up, frameCount: frames,
                                                             hasAlpha: transparent))
            metadata.isIndexed = true
            metadata.gif = gif
            return metadata
        }
        while true {
            guard let introducer = try? source.bytes(at: offset, count: 1)[0] else {
                guard frames > 0 else { throw .endsEarly(at: offset) }
                return header()
            }
            switch introducer {
            case 0x3B:
                guard frames > 0 else { throw .corrupt("GIF: no image") }
                return header()
            case 0x21:
                let label = try source.bytes(at: offset + 1, count: 1)[0]
                if label == 0xF9, let control = try? source.bytes(at: offset + 3, count: 3) {
                    if control[0] & 1 != 0 { transparent = true }
                    if frames == 0 { gif.delay = Double(Int(control[1]) | Int(control[2]) << 8) / 100 }
                }
                // NETSCAPE2.0's loop count: an application extension of 11 bytes, then a sub-block of 3.
                if label == 0xFF, let block = try? source.bytes(at: offset + 2, count: 16), block[0] == 11,
                   Array(block[1...11]) == Array("NETSCAPE2.0".utf8), block[12] == 3, block[13] == 1 {
                    gif.loopCount = Int(block[14]) | Int(block[15]) << 8
                }
                guard let next = try? skipSubBlocks(source, from: offset + 2) else {
                    guard frames > 0 else { throw .endsEarly(at: offset) }
                    return header()
                }
                offset = next
            case 0x2C:
                let descriptor = try source.bytes(at: offset + 1, count: 9)
                frames += 1
                let frameWidth = Int(descriptor[4]) | Int(descriptor[5]) << 8
                let frameHeight = Int(descriptor[6]) | Int(descriptor[7]) << 8
                guard frameWidth > 0, frameHeight > 0 else { throw .corrupt("GIF: frame \(frames) is \(frameWidth) × \(frameHeight) pixels") }
                // A first frame smaller than the screen leaves the rest of it clear.
                if frames == 1 && (frameWidth < width || frameHeight < height) { transparent = true }
                offset += 10 + (descriptor[8] & 0x80 != 0 ? 3 << (Int(descriptor[8] & 7) + 1) : 0)
                guard let next = try? skipSubBlocks(source, from: offset + 1) else { return header() }
                offset = next
            default:
                guard frames > 0 else { throw .corrupt("GIF: an unknown block 0x\(String(introducer, radix: 16)) at byte \(offset)") }
                return header()
            }
        }
    }

    /// The offset after the data sub-blocks that start at `start` (each a size byte, then that many bytes; a size
    /// of 0 ends them).
    static func skipSubBlocks(_ source: some ByteSource, from start: Int) throws(ThumbnailError) -> Int {
        var offset = start
        while true {
            let size = Int(try source.bytes(at: offset, count: 1)[0])
            offset += 1 + size
            if size == 0 { return offset }
        }
    }

    // MARK: TIFF

    /// The first image's size, orientation and alpha, and how many images the file holds.
    private static func tiff(_ source: some ByteSource) throws(ThumbnailError) -> ImageMetadata {
        let (layout, first) = try TIFFDirectory.header(of: source)
        let directory = try TIFFDirectory(source, at: first, layout: layout)
        guard let width = try directory.integer(256, in: source), let height = try directory.integer(257, in: source), width > 0, height > 0 else {
            throw .corrupt("TIFF: the first directory gives no size")
        }
        let orientation = try directory.integer(274, in: source).flatMap(ImageOrientation.init(rawValue:)) ?? .up
        // ExtraSamples: 1 is associated alpha, 2 unassociated.
        let alpha = try directory.integer(338, in: source).map { $0 == 1 || $0 == 2 } ?? false
        // The directories that follow, each another image (pages, or reduced versions); a loop ends the count.
        var frames = 1
        var seen: Set<Int> = [first]
        var next = directory.next
        while next != 0, frames < 10_000, seen.insert(next).inserted, let following = try? TIFFDirectory(source, at: next, layout: layout) {
            frames += 1
            next = following.next
        }
        var metadata = ImageMetadata(header: ImageHeader(format: .tiff, width: width, height: height, orientation: orientation, frameCount: frames,
                                                         hasAlpha: alpha))
        metadata.depth = try directory.integer(258, in: source) ?? 1
        // PhotometricInterpretation: 0 and 1 grey, 3 a palette, 5 CMYK.
        let photometric = try directory.integer(262, in: source)
        metadata.colorModel = photometric == 0 || photometric == 1 ? .gray : photometric == 5 ? .cmyk : .rgb
        metadata.isIndexed = photometric == 3
        metadata.exif = Exif(source, thumbnail: false)
        return metadata
    }

    // MARK: WebP

    private static func webp(_ source: some ByteSource) throws(ThumbnailError) -> ImageMetadata {
        let riffSize = Int(try source.uint32(at: 4, bigEndian: false))
        let end = 8 + riffSize
        var offset = 12
        var size: (Int, Int)?
        var hasAlpha = false
        var exif: Exif?
        var frames = 0
        while offset + 8 <= end {
            let fourCC = String(decoding: try source.bytes(at: offset, count: 4), as: UTF8.self)
            let length = Int(try source.uint32(at: offset + 4, bigEndian: false))
            let body = offset + 8
            switch fourCC {
            case "VP8X":
                let fields = try source.bytes(at: body, count: 10)
                hasAlpha = fields[0] & 0x10 != 0
                size = (1 + (Int(fields[4]) | Int(fields[5]) << 8 | Int(fields[6]) << 16),
                        1 + (Int(fields[7]) | Int(fields[8]) << 8 | Int(fields[9]) << 16))
            case "VP8 " where size == nil:
                let frame = try source.bytes(at: body + 3, count: 7)
                guard Array(frame[0..<3]) == [0x9D, 0x01, 0x2A] else { throw .corrupt("WebP: a VP8 frame without its start code") }
                size = (Int(frame[3]) | Int(frame[4] & 0x3F) << 8, Int(frame[5]) | Int(frame[6] & 0x3F) << 8)
            case "VP8L" where size == nil:
                let bits = try source.bytes(at: body, count: 5)
                guard bits[0] == 0x2F else { throw .corrupt("WebP: a lossless frame without its signature") }
                let packed = UInt32(bits[1]) | UInt32(bits[2]) << 8 | UInt32(bits[3]) << 16 | UInt32(bits[4]) << 24
                size = (Int(packed & 0x3FFF) + 1, Int(packed >> 14 & 0x3FFF) + 1)
                hasAlpha = packed >> 28 & 1 != 0
            case "ANMF":
                frames += 1
            case "EXIF":
                var bytes = try source.bytes(at: body, count: min(length, largestHeaderRead), exact: false)
                // Some writers keep JPEG's "Exif\0\0" prefix.
                if bytes.starts(with: Array("Exif\0\0".utf8)) { bytes.removeFirst(6) }
                exif = Exif(tiff: bytes)
            default:
                break
            }
            offset = body + length + (length & 1)
        }
        guard let (width, height) = size, width > 0, height > 0 else { throw .corrupt("WebP: no frame gives the image's size") }
        var metadata = ImageMetadata(header: ImageHeader(format: .webp, width: width, height: height, orientation: exif?.orientation ?? .up,
                                                         frameCount: max(frames, 1), hasAlpha: hasAlpha))
        metadata.exif = exif
        return metadata
    }
}

/// PNG's text chunks: a keyword, then the text.
enum PNGText {
    /// A tEXt chunk: keyword, NUL, Latin-1 text.
    static func latin1(_ chunk: [UInt8]) -> (keyword: String, text: String)? {
        guard let end = chunk.firstIndex(of: 0), end > 0 else { return nil }
        let latin1 = { (bytes: ArraySlice<UInt8>) in String(bytes.map { Character(Unicode.Scalar($0)) }) }
        return (latin1(chunk[..<end]), latin1(chunk[(end + 1)...]))
    }

    /// An iTXt chunk whose text is not compressed: keyword, NUL, the compression flag and method, a language
    /// tag and a translated keyword (each to a NUL), then UTF-8 text.
    static func international(_ chunk: [UInt8]) -> (keyword: String, text: String)? {
        guard let end = chunk.firstIndex(of: 0), end > 0, chunk.count > end + 2, chunk[end + 1] == 0 else { return nil }
        var rest = chunk[(end + 3)...]
        for _ in 0..<2 {
            guard let next = rest.firstIndex(of: 0) else { return nil }
            rest = rest[(next + 1)...]
        }
        return (String(decoding: chunk[..<end], as: UTF8.self), String(decoding: rest, as: UTF8.self))
    }
}
