public import Foundation
package import Thumbnails

/// How smoothly images are scaled when drawn, with CoreGraphics' raw values. Every quality averages the
/// pixels an output pixel covers when reducing, and interpolates linearly when enlarging.
///
/// Stands in for CoreGraphics' `CGInterpolationQuality`.
public enum CGInterpolationQuality: Int32, Sendable {
    case `default` = 0, none, low, high, medium
}

/// A color, as gray or RGB components and alpha, each 0 to 1. Stands in for CoreGraphics' `CGColor`.
public final class CGColor: Sendable {
    /// Stands in for `CGColor.components`.
    public let components: [CGFloat]?
    /// Stands in for `CGColor.numberOfComponents`.
    public var numberOfComponents: Int { components?.count ?? 0 }
    /// Stands in for `CGColor.alpha`.
    public var alpha: CGFloat { components?.last ?? 1 }

    /// Stands in for `CGColor.init(red:green:blue:alpha:)`.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
    }

    /// Stands in for `CGColor.init(gray:alpha:)`.
    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, alpha]
    }

    /// The color as RGBA bytes.
    package var bytes: [UInt8] {
        let values = components ?? [0, 1]
        let byte = { (value: CGFloat) in UInt8(max(0, min(255, (value * 255).rounded()))) }
        return values.count == 2 ? [byte(values[0]), byte(values[0]), byte(values[0]), byte(values[1])] : values.map(byte)
    }
}

/// A bitmap to draw into: images, and rectangles filled with a color. Its coordinates are CoreGraphics':
/// the origin at the bottom left, y upward, unless its transform says otherwise (UIKit's contexts flip it, so
/// that a `CGImage` drawn into one with `draw(_:in:)` is upside down, as on Apple's systems). Transforms
/// translate and scale; nothing else is drawn (no paths, text or rotation).
///
/// Stands in for CoreGraphics' `CGContext` (a bitmap context).
// @unchecked: a bitmap context is drawn into from one thread at a time, as CoreGraphics documents.
public final class CGContext: @unchecked Sendable {
    /// The pixels drawn into.
    package private(set) var bitmap: Bitmap
    /// User space to device space: x' = a x + tx, y' = d y + ty (device y upward from the bottom row).
    private var transform: (a: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) = (1, 1, 0, 0)
    private var saved: [(a: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat, fill: [UInt8])] = []
    private var fillColor: [UInt8] = [0, 0, 0, 255]

    /// Device pixels a unit, as the context was made (UIKit's image contexts: the screen's scale).
    package let scale: CGFloat

    /// Stands in for `CGContext.interpolationQuality`.
    public var interpolationQuality: CGInterpolationQuality = .default

