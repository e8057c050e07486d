public import Foundation
public import OpenImageIO

/// Distances inward from each edge of a rectangle. Stands in for UIKit's `UIEdgeInsets`.
public struct UIEdgeInsets: Equatable, Sendable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat

    /// Stands in for `UIEdgeInsets.init(top:left:bottom:right:)`.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public init() {
        self.init(top: 0, left: 0, bottom: 0, right: 0)
    }

    /// Stands in for `UIEdgeInsets.zero`.
    public static let zero = UIEdgeInsets()
}

/// Distances inward from each edge, by leading and trailing edge rather than left and right. Stands in for
/// UIKit's `NSDirectionalEdgeInsets`.
public struct NSDirectionalEdgeInsets: Equatable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat

    /// Stands in for `NSDirectionalEdgeInsets.init(top:leading:bottom:trailing:)`.
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public init() {
        self.init(top: 0, leading: 0, bottom: 0, trailing: 0)
    }

    /// Stands in for `NSDirectionalEdgeInsets.zero`.
    public static let zero = NSDirectionalEdgeInsets()
}

/// Told what a scroll view does. Stands in for UIKit's `UIScrollViewDelegate`; every requirement has a default
/// that does nothing, as its optional methods are.
@MainActor
public protocol UIScrollViewDelegate: NSObjectProtocol {
    /// Stands in for `UIScrollViewDelegate.scrollViewDidScroll(_:)`.
    func scrollViewDidScroll(_ scrollView: UIScrollView)
}

extension UIScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
}

/// A view whose content may be larger than it: the offset, size and insets code sets, kept; a person scrolls
/// nothing here. Stands in for UIKit's `UIScrollView`.
@preconcurrency @MainActor
open class UIScrollView: UIView {
    /// Setting it tells the delegate, as scrolling does. Stands in for `UIScrollView.contentOffset`.
    open var contentOffset: CGPoint = .zero {
        didSet { delegate?.scrollViewDidScroll(self) }
    }
    /// Stands in for `UIScrollView.contentSize`.
    open var contentSize: CGSize = .zero
    /// Stands in for `UIScrollView.contentInset`.
    open var contentInset: UIEdgeInsets = .zero
    /// Stands in for `UIScrollView.isScrollEnabled`.
    open var isScrollEnabled = true
    /// Stands in for `UIScrollView.showsVerticalScrollIndicator`.
    open var showsVerticalScrollIndicator = true
    /// Stands in for `UIScrollView.showsHorizontalScrollIndicator`.
    open var showsHorizontalScrollIndicator = true
    /// Stands in for `UIScrollView.alwaysBounceVertical`.
    open var alwaysBounceVertical = false
    /// Stands in for `UIScrollView.delegate`.
    open weak var delegate: (any UIScrollViewDelegate)?

    /// Stands in for `UIScrollView.setContentOffset(_:animated:)`.
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        self.contentOffset = contentOffset
    }
}
