public import Foundation
import CThumbnailCodecs

/// Makes thumbnails the way `CGImageSourceCreateThumbnailAtIndex` does — no larger than a maximum pixel size
/// on the longer side, turned upright — reading the header first and decoding only as much as needed:
/// JPEG at a reduced scale, every format a few rows at a time, within a memory budget and a pixel limit
/// that are checked before anything large is allocated.
///
/// ```swift
/// let thumbnail = try Thumbnailer(maxPixelSize: 300).thumbnail(of: photoURL)
/// try thumbnail.write(to: previewURL, as: .jpeg(quality: 85))
/// ```
public struct Thumbnailer: Sendable {
    /// The longest side of a thumbnail, in pixels (`kCGImageSourceThumbnailMaxPixelSize`).
    public var maxPixelSize: Int
    /// The most pixels an image may declare; more is refused before decoding (a decompression bomb).
    public var pixelLimit: Int
    /// The memory decoding may use, in bytes, beyond the thumbnail itself.
    public var memoryBudget: Int
    /// Whether the orientation is applied (`kCGImageSourceCreateThumbnailWithTransform`).
    public var appliesOrientation: Bool
    /// Whether an embedded thumbnail large enough is used (HEIF), instead of decoding the image.
    public var usesEmbeddedThumbnail: Bool

    public init(maxPixelSize: Int, pixelLimit: Int = 100_000_000, memoryBudget: Int = 16 << 20,
                appliesOrientation: Bool = true, usesEmbeddedThumbnail: Bool = true) {
        self.maxPixelSize = maxPixelSize
        self.pixelLimit = pixelLimit
        self.memoryBudget = memoryBudget
        self.appliesOrientation = appliesOrientation
        self.usesEmbeddedThumbnail = usesEmbeddedThumbnail
    }

    /// The header of the image at `url`: format, stored size, orientation, frames. Reads only the header.
    public static func header(of url: URL) throws(ThumbnailError) -> ImageHeader {
        try HeaderReader.header(of: FileBytes(url)).header
    }

    /// The header of an image in memory.
    public static func header(of data: Data) throws(ThumbnailError) -> ImageHeader {
        try HeaderReader.header(of: BufferBytes(buffer: data)).header
    }

    /// The thumbnail of an image in memory, as a share's data representation delivers one. The bytes are
    /// written to a temporary file first, so that every decoder reads one way, a band at a time.
    public func thumbnail(of data: Data) throws(ThumbnailError) -> Thumbnail {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnail-\(UUID().uuidString)")
        do {
            try data.write(to: file, options: .withoutOverwriting)
        } catch {
            throw .unwritable("cannot keep the image's bytes in a temporary file: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        return try thumbnail(of: file)
    }

    /// What the image at `url` says of itself, read from its header.
    package static func metadata(of url: URL) throws(ThumbnailError) -> ImageMetadata {
        try HeaderReader.metadata(of: FileBytes(url)).metadata
    }

    /// The thumbnail the image at `url` carries (EXIF's JPEG, a HEIF thumbnail item; the largest, when it has
    /// several), no larger than `maxPixelSize` and never enlarged, turned upright when `appliesOrientation`;
    /// `nil` when it carries none.
    package func embeddedThumbnail(of url: URL) throws(ThumbnailError) -> Thumbnail? {
        guard maxPixelSize >= 1 else { throw .unsupported("a maximum pixel size of \(maxPixelSize)") }
        let file = try FileBytes(url)
        let (metadata, heif) = try HeaderReader.metadata(of: file)
        if let heif {
            let request = DecodeRequest(path: url.path, file: file, maxPixelSize: maxPixelSize, orientation: .up, memoryBudget: memoryBudget)
            guard let resampler = try HEIFDecoder.embeddedThumbnail(request, file: heif, appliesOrientation: appliesOrientation) else { return nil }
            return Thumbnail(resampler)
        }
        guard let bytes = metadata.exif?.thumbnail else { return nil }
        var plain = self
        plain.appliesOrientation = false
        let thumbnail = try plain.thumbnail(of: Data(bytes))
        return appliesOrientation ? thumbnail.oriented(metadata.header.orientation) : thumbnail
    }

    /// The thumbnail of the image at `url` (the first frame of an animation).
    public func thumbnail(of url: URL) throws(ThumbnailError) -> Thumbnail {
        guard maxPixelSize >= 1 else { throw .unsupported("a maximum pixel size of \(maxPixelSize)") }
        let file = try FileBytes(url)
        let (header, heif) = try HeaderReader.header(of: file)
        guard header.width <= pixelLimit / max(header.height, 1) else {
            throw .tooManyPixels(width: header.width, height: header.height, limit: pixelLimit)
        }
        let request = DecodeRequest(path: url.path, file: file, maxPixelSize: maxPixelSize,
                                    orientation: appliesOrientation ? header.orientation : .up, memoryBudget: memoryBudget)
        let resampler: Resampler
        switch header.format {
        case .jpeg: resampler = try JPEGDecoder.decode(request)
        case .png: resampler = try PNGDecoder.decode(request)
        case .gif: resampler = try GIFDecoder.decode(request)
        case .webp: resampler = try WebPDecoder.decode(request)
        case .tiff: resampler = try TIFFDecoder.decode(request)
        case .bmp: resampler = try BMPDecoder.decode(request)
        case .heif:
            resampler = try HEIFDecoder.decode(request, file: heif!, appliesOrientation: appliesOrientation,
                                               usingEmbedded: usesEmbeddedThumbnail)
        }
        return Thumbnail(resampler)
    }
}

/// An 8-bit image: gray, RGB or RGBA rows, top to bottom.
public struct Thumbnail: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// 1 (gray), 3 (RGB) or 4 (RGBA, not premultiplied).
    public var channels: Int
    public var pixels: [UInt8]

    package init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The image a resampler made, upright.
    init(_ resampler: Resampler) {
        let upright = resampler.orientation.swapsAxes ? (resampler.height, resampler.width) : (resampler.width, resampler.height)
        self.init(width: upright.0, height: upright.1, channels: resampler.channels, pixels: resampler.image)
    }

    public enum Encoding: Sendable, Equatable {
        case jpeg(quality: Int)
        case png
    }

    /// This thumbnail made smaller, no larger than `maxPixelSize` on its longer side, by the same area
    /// averaging: several previews of one image come from one decode.
    public func resized(maxPixelSize: Int) -> Thumbnail {
        let size = fittedSize(width: width, height: height, maxPixelSize: Swift.max(1, maxPixelSize))
        guard size != (width, height) else { return self }
        return resampled(to: size, orientation: .up)
    }

    /// This thumbnail turned as `orientation` says stored pixels are turned upright.
    package func oriented(_ orientation: ImageOrientation) -> Thumbnail {
        orientation == .up ? self : resampled(to: (width, height), orientation: orientation)
    }

    /// This thumbnail turned upright as `orientation` says and averaged down to exactly `width` × `height`, each
    /// no larger than the upright image's.
    package func scaled(toWidth width: Int, height: Int, orientation: ImageOrientation) -> Thumbnail {
        resampled(to: orientation.swapsAxes ? (height, width) : (width, height), orientation: orientation)
    }

    private func resampled(to size: (Int, Int), orientation: ImageOrientation) -> Thumbnail {
        var resampler = Resampler(from: width, height, to: size.0, size.1, channels: channels, orientation: orientation, inOrder: true)
        pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height { resampler.add(row: y, pixels: pixels.baseAddress! + y * width * channels, count: width) }
        }
        let upright = orientation.swapsAxes ? (size.1, size.0) : size
        return Thumbnail(width: upright.0, height: upright.1, channels: channels, pixels: resampler.image)
    }