    /// A context drawing into a bitmap of its own, of 8-bit samples, RGB or gray as `space` is, with alpha
    /// unless `bitmapInfo` says none; `nil` when `data` is given (drawing into memory of the caller's is not
    /// done here) or the sizes do not make a bitmap.
    ///
    /// Stands in for `CGContext.init?(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int, space: CGColorSpace,
                 bitmapInfo: UInt32) {
        guard data == nil, width >= 1, height >= 1, bitsPerComponent == 8 else { return nil }
        let channels = space.model == .monochrome ? 1 : 4
        guard bytesPerRow == 0 || bytesPerRow >= width * channels else { return nil }
        let alpha = CGImageAlphaInfo(rawValue: bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue) ?? .none
        let hasAlpha = ![.none, .noneSkipLast, .noneSkipFirst].contains(alpha)
        bitmap = Bitmap(width: width, height: height, channels: channels, hasAlpha: hasAlpha, filledWith: [0, 0, 0, hasAlpha ? 0 : 255])
        scale = 1
    }

    /// A context over a new bitmap, flipped as UIKit's are when `flipped` (the origin at the top left, y
    /// downward, `scale` device pixels a unit).
    package init(width: Int, height: Int, opaque: Bool, scale: CGFloat, flipped: Bool) {
        bitmap = Bitmap(width: width, height: height, channels: 4, hasAlpha: !opaque, filledWith: opaque ? [255, 255, 255, 255] : [0, 0, 0, 0])
        transform = flipped ? (scale, -scale, 0, CGFloat(height)) : (scale, scale, 0, 0)
        self.scale = scale
    }

    /// Stands in for `CGContext.width`.
    public var width: Int { bitmap.width }
    /// Stands in for `CGContext.height`.
    public var height: Int { bitmap.height }
    /// Stands in for `CGContext.bitsPerComponent`.
    public var bitsPerComponent: Int { 8 }
    /// Stands in for `CGContext.bitsPerPixel`.
    public var bitsPerPixel: Int { bitmap.channels * 8 }
    /// Stands in for `CGContext.bytesPerRow`.
    public var bytesPerRow: Int { bitmap.width * bitmap.channels }

    /// Stands in for `CGContext.translateBy(x:y:)`.
    public func translateBy(x: CGFloat, y: CGFloat) {
        transform.tx += transform.a * x
        transform.ty += transform.d * y
    }

    /// Stands in for `CGContext.scaleBy(x:y:)`.
    public func scaleBy(x: CGFloat, y: CGFloat) {
        transform.a *= x
        transform.d *= y
    }

    /// Stands in for `CGContext.saveGState()`.
    public func saveGState() {
        saved.append((transform.a, transform.d, transform.tx, transform.ty, fillColor))
    }

    /// Stands in for `CGContext.restoreGState()`.
    public func restoreGState() {
        guard let state = saved.popLast() else { return }
        transform = (state.a, state.d, state.tx, state.ty)
        fillColor = state.fill
    }

    /// Stands in for `CGContext.setFillColor(_:)`.
    public func setFillColor(_ color: CGColor) {
        fillColor = color.bytes
    }

    /// Stands in for `CGContext.setFillColor(red:green:blue:alpha:)`.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// Stands in for `CGContext.setFillColor(gray:alpha:)`.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(gray: gray, alpha: alpha))
    }

    /// Fills `rect` with the fill color, over what is there. Stands in for `CGContext.fill(_:)`.
    public func fill(_ rect: CGRect) {
        guard let box = deviceBox(rect) else { return }
        let color = (fillColor[0], fillColor[1], fillColor[2], fillColor[3])
        composite(at: box) { _, _ in color }
    }

    /// Makes `rect` clear (transparent black; white where the bitmap has no alpha). Stands in for `CGContext.clear(_:)`.
    public func clear(_ rect: CGRect) {
        guard let box = deviceBox(rect) else { return }
        let clear: Pixel = bitmap.hasAlpha ? (0, 0, 0, 0) : (255, 255, 255, 255)
        composite(at: box, replacing: true) { _, _ in clear }
    }

    /// Draws `image` into `rect`, its top edge at the rectangle's greatest y: upright in CoreGraphics' own
    /// coordinates, upside down in a flipped context, as on Apple's systems. `byTiling` is not done here:
    /// the image is drawn once.
    ///
    /// Stands in for `CGContext.draw(_:in:byTiling:)`.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) {
        draw(image, orientation: .up, in: rect, upright: false)
    }

    /// A copy of what is drawn (sharing the pixels until the context draws again).
    ///
    /// Stands in for `CGContext.makeImage()`.
    public func makeImage() -> CGImage? {
        CGImage(bitmap: Bitmap(width: bitmap.width, height: bitmap.height, channels: bitmap.channels, hasAlpha: bitmap.hasAlpha,
                               pixels: bitmap.pixels))
    }

    /// Draws `image`, turned upright as `orientation` says, into `rect`; with `upright`, as UIKit draws images:
    /// its top at the top of the rectangle as the bitmap is seen, however the context is flipped.
    package func draw(_ image: CGImage, orientation: ImageOrientation, in rect: CGRect, upright: Bool) {
        let rect = rect.standardized
        guard let box = deviceBox(rect) else { return }
        // Where the image's top and left edges land in the bitmap (rows downward).
        let topLandsAbove = upright || transform.d > 0
        let mirrored = transform.a < 0
        let source = image.thumbnail
        let opaque = !image.bitmap.hasAlpha
        let turnedSize = orientation.swapsAxes ? (source.height, source.width) : (source.width, source.height)
        // Reduced in both directions: averaged down first (no larger than the image). Enlarged: each pixel
        // sampled from the image as it is drawn, as Core Graphics draws, with no bitmap of the drawn size
        // between (which would cost memory a device does not spend).
        let reduced = box.width <= turnedSize.0 && box.height <= turnedSize.1
        let pixels = reduced ? source.scaled(toWidth: box.width, height: box.height, orientation: orientation) : source.oriented(orientation)
        let sampler = LinearSampler(image: pixels, width: box.width, height: box.height)
        composite(at: box) { x, y in
            let sample = sampler.pixel(x: mirrored ? box.width - 1 - x : x, y: topLandsAbove ? y : box.height - 1 - y)
            return opaque ? (sample.0, sample.1, sample.2, 255) : sample
        }
    }

    /// The whole device pixels `rect` covers, as rows downward; `nil` when it covers none.
    private func deviceBox(_ rect: CGRect) -> (left: Int, top: Int, right: Int, bottom: Int, width: Int, height: Int)? {
        let xs = [transform.a * rect.minX + transform.tx, transform.a * rect.maxX + transform.tx]
        let ys = [transform.d * rect.minY + transform.ty, transform.d * rect.maxY + transform.ty]
        let left = Int(xs.min()!.rounded()), right = Int(xs.max()!.rounded())
        let top = bitmap.height - Int(ys.max()!.rounded()), bottom = bitmap.height - Int(ys.min()!.rounded())
        guard right > left, bottom > top else { return nil }
        return (left, top, right, bottom, right - left, bottom - top)
    }

    /// An RGBA pixel, the alpha not premultiplied.
    typealias Pixel = (UInt8, UInt8, UInt8, UInt8)

    /// Lays `color(x, y)` (for x and y within `box`) over the bitmap where the two meet: source over
    /// destination, or in its place when `replacing`.
    private func composite(at box: (left: Int, top: Int, right: Int, bottom: Int, width: Int, height: Int), replacing: Bool = false,
                           _ color: (Int, Int) -> Pixel) {
        let rows = max(0, box.top)..<min(bitmap.height, box.bottom)
        let columns = max(0, box.left)..<min(bitmap.width, box.right)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let (width, channels, keepsAlpha) = (bitmap.width, bitmap.channels, bitmap.hasAlpha)
        bitmap.pixels.withUnsafeMutableBufferPointer { bytes in
            for y in rows {
                for x in columns {
                    var (red, green, blue, alpha) = color(x - box.left, y - box.top)
                    let index = (y * width + x) * channels
                    if alpha < 255 && !replacing {
                        guard alpha > 0 else { continue }
                        // Source over destination: the destination shows through what the source leaves.
                        let below: Pixel = channels == 1 ? (bytes[index], bytes[index], bytes[index], 255)
                            : (bytes[index], bytes[index + 1], bytes[index + 2], bytes[index + 3])
                        let (top, under) = (Int(alpha), Int(below.3) * (255 - Int(alpha)) / 255)
                        let total = top + under
                        let mix = { (source: UInt8, destination: UInt8) -> UInt8 in
                            UInt8((Int(source) * top + Int(destination) * under + total / 2) / total)
                        }
                        (red, green, blue, alpha) = (mix(red, below.0), mix(green, below.1), mix(blue, below.2), UInt8(total))
                    }
                    if channels == 1 {
                        // Luma, Rec. 601.
                        let luma = 299 * Int(red) + 587 * Int(green) + 114 * Int(blue)
                        bytes[index] = UInt8((luma + 500) / 1000)
                    } else {
                        bytes[index] = red
                        bytes[index + 1] = green
                        bytes[index + 2] = blue
                        bytes[index + 3] = keepsAlpha ? alpha : 255
                    }
                }
            }
        }
    }

    /// `image` turned upright and made exactly `width` × `height`: averaged down where it is reduced in both
    /// directions, interpolated linearly otherwise.
    package static func resample(_ image: Thumbnail, orientation: ImageOrientation, width: Int, height: Int) -> Thumbnail {
        let upright = orientation.swapsAxes ? (image.height, image.width) : (image.width, image.height)
        if width <= upright.0 && height <= upright.1 {
            return image.scaled(toWidth: width, height: height, orientation: orientation)
        }
        let sampler = LinearSampler(image: image.oriented(orientation), width: width, height: height)
        let channels = image.channels
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = sampler.pixel(x: x, y: y)
                let index = (y * width + x) * channels
                if channels == 1 {
                    pixels[index] = pixel.0
                } else {
                    (pixels[index], pixels[index + 1], pixels[index + 2]) = (pixel.0, pixel.1, pixel.2)
                    if channels == 4 { pixels[index + 3] = pixel.3 }
                }
            }
        }
        return Thumbnail(width: width, height: height, channels: channels, pixels: pixels)
    }
}

