public import Foundation
import OpenImageIO

/// A view: properties code sets, and nothing drawn (an extension's process here has no screen).
///
/// Stands in for UIKit's `UIView`.
@preconcurrency @MainActor
open class UIView: UIResponder {
    /// How a view's content fills it. Stands in for `UIView.ContentMode`, with UIKit's raw values.
    public enum ContentMode: Int, Sendable {
        case scaleToFill = 0, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    }

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
    /// The device's traits (`UITraitEnvironment`): a phone in portrait at the screen's scale, light mode.
    /// Stands in for `traitCollection`.
    open var traitCollection: UITraitCollection { .device }
    /// Called when the traits change, which they never do while an extension runs here.
    /// Stands in for `traitCollectionDidChange(_:)`.
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}
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

    /// Views are never decoded from storyboards or nibs here: this fails, so a subclass's
    /// `required init?(coder:)` that calls `super.init(coder:)` compiles, as with UIKit, and makes no view.
    /// Stands in for `UIView.init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    public override convenience init() {
        self.init(frame: .zero)
    }

    /// Stands in for `UIView.frame`.
    open var frame: CGRect

    /// The frame's size at the origin: setting it sets the frame's size. Stands in for `UIView.bounds`.
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: frame.size) }
        set { frame.size = newValue.size }
    }

    /// The frame's centre: setting it moves the frame. Stands in for `UIView.center`.
    open var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
    }

    /// What backs the view: corners, border and shadow, kept. Stands in for `UIView.layer`.
    public let layer = CALayer()

    /// Stands in for `UIView.tag`.
    open var tag = 0
    /// Stands in for `UIView.clipsToBounds`.
    open var clipsToBounds = false
    /// Stands in for `UIView.isUserInteractionEnabled`.
    open var isUserInteractionEnabled = true
    /// Stands in for `UIView.contentMode`.
    open var contentMode: UIView.ContentMode = .scaleToFill
    /// Stands in for `UIView.tintColor`.
    open var tintColor: UIColor! = .systemBlue

    /// Whether this view is the root of a hierarchy the system shows (`ExtensionPresenter`).
    var isShownRoot = false

    /// Whether the view is in a hierarchy the system shows: what being in a window is on iOS.
    var isOnScreen: Bool {
        var root = self
        while let holder = root.superview { root = holder }
        return root.isShownRoot
    }

    /// The views this one holds, back to front. Stands in for `UIView.subviews`.
    open private(set) var subviews: [UIView] = []
    /// The view that holds this one. Stands in for `UIView.superview`.
    open private(set) weak var superview: UIView?

    /// Whether the frame is to be turned into constraints (kept: nothing lays views out here). Stands in for
    /// `UIView.translatesAutoresizingMaskIntoConstraints`.
    open var translatesAutoresizingMaskIntoConstraints = true
    /// The constraints this view holds: those added to it, and those activated whose closest common ancestor it
    /// is. Stands in for `UIView.constraints`.
    open internal(set) var constraints: [NSLayoutConstraint] = []

    /// Puts `view` in front of the others, taking it from its superview first. Stands in for `UIView.addSubview(_:)`.
    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count)
    }

    /// Puts `view` at `index` among the subviews (clamped to them), taking it from its superview first. Stands in
    /// for `UIView.insertSubview(_:at:)`.
    open func insertSubview(_ view: UIView, at index: Int) {
        guard view !== self else { return }
        if view.superview === self, let at = subviews.firstIndex(where: { $0 === view }) { subviews.remove(at: at) } else { view.removeFromSuperview() }
        view.willMove(toSuperview: self)
        subviews.insert(view, at: max(0, min(index, subviews.count)))
        view.superview = self
        view.didMoveToSuperview()
        didAddSubview(view)
    }

    /// Stands in for `UIView.bringSubviewToFront(_:)`.
    open func bringSubviewToFront(_ view: UIView) {
        guard let at = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.append(subviews.remove(at: at))
    }

    /// Stands in for `UIView.sendSubviewToBack(_:)`.
    open func sendSubviewToBack(_ view: UIView) {
        guard let at = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.insert(subviews.remove(at: at), at: 0)
    }

    /// Takes the view from its superview, and with it the constraints its former ancestors held that name it
    /// or a view beneath it, as UIKit removes them. Stands in for `UIView.removeFromSuperview()`.
    open func removeFromSuperview() {
        guard let superview else { return }
        superview.willRemoveSubview(self)
        willMove(toSuperview: nil)
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
        var ancestor: UIView? = superview
        while let holder = ancestor {
            for constraint in holder.constraints where constraint.views.contains(where: { $0.isDescendant(of: self) }) {
                constraint.isActive = false
            }
            ancestor = holder.superview
        }
        didMoveToSuperview()
    }

    /// Whether this view is `view` or beneath it. Stands in for `UIView.isDescendant(of:)`.
    open func isDescendant(of view: UIView) -> Bool {
        var current: UIView? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    /// This view or the first beneath it, depth first, whose tag is `tag`. Stands in for `UIView.viewWithTag(_:)`.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    /// Stands in for `UIView.willMove(toSuperview:)`.
    open func willMove(toSuperview newSuperview: UIView?) {}
    /// Stands in for `UIView.didMoveToSuperview()`.
    open func didMoveToSuperview() {}
    /// Stands in for `UIView.didAddSubview(_:)`.
    open func didAddSubview(_ subview: UIView) {}
    /// Stands in for `UIView.willRemoveSubview(_:)`.
    open func willRemoveSubview(_ subview: UIView) {}

    /// Adds `constraint` to those this view holds, and activates it. Stands in for `UIView.addConstraint(_:)`.
    open func addConstraint(_ constraint: NSLayoutConstraint) {
        constraint.activate(in: self)
    }

    /// Stands in for `UIView.addConstraints(_:)`.
    open func addConstraints(_ constraints: [NSLayoutConstraint]) {
        constraints.forEach(addConstraint)
    }

    /// Stands in for `UIView.removeConstraint(_:)`.
    open func removeConstraint(_ constraint: NSLayoutConstraint) {
        if constraints.contains(where: { $0 === constraint }) { constraint.isActive = false }
    }

    /// Stands in for `UIView.removeConstraints(_:)`.
    open func removeConstraints(_ constraints: [NSLayoutConstraint]) {
        constraints.forEach(removeConstraint)
    }

    /// Nothing is laid out here: frames are what code sets them to, and constraints are kept, not solved. Stands
    /// in for `UIView.setNeedsLayout()`.
    open func setNeedsLayout() {}
    /// Calls `layoutSubviews()` on this view and then on each beneath it, as UIKit does when a layout is pending;
    /// frames stay as set. Stands in for `UIView.layoutIfNeeded()`.
    open func layoutIfNeeded() {
        layoutSubviews()
        for subview in subviews { subview.layoutIfNeeded() }
    }
    /// Stands in for `UIView.layoutSubviews()`.
    open func layoutSubviews() {}

    /// Stands in for `UIView.leadingAnchor`.
    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .leading) }
    /// Stands in for `UIView.trailingAnchor`.
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .trailing) }
    /// Stands in for `UIView.leftAnchor`.
    public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .left) }
    /// Stands in for `UIView.rightAnchor`.
    public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .right) }
    /// Stands in for `UIView.centerXAnchor`.
    public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .centerX) }
    /// Stands in for `UIView.topAnchor`.
    public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .top) }
    /// Stands in for `UIView.bottomAnchor`.
    public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .bottom) }
    /// Stands in for `UIView.centerYAnchor`.
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .centerY) }
    /// Stands in for `UIView.firstBaselineAnchor`.
    public var firstBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .firstBaseline) }
    /// Stands in for `UIView.lastBaselineAnchor`.
    public var lastBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .lastBaseline) }
    /// How far the safe area is inset from the bounds: nowhere, as nothing insets them here. Stands in for
    /// `UIView.safeAreaInsets`.
    open var safeAreaInsets: UIEdgeInsets { .zero }
    /// The margins code lays content out within: 8 points on each side unless set, as UIKit's default. Kept;
    /// `layoutMarginsGuide` does not follow them, as nothing is laid out here. Stands in for `UIView.layoutMargins`.
    open var layoutMargins = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
    /// The margins by leading and trailing edge, which a left-to-right layout reads as left and right: the same
    /// margins as `layoutMargins`. Stands in for `UIView.directionalLayoutMargins`.
    open var directionalLayoutMargins: NSDirectionalEdgeInsets {
        get { NSDirectionalEdgeInsets(top: layoutMargins.top, leading: layoutMargins.left, bottom: layoutMargins.bottom, trailing: layoutMargins.right) }
        set { layoutMargins = UIEdgeInsets(top: newValue.top, left: newValue.leading, bottom: newValue.bottom, right: newValue.trailing) }
    }
    /// How the view would be resized with its superview: kept, as nothing is laid out here. Stands in for
    /// `UIView.autoresizingMask`.
    open var autoresizingMask: AutoresizingMask = []
    /// The view's safe area: its bounds, as nothing insets them here. Stands in for `UIView.safeAreaLayoutGuide`.
    public private(set) lazy var safeAreaLayoutGuide = UILayoutGuide(owningView: self, identifier: "UIViewSafeAreaLayoutGuide")
    /// The view's margins: its bounds, as nothing insets them here. Stands in for `UIView.layoutMarginsGuide`.
    public private(set) lazy var layoutMarginsGuide = UILayoutGuide(owningView: self, identifier: "UIViewLayoutMarginsGuide")

    /// Stands in for `UIView.widthAnchor`.
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(self, .width) }
    /// Stands in for `UIView.heightAnchor`.
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(self, .height) }

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

    /// Stands in for `UIView.animate(withDuration:animations:completion:)`.
    open class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        animate(withDuration: duration, delay: 0, animations: animations, completion: completion)
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

extension UIView {
    /// Which of a view's margins and sizes follow its superview's size. Stands in for UIKit's
    /// `UIView.AutoresizingMask`.
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }
}

