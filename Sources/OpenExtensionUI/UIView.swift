public import Foundation
import OpenImageIO

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