/// An upright image's pixels read at another size: interpolated linearly between the four nearest (the same
/// pixels when the size is the image's).
struct LinearSampler {
    let image: Thumbnail
    let scaleX: Double, scaleY: Double

    init(image: Thumbnail, width: Int, height: Int) {
        self.image = image
        scaleX = Double(image.width) / Double(width)
        scaleY = Double(image.height) / Double(height)
    }

    /// The pixel at `x`, `y` of the new size, as RGBA (gray repeated; opaque when the image has no alpha).
    func pixel(x: Int, y: Int) -> CGContext.Pixel {
        let (width, height, channels) = (image.width, image.height, image.channels)
        let fx = max(0, min(Double(width - 1), (Double(x) + 0.5) * scaleX - 0.5))
        let fy = max(0, min(Double(height - 1), (Double(y) + 0.5) * scaleY - 0.5))
        let x0 = Int(fx), y0 = Int(fy)
        let x1 = min(width - 1, x0 + 1), y1 = min(height - 1, y0 + 1)
        let wx = fx - Double(x0), wy = fy - Double(y0)
        return image.pixels.withUnsafeBufferPointer { source in
            func value(_ channel: Int) -> UInt8 {
                func at(_ sx: Int, _ sy: Int) -> Double { Double(source[(sy * width + sx) * channels + channel]) }
                let top = at(x0, y0) * (1 - wx) + at(x1, y0) * wx
                let bottom = at(x0, y1) * (1 - wx) + at(x1, y1) * wx
                return UInt8(max(0, min(255, (top * (1 - wy) + bottom * wy).rounded())))
            }
            if channels == 1 {
                let gray = value(0)
                return (gray, gray, gray, 255)
            }
            return (value(0), value(1), value(2), channels == 4 ? value(3) : 255)
        }
    }
}
