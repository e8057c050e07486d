public import Foundation
public import OpenImageIO

/// A color: gray or RGB components and alpha, each 0 to 1. Stands in for UIKit's `UIColor`.
// @unchecked: UIKit's UIColor is Sendable in Apple's SDK; an open NSObject subclass the compiler cannot check, its one value immutable.
open class UIColor: NSObject, @unchecked Sendable {
    /// Stands in for `UIColor.cgColor`.
    public let cgColor: CGColor

    /// Stands in for `UIColor.init(red:green:blue:alpha:)`.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Stands in for `UIColor.init(white:alpha:)`.
    public init(white: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(gray: white, alpha: alpha)
    }

    /// Stands in for `UIColor.init(cgColor:)`.
    public init(cgColor: CGColor) {
        self.cgColor = cgColor
    }

    /// Makes this the color the current image context fills with. Stands in for `UIColor.setFill()`.
    open func setFill() {
        UIGraphicsGetCurrentContext()?.setFillColor(cgColor)
    }

    /// Stands in for `UIColor.clear`.
    open class var clear: UIColor { UIColor(white: 0, alpha: 0) }
    /// Stands in for `UIColor.white`.
    open class var white: UIColor { UIColor(white: 1, alpha: 1) }
    /// Stands in for `UIColor.black`.
    open class var black: UIColor { UIColor(white: 0, alpha: 1) }
}
