import Foundation

/// What an image file says of itself besides its size, as the header readers find it on their way to the
/// size: what ImageIO's property dictionaries hold. Nothing beyond the header is read.
package struct ImageMetadata: Sendable, Equatable {
    /// How the pixels' colors are given.
    package enum ColorModel: String, Sendable {
        case rgb = "RGB", gray = "Gray", cmyk = "CMYK"
    }

    /// JPEG's JFIF segment.
    package struct JFIF: Sendable, Equatable {
        package var version: [Int]
        /// 0: no unit (an aspect ratio); 1: dots per inch; 2: dots per centimetre.
        package var densityUnit: Int
        package var xDensity: Int
        package var yDensity: Int
    }

    /// PNG's chunks before the image data.
    package struct PNG: Sendable, Equatable {
        package var interlaced = false
        package var gamma: Double?
        package var sRGBIntent: Int?
        /// pHYs: pixels per unit, and whether the unit is the metre.
        package var pixelsPerUnit: (x: Int, y: Int, metre: Bool)?
        /// tEXt and uncompressed iTXt, keyword and text, in the file's order.
        package var texts: [(keyword: String, text: String)] = []
        /// APNG: how many times the animation plays (0: forever), and the first frame's delay in seconds.
        package var loopCount: Int?
        package var delay: Double?

        package static func == (lhs: PNG, rhs: PNG) -> Bool {
            lhs.interlaced == rhs.interlaced && lhs.gamma == rhs.gamma && lhs.sRGBIntent == rhs.sRGBIntent
                && lhs.pixelsPerUnit.map { [$0.x, $0.y, $0.metre ? 1 : 0] } == rhs.pixelsPerUnit.map { [$0.x, $0.y, $0.metre ? 1 : 0] }
                && lhs.texts.map(\.keyword) == rhs.texts.map(\.keyword) && lhs.texts.map(\.text) == rhs.texts.map(\.text)
                && lhs.loopCount == rhs.loopCount && lhs.delay == rhs.delay
        }
    }

    /// GIF's screen and extensions.
    package struct GIF: Sendable, Equatable {
        package var hasGlobalColorMap: Bool
        /// NETSCAPE2.0's loop count (0: forever); `nil` without it (the animation plays once).
        package var loopCount: Int?
        /// The first frame's delay, in seconds, as its graphic control extension gives it.
        package var delay: Double?
    }

    package var header: ImageHeader
    /// Bits per sample.
    package var depth = 8
    package var colorModel = ColorModel.rgb
    /// A palette of colors (GIF; PNG's color type 3).
    package var isIndexed = false
    /// A progressive JPEG.
    package var isProgressive = false
    package var exif: Exif?
    package var jfif: JFIF?
    package var png: PNG?
    package var gif: GIF?

    init(header: ImageHeader) {
        self.header = header
    }
}
