public import Foundation
import OpenImageIO

extension UIImage {
    /// How an image is drawn. Stands in for `UIImage.Configuration`.
    // @unchecked: UIKit's configurations are immutable and Sendable; so are these, once made.
    open class Configuration: NSObject, @unchecked Sendable {}

    /// The size and weight a symbol is drawn at. Stands in for `UIImage.SymbolConfiguration`.
    open class SymbolConfiguration: Configuration, @unchecked Sendable {
        /// The point size asked for, 0 for the default.
        public let pointSize: CGFloat
        public let weight: SymbolWeight
        public let scale: SymbolScale
        /// The text style whose size the symbol follows, if one was given.
        public let textStyle: UIFont.TextStyle?

        init(pointSize: CGFloat, weight: SymbolWeight, scale: SymbolScale, textStyle: UIFont.TextStyle?) {
            self.pointSize = pointSize
            self.weight = weight
            self.scale = scale
            self.textStyle = textStyle
        }

        /// Stands in for `UIImage.SymbolConfiguration.init(pointSize:)`.
        public convenience init(pointSize: CGFloat) { self.init(pointSize: pointSize, weight: .unspecified, scale: .unspecified, textStyle: nil) }
        /// Stands in for `UIImage.SymbolConfiguration.init(pointSize:weight:)`.
        public convenience init(pointSize: CGFloat, weight: SymbolWeight) {
            self.init(pointSize: pointSize, weight: weight, scale: .unspecified, textStyle: nil)
        }
        /// Stands in for `UIImage.SymbolConfiguration.init(pointSize:weight:scale:)`.
        public convenience init(pointSize: CGFloat, weight: SymbolWeight, scale: SymbolScale) {
            self.init(pointSize: pointSize, weight: weight, scale: scale, textStyle: nil)
        }
        /// Stands in for `UIImage.SymbolConfiguration.init(weight:)`.
        public convenience init(weight: SymbolWeight) { self.init(pointSize: 0, weight: weight, scale: .unspecified, textStyle: nil) }
        /// Stands in for `UIImage.SymbolConfiguration.init(scale:)`.
        public convenience init(scale: SymbolScale) { self.init(pointSize: 0, weight: .unspecified, scale: scale, textStyle: nil) }
        /// Stands in for `UIImage.SymbolConfiguration.init(textStyle:)`.
        public convenience init(textStyle: UIFont.TextStyle) { self.init(pointSize: 0, weight: .unspecified, scale: .unspecified, textStyle: textStyle) }

        /// The size the symbol is drawn at: the point size given, else the text style's, else the body style's.
        var drawnPointSize: CGFloat {
            pointSize > 0 ? pointSize : (textStyle ?? .body).metrics.size
        }
    }

    /// A symbol's weight. Stands in for `UIImage.SymbolWeight`, with UIKit's raw values.
    public enum SymbolWeight: Int, Sendable {
        case unspecified = 0, ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
    }

    /// A symbol's scale beside text of its size. Stands in for `UIImage.SymbolScale`, with UIKit's raw values.
    public enum SymbolScale: Int, Sendable {
        case `default` = -1, unspecified = 0, small, medium, large
    }

    /// A system symbol's image. There are no symbol artworks here: every name gives a transparent image of the
    /// symbol's size (square, 1.2 times its point size, as wide as the medium scale's; 17 points by default) at
    /// the screen's scale, so code that sizes a view to it, or unwraps it, runs as on a device. A name the
    /// device has no symbol for gives an image here too, where a device gives `nil`.
    ///
    /// Stands in for `UIImage.init(systemName:)`.
    public convenience init?(systemName name: String) {
        self.init(systemName: name, withConfiguration: nil)
    }

    /// Stands in for `UIImage.init(systemName:withConfiguration:)`; see `init(systemName:)`.
    public convenience init?(systemName name: String, withConfiguration configuration: UIImage.Configuration?) {
        guard !name.isEmpty else { return nil }
        let symbol = configuration as? SymbolConfiguration
        let factor: CGFloat = switch symbol?.scale {
        case .small?: 0.8
        case .large?: 1.3
        default: 1
        }
        let points = (symbol?.drawnPointSize ?? UIFont.TextStyle.body.metrics.size) * 1.2 * factor
        let scale = UIScreen.environmentScale
        let pixels = max(1, Int((points * scale).rounded()))
        guard let context = CGContext(data: nil, width: pixels, height: pixels, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue),
              let image = context.makeImage() else { return nil }
        self.init(cgImage: image, scale: scale, orientation: .up)
        isSymbolImage = true
    }
}
