public import Foundation
import OpenImageIO

/// A view: properties code sets, and nothing drawn (an extension's process here has no screen).
///
/// Stands in for UIKit's `UIView`.
@preconcurrency @MainActor
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

    // What VoiceOver reads; kept, read by nothing here. On iOS these are NSObject's (the informal
    // UIAccessibility protocol) and UIAccessibilityIdentification's; here a view holds them.

    /// Stands in for `isAccessibilityElement`.
    open var isAccessibilityElement = false
    /// Stands in for `accessibilityLabel`.
    open var accessibilityLabel: String?
    /// Stands in for `accessibilityHint`.
    open var accessibilityHint: String?
    /// Stands in for `accessibilityValue`.
    open var accessibilityValue: String?
    /// Stands in for `accessibilityIdentifier`.
    open var accessibilityIdentifier: String?
    /// Stands in for `accessibilityTraits`.
    open var accessibilityTraits: UIAccessibilityTraits = .none

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

/// What an accessibility element is and does. Stands in for UIKit's `UIAccessibilityTraits`; the bits are this
/// module's own, not UIKit's numbers.
public struct UIAccessibilityTraits: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let none = UIAccessibilityTraits([])
    public static let button = UIAccessibilityTraits(rawValue: 1 << 0)
    public static let link = UIAccessibilityTraits(rawValue: 1 << 1)
    public static let image = UIAccessibilityTraits(rawValue: 1 << 2)
    public static let selected = UIAccessibilityTraits(rawValue: 1 << 3)
    public static let staticText = UIAccessibilityTraits(rawValue: 1 << 6)
    public static let notEnabled = UIAccessibilityTraits(rawValue: 1 << 8)
    public static let searchField = UIAccessibilityTraits(rawValue: 1 << 10)
    public static let adjustable = UIAccessibilityTraits(rawValue: 1 << 12)
    public static let header = UIAccessibilityTraits(rawValue: 1 << 16)
}
