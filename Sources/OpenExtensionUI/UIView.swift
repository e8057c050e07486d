public import Foundation
public import OpenImageIO

/// A view: properties code sets, and nothing drawn (an extension's process here has no screen).
///
/// Stands in for UIKit's `UIView`.
@MainActor
open class UIView: UIResponder {
    /// Options of an animation. Stands in for `UIView.AnimationOptions`.
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
    }

    /// Stands in for `UIView.alpha`.
    open var alpha: CGFloat = 1
    /// Stands in for `UIView.backgroundColor`.
    open var backgroundColor: UIColor?
    /// Stands in for `UIView.isHidden`.
    open var isHidden = false

    /// Stands in for `UIView.init(frame:)`; the frame is kept and not used.
    public init(frame: CGRect) {
        self.frame = frame
        super.init()
    }

    public override convenience init() {
        self.init(frame: .zero)
    }

    /// Stands in for `UIView.frame`.
    open var frame: CGRect

    /// Applies `animations` at once and calls `completion` once the animation would have ended: nothing is on
    /// screen to animate.
    ///
    /// Stands in for `UIView.animate(withDuration:delay:options:animations:completion:)`.
    open class func animate(withDuration duration: TimeInterval, delay: TimeInterval, options: UIView.AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        animations()
        nonisolated(unsafe) let completion = completion
        DispatchQueue.main.asyncAfter(deadline: .now() + delay + duration) { completion?(true) }
    }

    /// Stands in for `UIView.animate(withDuration:animations:)`.
    open class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, animations: animations)
    }
}

/// A color: gray or RGB components and alpha, each 0 to 1. Stands in for UIKit's `UIColor`.
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

/// Editable text, as the compose sheet shows it. Stands in for UIKit's `UITextView`.
@MainActor
open class UITextView: UIView {
    /// Stands in for `UITextView.text`.
    open var text: String! = ""
    /// Stands in for `UITextView.isEditable`.
    open var isEditable = true
}

/// A line of editable text, as an alert's text field is. Stands in for UIKit's `UITextField`.
@MainActor
open class UITextField: UIView {
    /// Stands in for `UITextField.text`.
    open var text: String?
    /// Stands in for `UITextField.placeholder`.
    open var placeholder: String?
    /// Stands in for `UITextField.isSecureTextEntry`.
    open var isSecureTextEntry = false
}
