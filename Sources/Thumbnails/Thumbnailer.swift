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
        let upright = resampler.orientation.swapsAxes ? (resampler.height, resampler.width) : (resampler.width, resampler.height)
        return Thumbnail(width: upright.0, height: upright.1, channels: resampler.channels, pixels: resampler.image)
    }
}

/// An 8-bit image: gray, RGB or RGBA rows, top to bottom.
public struct Thumbnail: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// 1 (gray), 3 (RGB) or 4 (RGBA, not premultiplied).
    public var channels: Int
    public var pixels: [UInt8]

    public enum Encoding: Sendable, Equatable {
        case jpeg(quality: Int)
        case png
    }

    /// This thumbnail made smaller, no larger than `maxPixelSize` on its longer side, by the same area
    /// averaging: several previews of one image come from one decode.
    public func resized(maxPixelSize: Int) -> Thumbnail {
        let size = fittedSize(width: width, height: height, maxPixelSize: Swift.max(1, maxPixelSize))
        guard size != (width, height) else { return self }
        var resampler = Resampler(from: width, height, to: size.0, size.1, channels: channels, orientation: .up, inOrder: true)
        pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height { resampler.add(row: y, pixels: pixels.baseAddress! + y * width * channels, count: width) }
        }
        return Thumbnail(width: size.0, height: size.1, channels: channels, pixels: resampler.image)
    }

    /// Writes the thumbnail as a JPEG (transparency on white) or a PNG.
    public func write(to url: URL, as encoding: Encoding) throws(ThumbnailError) {
        var message = [CChar](repeating: 0, count: Int(TN_MESSAGE_SIZE))
        let status: Int32
        switch encoding {
        case .jpeg(let quality):
            let rgb = rgbOnWhite()
            status = tn_jpeg_write(url.path, rgb, Int32(width), Int32(height), Int32(max(1, min(100, quality))), &message)
        case .png:
            let expanded = channels == 1 ? rgbOnWhite() : pixels
            status = tn_png_write(url.path, expanded, Int32(width), Int32(height), Int32(channels == 1 ? 3 : channels), &message)
        }
        guard status == 0 else {
            throw .unwritable("\(url.path): \(text(message))")
        }
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
