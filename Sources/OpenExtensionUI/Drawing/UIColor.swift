public import Foundation
public import OpenImageIO

/// A color: gray or RGB components and alpha, each 0 to 1. Stands in for UIKit's `UIColor`.
// @unchecked: UIKit's UIColor is Sendable in Apple's SDK; an open NSObject subclass the compiler cannot check, its one value immutable.
open class UIColor: NSObject, @unchecked Sendable {
    /// Stands in for `UIColor.cgColor`: a dynamic color's is its color for the device's traits, which do not
    /// change while an extension runs.
    public let cgColor: CGColor
    /// A dynamic color's provider, asked again by `resolvedColor(with:)`.
    private let provider: ((UITraitCollection) -> UIColor)?

    /// Stands in for `UIColor.init(red:green:blue:alpha:)`.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
        provider = nil
    }

    /// Stands in for `UIColor.init(white:alpha:)`.
    public init(white: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(gray: white, alpha: alpha)
        provider = nil
    }

    /// Stands in for `UIColor.init(cgColor:)`.
    public init(cgColor: CGColor) {
        self.cgColor = cgColor
        provider = nil
    }

    /// A color that `dynamicProvider` gives for each set of traits: for the device's (light mode) unless
    /// resolved for others. Stands in for `UIColor.init(dynamicProvider:)`.
    public init(dynamicProvider: @escaping (UITraitCollection) -> UIColor) {
        cgColor = dynamicProvider(UITraitCollection.current).cgColor
        provider = dynamicProvider
    }

    /// The color for `traitCollection`: a dynamic color's provider asked for it, any other color itself.
    /// Stands in for `UIColor.resolvedColor(with:)`.
    open func resolvedColor(with traitCollection: UITraitCollection) -> UIColor {
        provider?(traitCollection) ?? self
    }

    /// Makes this the color the current image context fills with. Stands in for `UIColor.setFill()`.
    open func setFill() {
        UIGraphicsGetCurrentContext()?.setFillColor(cgColor)
    }

    /// The same color with `alpha` for its alpha (clamped to 0…1); a dynamic color's provider is kept, each color
    /// it gives changed so. Stands in for `UIColor.withAlphaComponent(_:)`.
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        if let provider { return UIColor(dynamicProvider: { provider($0).withAlphaComponent(alpha) }) }
        let components = cgColor.components ?? [0, 1]
        let clamped = min(max(alpha, 0), 1)
        return components.count >= 4
            ? UIColor(red: components[0], green: components[1], blue: components[2], alpha: clamped)
            : UIColor(white: components.first ?? 0, alpha: clamped)
    }

    // The fixed colors, with the components Apple's documentation and UIColor.h give each.

    /// Stands in for `UIColor.clear`.
    open class var clear: UIColor { UIColor(white: 0, alpha: 0) }
    /// Stands in for `UIColor.white`.
    open class var white: UIColor { UIColor(white: 1, alpha: 1) }
    /// Stands in for `UIColor.black`.
    open class var black: UIColor { UIColor(white: 0, alpha: 1) }
    /// Stands in for `UIColor.darkGray`: white 1/3.
    open class var darkGray: UIColor { UIColor(white: 1.0 / 3, alpha: 1) }
    /// Stands in for `UIColor.lightGray`: white 2/3.
    open class var lightGray: UIColor { UIColor(white: 2.0 / 3, alpha: 1) }
    /// Stands in for `UIColor.gray`: white 0.5.
    open class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
    /// Stands in for `UIColor.red`.
    open class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    /// Stands in for `UIColor.green`.
    open class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    /// Stands in for `UIColor.blue`.
    open class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    /// Stands in for `UIColor.cyan`.
    open class var cyan: UIColor { UIColor(red: 0, green: 1, blue: 1, alpha: 1) }
    /// Stands in for `UIColor.yellow`.
    open class var yellow: UIColor { UIColor(red: 1, green: 1, blue: 0, alpha: 1) }
    /// Stands in for `UIColor.magenta`.
    open class var magenta: UIColor { UIColor(red: 1, green: 0, blue: 1, alpha: 1) }
    /// Stands in for `UIColor.orange`.
    open class var orange: UIColor { UIColor(red: 1, green: 0.5, blue: 0, alpha: 1) }
    /// Stands in for `UIColor.purple`.
    open class var purple: UIColor { UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    /// Stands in for `UIColor.brown`.
    open class var brown: UIColor { UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }

    // The system and semantic colors adapt to the appearance on iOS; here each is its light appearance, as
    // Apple's Human Interface Guidelines give it (Color: specifications), in 8-bit sRGB.

    /// Stands in for `UIColor.systemRed`.
    open class var systemRed: UIColor { rgb(255, 59, 48) }
    /// Stands in for `UIColor.systemGreen`.
    open class var systemGreen: UIColor { rgb(52, 199, 89) }
    /// Stands in for `UIColor.systemBlue`.
    open class var systemBlue: UIColor { rgb(0, 122, 255) }
    /// Stands in for `UIColor.systemOrange`.
    open class var systemOrange: UIColor { rgb(255, 149, 0) }
    /// Stands in for `UIColor.systemYellow`.
    open class var systemYellow: UIColor { rgb(255, 204, 0) }
    /// Stands in for `UIColor.systemGray`.
    open class var systemGray: UIColor { rgb(142, 142, 147) }
    /// Stands in for `UIColor.label`.
    open class var label: UIColor { UIColor(white: 0, alpha: 1) }
    /// Stands in for `UIColor.secondaryLabel`.
    open class var secondaryLabel: UIColor { rgb(60, 60, 67, alpha: 0.6) }
    /// Stands in for `UIColor.systemBackground`.
    open class var systemBackground: UIColor { UIColor(white: 1, alpha: 1) }
    /// Stands in for `UIColor.secondarySystemBackground`.
    open class var secondarySystemBackground: UIColor { rgb(242, 242, 247) }

    private class func rgb(_ red: Int, _ green: Int, _ blue: Int, alpha: CGFloat = 1) -> UIColor {
        UIColor(red: CGFloat(red) / 255, green: CGFloat(green) / 255, blue: CGFloat(blue) / 255, alpha: alpha)
    }
}