    /// RGB made RGBA (opaque) in place, in the room the decoder reserved for it: the pixels are never held twice,
    /// as a bitmap of four bytes a pixel is what ImageIO makes. Gray and RGBA stay as they are.
    package consuming func withFourChannels() -> Thumbnail {
        guard channels == 3 else { return self }
        var pixels = self.pixels
        self.pixels = []
        let count = width * height
        // Grown within the capacity reserved, a block at a time (each a copy, not an element at a time).
        let block = [UInt8](repeating: 255, count: 1 << 16)
        block.withUnsafeBufferPointer { block in
            var added = 0
            while added < count {
                let next = min(block.count, count - added)
                pixels.append(contentsOf: UnsafeBufferPointer(rebasing: block[0..<next]))
                added += next
            }
        }
        pixels.withUnsafeMutableBufferPointer { bytes in
            // From the last pixel back, and each pixel's last byte first: nothing is overwritten before it is read.
            for index in stride(from: count - 1, through: 0, by: -1) {
                bytes[index * 4 + 3] = 255
                bytes[index * 4 + 2] = bytes[index * 3 + 2]
                bytes[index * 4 + 1] = bytes[index * 3 + 1]
                bytes[index * 4] = bytes[index * 3]
            }
        }
        return Thumbnail(width: width, height: height, channels: 4, pixels: pixels)
    }

    /// Writes the thumbnail as a JPEG (transparency on white) or a PNG.
    public func write(to url: URL, as encoding: Encoding) throws(ThumbnailError) {
        try write(to: url, as: encoding, orientation: .up)
    }

    /// Writes the thumbnail as a JPEG (transparency on white) or a PNG, saying in EXIF (APP1; eXIf) that its pixels
    /// are turned upright as `orientation` says, unless they are upright.
    package func write(to url: URL, as encoding: Encoding, orientation: ImageOrientation) throws(ThumbnailError) {
        var message = [CChar](repeating: 0, count: Int(TN_MESSAGE_SIZE))
        let exif = orientation == .up ? [] : Self.exif(orientation: orientation)
        let status: Int32
        switch encoding {
        case .jpeg(let quality):
            let segment = exif.isEmpty ? [] : Array("Exif\0\0".utf8) + exif
            status = tn_jpeg_write(url.path, pixels, Int32(width), Int32(height), Int32(channels), Int32(max(1, min(100, quality))),
                                   segment.isEmpty ? nil : segment, Int32(segment.count), &message)
        case .png:
            status = tn_png_write(url.path, pixels, Int32(width), Int32(height), Int32(channels), exif.isEmpty ? nil : exif, Int32(exif.count), &message)
        }
        guard status == 0 else {
            throw .unwritable("\(url.path): \(text(message))")
        }
    }

    /// A big-endian TIFF structure with one directory of one entry: the orientation (0x0112, a SHORT).
    private static func exif(orientation: ImageOrientation) -> [UInt8] {
        Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation.rawValue), 0, 0, 0, 0, 0, 0]
    }

    /// RGB, with gray expanded and any transparency laid over white.
    func rgbOnWhite() -> [UInt8] {
        switch channels {
        case 3: return pixels
        case 1: return pixels.flatMap { [$0, $0, $0] }
        default:
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for index in 0..<(width * height) {
                let alpha = Int(pixels[index * 4 + 3])
                for channel in 0..<3 {
                    rgb[index * 3 + channel] = UInt8((Int(pixels[index * 4 + channel]) * alpha + 255 * (255 - alpha) + 127) / 255)
                }
            }
            return rgb
        }
    }
}
