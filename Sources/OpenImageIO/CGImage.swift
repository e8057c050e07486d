public import Foundation
public import OpenCoreFoundation
package import Thumbnails

/// A decoded image: a bitmap of 8-bit samples, gray (one a pixel) or RGBA (four, the alpha not premultiplied;
/// opaque images have 255 there), rows top to bottom. What it costs in memory is what its pixels cost, as on
/// Apple's systems: width × height × 4 bytes for color.
///
/// Stands in for CoreGraphics' `CGImage`.
// @unchecked: immutable once made, as CoreGraphics' CGImage; its bitmap is shared with images cropped from it, never written after.
public final class CGImage: @unchecked Sendable {
    /// The pixels, which a cropped image shares with the image it was cropped from.
    package let bitmap: Bitmap
    /// Where this image's top-left pixel is in the bitmap.
    private let origin: (x: Int, y: Int)

    /// Stands in for `CGImage.width`.
    public let width: Int
    /// Stands in for `CGImage.height`.
    public let height: Int
    /// The type of the file the image was read from, if it was. Stands in for `CGImage.utType`.
    public let utType: CFString?

    package init(bitmap: Bitmap, utType: CFString? = nil) {
        self.bitmap = bitmap
        origin = (0, 0)
        width = bitmap.width
        height = bitmap.height
        self.utType = utType
    }

    private init(cropping image: CGImage, to rect: (x: Int, y: Int, width: Int, height: Int)) {
        bitmap = image.bitmap
        origin = (image.origin.x + rect.x, image.origin.y + rect.y)
        width = rect.width
        height = rect.height
        utType = image.utType
    }

    /// A decoded image as a bitmap; gray stays one sample a pixel, RGB becomes RGBA in place.
    package convenience init(_ thumbnail: consuming Thumbnail, hasAlpha: Bool, utType: CFString? = nil) {
        let image = thumbnail.withFourChannels()
        self.init(bitmap: Bitmap(width: image.width, height: image.height, channels: image.channels, hasAlpha: hasAlpha && image.channels == 4,
                                 pixels: image.pixels), utType: utType)
    }

    /// Stands in for `CGImage.bitsPerComponent`.
    public var bitsPerComponent: Int { 8 }
    /// Stands in for `CGImage.bitsPerPixel`.
    public var bitsPerPixel: Int { bitmap.channels * 8 }
    /// The bytes from one row to the next, the whole bitmap's (a cropped image's rows lie in the image it was
    /// cropped from). Stands in for `CGImage.bytesPerRow`.
    public var bytesPerRow: Int { bitmap.width * bitmap.channels }

    /// Stands in for `CGImage.alphaInfo`: `.last` with alpha, `.noneSkipLast` for opaque color, `.none` for gray.
    public var alphaInfo: CGImageAlphaInfo {
        bitmap.channels == 1 ? .none : bitmap.hasAlpha ? .last : .noneSkipLast
    }

    /// Stands in for `CGImage.bitmapInfo`: the alpha info, bytes in memory order (R, G, B, A).
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: alphaInfo.rawValue) }

    /// Stands in for `CGImage.colorSpace`: sRGB, or gray.
    public var colorSpace: CGColorSpace? {
        bitmap.channels == 1 ? CGColorSpaceCreateDeviceGray() : CGColorSpaceCreateDeviceRGB()
    }

    /// The pixels' bytes, as `bytesPerRow` lays them out, from this image's first pixel. Reading them copies
    /// them, as `CGDataProviderCopyData` does. Stands in for `CGImage.dataProvider`.
    public var dataProvider: CGDataProvider? {
        let start = (origin.y * bitmap.width + origin.x) * bitmap.channels
        let count = (height - 1) * bytesPerRow + width * bitmap.channels
        return bitmap.pixels.withUnsafeBufferPointer { pixels in
            CGDataProvider(data: NSData(bytes: pixels.baseAddress! + start, length: count))
        }
    }

    /// The part of the image inside `rect` (made integral), sharing its pixels; `nil` when they do not meet.
    ///
    /// Stands in for `CGImage.cropping(to:)`.
    public func cropping(to rect: CGRect) -> CGImage? {
        let bounds = CGRect(x: 0, y: 0, width: width, height: height)
        let inside = rect.standardized.integral.intersection(bounds)
        guard !inside.isNull, inside.width >= 1, inside.height >= 1 else { return nil }
        return CGImage(cropping: self, to: (Int(inside.minX), Int(inside.minY), Int(inside.width), Int(inside.height)))
    }

    /// This image's pixels as a thumbnail of their own (gray, or RGBA): a copy when cropped, else the bitmap's.
    package var thumbnail: Thumbnail {
        guard origin != (0, 0) || width != bitmap.width || height != bitmap.height else {
            return Thumbnail(width: width, height: height, channels: bitmap.channels, pixels: bitmap.pixels)
        }
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * bitmap.channels)
        for row in 0..<height {
            let start = ((origin.y + row) * bitmap.width + origin.x) * bitmap.channels
            pixels += bitmap.pixels[start..<(start + width * bitmap.channels)]
        }
        return Thumbnail(width: width, height: height, channels: bitmap.channels, pixels: pixels)
    }
}

