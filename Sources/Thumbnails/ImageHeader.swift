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
        switch try format(of: source) {
        case .jpeg: return (try jpeg(source), nil)
        case .png: return (try png(source), nil)
        case .gif: return (try gif(source), nil)
        case .webp: return (try webp(source), nil)
        case .tiff: return (try tiff(source), nil)
        case .bmp:
            let layout = try BMPLayout(source)
            return (ImageHeader(format: .bmp, width: layout.width, height: layout.height, orientation: .up, frameCount: 1,
                                hasAlpha: layout.masks?.alpha ?? 0 != 0), nil)
        case .heif:
            let file = try HEIFFile.read(source)
            return (try file.header(), file)
        }
    }

    // MARK: JPEG

    private static func jpeg(_ source: some ByteSource) throws(ThumbnailError) -> ImageHeader {
        var offset = 2
        var orientation = ImageOrientation.up
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
            case 0xE1:
                let payload = try source.bytes(at: offset + 4, count: length - 2, exact: false)
                if payload.starts(with: Array("Exif\0\0".utf8)), let found = Exif.orientation(in: Array(payload.dropFirst(6))) {
                    orientation = found
                }
            case 0xC0...0xCF where code != 0xC4 && code != 0xC8 && code != 0xCC:
                let frame = try source.bytes(at: offset + 4, count: 6)
                let height = Int(frame[1]) << 8 | Int(frame[2])
                let width = Int(frame[3]) << 8 | Int(frame[4])
                guard width > 0, height > 0 else { throw .corrupt("JPEG: the frame header declares \(width) × \(height) pixels") }
                guard (1...4).contains(frame[5]) else { throw .corrupt("JPEG: \(frame[5]) color components") }
                return ImageHeader(format: .jpeg, width: width, height: height, orientation: orientation, frameCount: 1, hasAlpha: false)
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

    private static func png(_ source: some ByteSource) throws(ThumbnailError) -> ImageHeader {
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
        var exifOrientation: ImageOrientation?
        var xmpOrientation: ImageOrientation?
        var frames = 1
        // The chunks before the image data: transparency, orientation (eXIf, else XMP's tiff:Orientation in an
        // iTXt chunk, as ImageIO reads it: see docs/thumbnails.md), animation (acTL).
        var offset = 33
        while true {
            let length = Int(try source.uint32(at: offset, bigEndian: true))
            let type = String(decoding: try source.bytes(at: offset + 4, count: 4), as: UTF8.self)
            guard length <= Int(Int32.max) else { throw .corrupt("PNG: a chunk of \(length) bytes at byte \(offset)") }
            switch type {
            case "IDAT", "IEND":
                return ImageHeader(format: .png, width: width, height: height, orientation: exifOrientation ?? xmpOrientation ?? .up,
                                   frameCount: frames, hasAlpha: hasAlpha)
            case "tRNS":
                hasAlpha = true
            case "eXIf":
                exifOrientation = Exif.orientation(in: try source.bytes(at: offset + 8, count: min(length, 1 << 16), exact: false))
            case "iTXt":
                let text = try source.bytes(at: offset + 8, count: min(length, 1 << 16), exact: false)
                xmpOrientation = XMP.orientation(inTextChunk: text) ?? xmpOrientation
            case "acTL":
                frames = max(1, Int(try source.uint32(at: offset + 8, bigEndian: true)))
            default:
                break
            }
            offset += 12 + length
        }
    }

    // MARK: GIF

    private static func gif(_ source: some ByteSource) throws(ThumbnailError) -> ImageHeader {
        let screen = try source.bytes(at: 6, count: 7)
        let width = Int(screen[0]) | Int(screen[1]) << 8
        let height = Int(screen[2]) | Int(screen[3]) << 8
        guard width > 0, height > 0 else { throw .corrupt("GIF: the screen is \(width) × \(height) pixels") }
        var offset = 13 + (screen[4] & 0x80 != 0 ? 3 << (Int(screen[4] & 7) + 1) : 0)
        var frames = 0
        var transparent = false
        // Files cut short or ending without a trailer are common; once a frame has begun, what was read counts.
        func header() -> ImageHeader {
            ImageHeader(format: .gif, width: width, height: height, orientation: .up, frameCount: frames, hasAlpha: transparent)
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
                if label == 0xF9, try source.bytes(at: offset + 3, count: 1)[0] & 1 != 0 { transparent = true }
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
    private static func tiff(_ source: some ByteSource) throws(ThumbnailError) -> ImageHeader {
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
        return ImageHeader(format: .tiff, width: width, height: height, orientation: orientation, frameCount: frames, hasAlpha: alpha)
    }

    // MARK: WebP

    private static func webp(_ source: some ByteSource) throws(ThumbnailError) -> ImageHeader {
        let riffSize = Int(try source.uint32(at: 4, bigEndian: false))
        let end = 8 + riffSize
        var offset = 12
        var size: (Int, Int)?
        var hasAlpha = false
        var orientation = ImageOrientation.up
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
                var exif = try source.bytes(at: body, count: min(length, 1 << 16), exact: false)
                // Some writers keep JPEG's "Exif\0\0" prefix.
                if exif.starts(with: Array("Exif\0\0".utf8)) { exif.removeFirst(6) }
                if let found = Exif.orientation(in: exif) { orientation = found }
            default:
                break
            }
            offset = body + length + (length & 1)
        }
        guard let (width, height) = size, width > 0, height > 0 else { throw .corrupt("WebP: no frame gives the image's size") }
        return ImageHeader(format: .webp, width: width, height: height, orientation: orientation, frameCount: max(frames, 1), hasAlpha: hasAlpha)
    }
}
