public import Foundation
public import OpenImageIO

extension NSLayoutConstraint {
    /// Stands in for `NSLayoutConstraint.Axis`, with UIKit's raw values.
    public enum Axis: Int, Sendable {
        case horizontal = 0, vertical
    }
}

/// A row or column of views: which, in what order, with what spacing, kept; nothing is laid out here. Stands in
/// for UIKit's `UIStackView`.
@preconcurrency @MainActor
open class UIStackView: UIView {
    /// Never decoded from storyboards here. Stands in for `init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UIStackView.Alignment`, with UIKit's raw values.
    public enum Alignment: Int, Sendable {
        case fill = 0, leading, firstBaseline, center, trailing, lastBaseline
        /// Stands in for `UIStackView.Alignment.top`.
        public static let top = Alignment.leading
        /// Stands in for `UIStackView.Alignment.bottom`.
        public static let bottom = Alignment.trailing
    }

    /// Stands in for `UIStackView.Distribution`, with UIKit's raw values.
    public enum Distribution: Int, Sendable {
        case fill = 0, fillEqually, fillProportionally, equalSpacing, equalCentering
    }

    /// The views arranged, in order; each is a subview too. Stands in for `UIStackView.arrangedSubviews`.
    open private(set) var arrangedSubviews: [UIView] = []
    /// Stands in for `UIStackView.axis`.
    open var axis: NSLayoutConstraint.Axis = .horizontal
    /// Stands in for `UIStackView.spacing`.
    open var spacing: CGFloat = 0
    /// Stands in for `UIStackView.alignment`.
    open var alignment: Alignment = .fill
    /// Stands in for `UIStackView.distribution`.
    open var distribution: Distribution = .fill
    /// Stands in for `UIStackView.isLayoutMarginsRelativeArrangement`.
    open var isLayoutMarginsRelativeArrangement = false
    private var customSpacings: [ObjectIdentifier: CGFloat] = [:]

    /// Stands in for `UIStackView.init(arrangedSubviews:)`.
    public init(arrangedSubviews views: [UIView]) {
        super.init(frame: .zero)
        views.forEach(addArrangedSubview)
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Arranges `view` last, adding it as a subview. Stands in for `UIStackView.addArrangedSubview(_:)`.
    open func addArrangedSubview(_ view: UIView) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Arranges `view` at `stackIndex`, adding it as a subview. Stands in for
    /// `UIStackView.insertArrangedSubview(_:at:)`.
    open func insertArrangedSubview(_ view: UIView, at stackIndex: Int) {
        arrangedSubviews.removeAll { $0 === view }
        if view.superview !== self { addSubview(view) }
        arrangedSubviews.insert(view, at: max(0, min(stackIndex, arrangedSubviews.count)))
    }

    /// No longer arranges `view`, which stays a subview, as in UIKit. Stands in for
    /// `UIStackView.removeArrangedSubview(_:)`.
    open func removeArrangedSubview(_ view: UIView) {
        arrangedSubviews.removeAll { $0 === view }
    }

    /// A subview that leaves the stack is no longer arranged either.
    open override func willRemoveSubview(_ subview: UIView) {
        super.willRemoveSubview(subview)
        removeArrangedSubview(subview)
    }

    /// Stands in for `UIStackView.setCustomSpacing(_:after:)`.
    open func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: UIView) {
        customSpacings[ObjectIdentifier(arrangedSubview)] = spacing
    }

    /// Stands in for `UIStackView.customSpacing(after:)` (UIKit's `spacingUseDefault` where none was set).
    open func customSpacing(after arrangedSubview: UIView) -> CGFloat {
        customSpacings[ObjectIdentifier(arrangedSubview)] ?? UIStackView.spacingUseDefault
    }

    /// Stands in for `UIStackView.spacingUseDefault`.
    public static let spacingUseDefault = CGFloat.greatestFiniteMagnitude
}

/// A spinner: whether it spins, kept; it hides when stopped, as UIKit's does by default. Stands in for UIKit's
/// `UIActivityIndicatorView`.
@preconcurrency @MainActor
open class UIActivityIndicatorView: UIView {
    /// Never decoded from storyboards here. Stands in for `init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UIActivityIndicatorView.Style`, with UIKit's raw values.
    public enum Style: Int, Sendable {
        case medium = 100, large = 101
    }

    /// Stands in for `UIActivityIndicatorView.style`.
    open var style: Style
    /// Stands in for `UIActivityIndicatorView.color`.
    open var color: UIColor!
    /// Stands in for `UIActivityIndicatorView.hidesWhenStopped`.
    open var hidesWhenStopped = true {
        didSet { if hidesWhenStopped && !isAnimating { isHidden = true } }
    }
    /// Stands in for `UIActivityIndicatorView.isAnimating`.
    open private(set) var isAnimating = false

    /// Stands in for `UIActivityIndicatorView.init(style:)`.
    public init(style: Style) {
        self.style = style
        super.init(frame: .zero)
        isHidden = true
    }

    public override init(frame: CGRect) {
        style = .medium
        super.init(frame: frame)
        isHidden = true
    }

    /// Stands in for `UIActivityIndicatorView.startAnimating()`.
    open func startAnimating() {
        isAnimating = true
        isHidden = false
    }

    /// Stands in for `UIActivityIndicatorView.stopAnimating()`.
    open func stopAnimating() {
        isAnimating = false
        if hidesWhenStopped { isHidden = true }
    }
}
