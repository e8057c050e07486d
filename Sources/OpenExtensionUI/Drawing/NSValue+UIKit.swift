public import Foundation

/// Geometry in an `NSValue`, as UIKit boxes it: a keyboard's frame in a notification's `userInfo`
/// (`UIResponder.keyboardFrameEndUserInfoKey`), read back with `cgRectValue`. Foundation on Linux boxes the same
/// values as `rect`, `point` and `size`.
extension NSValue {
    /// Stands in for `NSValue.init(cgRect:)`.
    public convenience init(cgRect rect: CGRect) {
        self.init(rect: rect)
    }

    /// Stands in for `NSValue.cgRectValue`.
    public var cgRectValue: CGRect { rectValue }

    /// Stands in for `NSValue.init(cgPoint:)`.
    public convenience init(cgPoint point: CGPoint) {
        self.init(point: point)
    }

    /// Stands in for `NSValue.cgPointValue`.
    public var cgPointValue: CGPoint { pointValue }

    /// Stands in for `NSValue.init(cgSize:)`.
    public convenience init(cgSize size: CGSize) {
        self.init(size: size)
    }

    /// Stands in for `NSValue.cgSizeValue`.
    public var cgSizeValue: CGSize { sizeValue }
}
