public import Foundation
public import OpenImageIO

/// What backs a view: its corners, border and shadow as code sets them, kept and drawn nowhere. Stands in for
/// Core Animation's `CALayer`, which UIKit brings.
open class CALayer: NSObject {
    /// Stands in for `CALayer.cornerRadius`.
    open var cornerRadius: CGFloat = 0
    /// The corners `cornerRadius` rounds: all four unless set. Stands in for `CALayer.maskedCorners`.
    open var maskedCorners: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
    /// Stands in for `CALayer.masksToBounds`.
    open var masksToBounds = false
    /// Stands in for `CALayer.borderWidth`.
    open var borderWidth: CGFloat = 0
    /// Stands in for `CALayer.borderColor` (opaque black by default, as Core Animation's).
    open var borderColor: CGColor? = CGColor(gray: 0, alpha: 1)
    /// Stands in for `CALayer.backgroundColor`.
    open var backgroundColor: CGColor?
    /// Stands in for `CALayer.opacity`.
    open var opacity: Float = 1
    /// Stands in for `CALayer.shadowColor` (opaque black by default).
    open var shadowColor: CGColor? = CGColor(gray: 0, alpha: 1)
    /// Stands in for `CALayer.shadowOpacity`.
    open var shadowOpacity: Float = 0
    /// Stands in for `CALayer.shadowOffset` (Core Animation's default: 3 points up).
    open var shadowOffset = CGSize(width: 0, height: -3)
    /// Stands in for `CALayer.shadowRadius`.
    open var shadowRadius: CGFloat = 3
}

/// A layer's corners, by the edges they join. Stands in for Core Animation's `CACornerMask`, with its raw values.
public struct CACornerMask: OptionSet, Sendable, Hashable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
}

extension UIResponder {
    // Posted by nothing here: an extension's process has no keyboard. Observers of them compile and wait.

    /// Stands in for `UIResponder.keyboardWillShowNotification`.
    nonisolated public static let keyboardWillShowNotification = Notification.Name("UIKeyboardWillShowNotification")
    /// Stands in for `UIResponder.keyboardDidShowNotification`.
    nonisolated public static let keyboardDidShowNotification = Notification.Name("UIKeyboardDidShowNotification")
    /// Stands in for `UIResponder.keyboardWillHideNotification`.
    nonisolated public static let keyboardWillHideNotification = Notification.Name("UIKeyboardWillHideNotification")
    /// Stands in for `UIResponder.keyboardDidHideNotification`.
    nonisolated public static let keyboardDidHideNotification = Notification.Name("UIKeyboardDidHideNotification")
    /// Stands in for `UIResponder.keyboardWillChangeFrameNotification`.
    nonisolated public static let keyboardWillChangeFrameNotification = Notification.Name("UIKeyboardWillChangeFrameNotification")
    /// Stands in for `UIResponder.keyboardFrameEndUserInfoKey`.
    nonisolated public static let keyboardFrameEndUserInfoKey = "UIKeyboardFrameEndUserInfoKey"
    /// Stands in for `UIResponder.keyboardAnimationDurationUserInfoKey`.
    nonisolated public static let keyboardAnimationDurationUserInfoKey = "UIKeyboardAnimationDurationUserInfoKey"
    /// Stands in for `UIResponder.keyboardAnimationCurveUserInfoKey`.
    nonisolated public static let keyboardAnimationCurveUserInfoKey = "UIKeyboardAnimationCurveUserInfoKey"
}