/// The pixels of an image: `channels` bytes a pixel (1: gray; 4: RGBA, not premultiplied), rows top to bottom.
// @unchecked: written only by the context that draws it, before an image is made of it; read-only after.
package final class Bitmap: @unchecked Sendable {
    package let width: Int
    package let height: Int
    package let channels: Int
    package let hasAlpha: Bool
    package var pixels: [UInt8]

    package init(width: Int, height: Int, channels: Int, hasAlpha: Bool, pixels: [UInt8]) {
        precondition(pixels.count == width * height * channels && (channels == 1 || channels == 4))
        self.width = width
        self.height = height
        self.channels = channels
        self.hasAlpha = hasAlpha
        self.pixels = pixels
    }

    /// A bitmap of `color` (gray or RGBA, four values), every pixel.
    package convenience init(width: Int, height: Int, channels: Int, hasAlpha: Bool, filledWith color: [UInt8]) {
        let count = width * height * channels
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let pattern = Array(color.prefix(channels))
            if Set(pattern).count == 1 {
                buffer.baseAddress!.initialize(repeating: pattern[0], count: count)
            } else {
                for offset in stride(from: 0, to: count, by: channels) {
                    (buffer.baseAddress! + offset).initialize(from: pattern, count: channels)
                }
            }
            initialized = count
        }
        self.init(width: width, height: height, channels: channels, hasAlpha: hasAlpha, pixels: pixels)
    }
}

/// How a bitmap's pixels hold alpha, with CoreGraphics' raw values.
///
/// Stands in for CoreGraphics' `CGImageAlphaInfo`.
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}

/// A bitmap's layout: its alpha info in the low bits, its byte order and whether samples are floats.
///
/// Stands in for CoreGraphics' `CGBitmapInfo`.
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
}

/// The model of a color space, with CoreGraphics' raw values. Stands in for CoreGraphics' `CGColorSpaceModel`.
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1, monochrome, rgb, cmyk, lab, deviceN, indexed, pattern, XYZ
}

/// A color space: sRGB, or gray. Stands in for CoreGraphics' `CGColorSpace`.
// @unchecked: it holds a CFString (an NSString), immutable, which Swift does not see as Sendable.
public final class CGColorSpace: @unchecked Sendable {
    /// Stands in for `CGColorSpace.name`.
    public let name: CFString?
    /// Stands in for `CGColorSpace.model`.
    public let model: CGColorSpaceModel

    /// Stands in for `CGColorSpace.sRGB`.
    nonisolated(unsafe) public static let sRGB: CFString = ConstantString("kCGColorSpaceSRGB")
    /// Stands in for `CGColorSpace.genericGrayGamma2_2`.
    nonisolated(unsafe) public static let genericGrayGamma2_2: CFString = ConstantString("kCGColorSpaceGenericGrayGamma2_2")
    /// Stands in for `CGColorSpace.linearGray`.
    nonisolated(unsafe) public static let linearGray: CFString = ConstantString("kCGColorSpaceLinearGray")

    /// The color space `name` names, if it is one here (sRGB and the grays). Stands in for `CGColorSpace.init?(name:)`.
    public init?(name: CFString) {
        if name.isEqual(to: CGColorSpace.sRGB as String) {
            model = .rgb
        } else if name.isEqual(to: CGColorSpace.genericGrayGamma2_2 as String) || name.isEqual(to: CGColorSpace.linearGray as String) {
            model = .monochrome
        } else {
            return nil
        }
        self.name = name
    }

    /// Stands in for `CGColorSpace.numberOfComponents`.
    public var numberOfComponents: Int { model == .monochrome ? 1 : 3 }
}

/// Stands in for CoreGraphics' `CGColorSpaceCreateDeviceRGB()`.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.sRGB)! }

/// Stands in for CoreGraphics' `CGColorSpaceCreateDeviceGray()`.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)! }

/// Bytes an image's pixels can be read from. Stands in for CoreGraphics' `CGDataProvider`.
// @unchecked: it holds CFData (an NSData), immutable, which Swift does not see as Sendable.
public final class CGDataProvider: @unchecked Sendable {
    private let bytes: CFData

    /// Stands in for `CGDataProvider.init?(data:)`.
    public init?(data: CFData) {
        bytes = data
    }

    /// Stands in for `CGDataProvider.data`.
    public var data: CFData? { bytes }
}
