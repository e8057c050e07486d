public import Foundation

/// A relation between two layout attributes of views (or layout guides), kept and activated as UIKit activates it
/// — held by the closest common ancestor of its items — and never solved: nothing lays views out here, and frames
/// are what code sets them to (`docs/remaining-apple-api.md`).
///
/// Stands in for UIKit's `NSLayoutConstraint`.
@preconcurrency @MainActor
open class NSLayoutConstraint: NSObject {
    /// Stands in for `NSLayoutConstraint.Attribute`, with UIKit's raw values.
    public enum Attribute: Int, Sendable {
        case notAnAttribute = 0, left, right, top, bottom, leading, trailing, width, height, centerX, centerY, lastBaseline, firstBaseline,
             leftMargin, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin, centerXWithinMargins, centerYWithinMargins

        /// Stands in for `NSLayoutConstraint.Attribute.baseline`.
        public static let baseline = Attribute.lastBaseline
    }

    /// Stands in for `NSLayoutConstraint.Relation`, with UIKit's raw values.
    public enum Relation: Int, Sendable {
        case lessThanOrEqual = -1, equal = 0, greaterThanOrEqual = 1
    }

    /// Stands in for `NSLayoutConstraint.firstItem`.
    open private(set) weak var firstItem: AnyObject?
    /// Stands in for `NSLayoutConstraint.firstAttribute`.
    public let firstAttribute: Attribute
    /// Stands in for `NSLayoutConstraint.relation`.
    public let relation: Relation
    /// Stands in for `NSLayoutConstraint.secondItem`.
    open private(set) weak var secondItem: AnyObject?
    /// Stands in for `NSLayoutConstraint.secondAttribute`.
    public let secondAttribute: Attribute
    /// Stands in for `NSLayoutConstraint.multiplier`.
    public let multiplier: CGFloat
    /// Stands in for `NSLayoutConstraint.constant`.
    open var constant: CGFloat
    /// Stands in for `NSLayoutConstraint.priority`.
    open var priority: UILayoutPriority = .required
    /// Stands in for `NSLayoutConstraint.identifier`.
    open var identifier: String?
    /// The view that holds the constraint while it is active.
    private weak var holder: UIView?

    /// Stands in for `NSLayoutConstraint.init(item:attribute:relatedBy:toItem:attribute:multiplier:constant:)`.
    public init(item view1: Any, attribute attr1: Attribute, relatedBy relation: Relation, toItem view2: Any?, attribute attr2: Attribute,
                multiplier: CGFloat, constant c: CGFloat) {
        firstItem = view1 as AnyObject
        firstAttribute = attr1
        self.relation = relation
        secondItem = view2.map { $0 as AnyObject }
        secondAttribute = attr2
        self.multiplier = multiplier
        constant = c
        super.init()
    }

    /// Whether the constraint is held by the closest common ancestor of its items. Activating one whose items
    /// have no common ancestor stops the program, as UIKit's exception does. Stands in for
    /// `NSLayoutConstraint.isActive`.
    open var isActive: Bool {
        get { holder != nil }
        set {
            if newValue {
                guard holder == nil else { return }
                guard let ancestor = commonAncestor else {
                    fatalError("Unable to activate constraint with anchors \(firstAttribute) and \(secondAttribute) because they have no common "
                               + "ancestor. Does the constraint or its anchors reference items in different view hierarchies? That's illegal.")
                }
                activate(in: ancestor)
            } else {
                holder?.constraints.removeAll { $0 === self }
                holder = nil
            }
        }
    }

    /// Stands in for `NSLayoutConstraint.activate(_:)`.
    open class func activate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    /// Stands in for `NSLayoutConstraint.deactivate(_:)`.
    open class func deactivate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }

    /// Holds the constraint in `view`.
    func activate(in view: UIView) {
        isActive = false
        view.constraints.append(self)
        holder = view
    }

    /// The views the constraint's items are, or belong to (a layout guide's owning view).
    var views: [UIView] {
        [firstItem, secondItem].compactMap { item in (item as? UIView) ?? (item as? UILayoutGuide)?.owningView }
    }

    /// The closest view that is, or is above, every view of the constraint's items.
    private var commonAncestor: UIView? {
        let views = views
        guard var candidate = views.first else { return nil }
        while !views.allSatisfy({ $0.isDescendant(of: candidate) }) {
            guard let above = candidate.superview else { return nil }
            candidate = above
        }
        return candidate
    }
}

/// A rectangle that takes part in layout without being a view: a view's safe area, its margins. Stands in for
/// UIKit's `UILayoutGuide`.
@preconcurrency @MainActor
open class UILayoutGuide: NSObject {
    /// Stands in for `UILayoutGuide.owningView`.
    open weak var owningView: UIView?
    /// Stands in for `UILayoutGuide.identifier`.
    open var identifier = ""
    /// The owning view's bounds: nothing insets them here. Stands in for `UILayoutGuide.layoutFrame`.
    open var layoutFrame: CGRect { owningView?.bounds ?? .zero }

    public override init() {
        super.init()
    }

    init(owningView: UIView, identifier: String) {
        self.owningView = owningView
        self.identifier = identifier
        super.init()
    }

    /// Stands in for `UILayoutGuide.leadingAnchor`.
    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .leading) }
    /// Stands in for `UILayoutGuide.trailingAnchor`.
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .trailing) }
    /// Stands in for `UILayoutGuide.leftAnchor`.
    public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .left) }
    /// Stands in for `UILayoutGuide.rightAnchor`.
    public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .right) }
    /// Stands in for `UILayoutGuide.centerXAnchor`.
    public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .centerX) }
    /// Stands in for `UILayoutGuide.topAnchor`.
    public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .top) }
    /// Stands in for `UILayoutGuide.bottomAnchor`.
    public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .bottom) }
    /// Stands in for `UILayoutGuide.centerYAnchor`.
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .centerY) }
    /// Stands in for `UILayoutGuide.widthAnchor`.
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(self, .width) }
    /// Stands in for `UILayoutGuide.heightAnchor`.
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(self, .height) }
}

/// One attribute of a view or layout guide, from which constraints are made. Stands in for UIKit's
/// `NSLayoutAnchor`.
@preconcurrency @MainActor
open class NSLayoutAnchor<AnchorType: AnyObject>: NSObject {
    let item: AnyObject
    let attribute: NSLayoutConstraint.Attribute

    init(_ item: AnyObject, _ attribute: NSLayoutConstraint.Attribute) {
        self.item = item
        self.attribute = attribute
        super.init()
    }

    func constraint(_ relation: NSLayoutConstraint.Relation, to anchor: NSLayoutAnchor<AnchorType>?, multiplier: CGFloat = 1,
                    constant: CGFloat) -> NSLayoutConstraint {
        NSLayoutConstraint(item: item, attribute: attribute, relatedBy: relation, toItem: anchor?.item, attribute: anchor?.attribute ?? .notAnAttribute,
                           multiplier: multiplier, constant: constant)
    }

    /// Stands in for `NSLayoutAnchor.constraint(equalTo:)`.
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint { constraint(.equal, to: anchor, constant: 0) }
    /// Stands in for `NSLayoutAnchor.constraint(greaterThanOrEqualTo:)`.
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, to: anchor, constant: 0)
    }
    /// Stands in for `NSLayoutAnchor.constraint(lessThanOrEqualTo:)`.
    open func constraint(lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        constraint(.lessThanOrEqual, to: anchor, constant: 0)
    }
    /// Stands in for `NSLayoutAnchor.constraint(equalTo:constant:)`.
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        constraint(.equal, to: anchor, constant: c)
    }
    /// Stands in for `NSLayoutAnchor.constraint(greaterThanOrEqualTo:constant:)`.
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, to: anchor, constant: c)
    }
    /// Stands in for `NSLayoutAnchor.constraint(lessThanOrEqualTo:constant:)`.
    open func constraint(lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        constraint(.lessThanOrEqual, to: anchor, constant: c)
    }
}

/// A horizontal anchor. Stands in for UIKit's `NSLayoutXAxisAnchor`.
@preconcurrency @MainActor
open class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {}

/// A vertical anchor. Stands in for UIKit's `NSLayoutYAxisAnchor`.
@preconcurrency @MainActor
open class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {}

/// A width or height. Stands in for UIKit's `NSLayoutDimension`.
@preconcurrency @MainActor
open class NSLayoutDimension: NSLayoutAnchor<NSLayoutDimension> {
    /// Stands in for `NSLayoutDimension.constraint(equalToConstant:)`.
    open func constraint(equalToConstant c: CGFloat) -> NSLayoutConstraint { constraint(.equal, to: nil, constant: c) }
    /// Stands in for `NSLayoutDimension.constraint(greaterThanOrEqualToConstant:)`.
    open func constraint(greaterThanOrEqualToConstant c: CGFloat) -> NSLayoutConstraint { constraint(.greaterThanOrEqual, to: nil, constant: c) }
    /// Stands in for `NSLayoutDimension.constraint(lessThanOrEqualToConstant:)`.
    open func constraint(lessThanOrEqualToConstant c: CGFloat) -> NSLayoutConstraint { constraint(.lessThanOrEqual, to: nil, constant: c) }
    /// Stands in for `NSLayoutDimension.constraint(equalTo:multiplier:)`.
    open func constraint(equalTo anchor: NSLayoutDimension, multiplier m: CGFloat) -> NSLayoutConstraint {
        constraint(.equal, to: anchor, multiplier: m, constant: 0)
    }
    /// Stands in for `NSLayoutDimension.constraint(equalTo:multiplier:constant:)`.
    open func constraint(equalTo anchor: NSLayoutDimension, multiplier m: CGFloat, constant c: CGFloat) -> NSLayoutConstraint {
        constraint(.equal, to: anchor, multiplier: m, constant: c)
    }
    /// Stands in for `NSLayoutDimension.constraint(greaterThanOrEqualTo:multiplier:)`.
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutDimension, multiplier m: CGFloat) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, to: anchor, multiplier: m, constant: 0)
    }
    /// Stands in for `NSLayoutDimension.constraint(lessThanOrEqualTo:multiplier:)`.
    open func constraint(lessThanOrEqualTo anchor: NSLayoutDimension, multiplier m: CGFloat) -> NSLayoutConstraint {
        constraint(.lessThanOrEqual, to: anchor, multiplier: m, constant: 0)
    }
}

/// How strongly a constraint holds. Stands in for UIKit's `UILayoutPriority`, with its values.
public struct UILayoutPriority: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: Float

    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    public static let required = UILayoutPriority(1000)
    public static let defaultHigh = UILayoutPriority(750)
    public static let dragThatCanResizeScene = UILayoutPriority(510)
    public static let sceneSizeStayPut = UILayoutPriority(500)
    public static let dragThatCannotResizeScene = UILayoutPriority(490)
    public static let defaultLow = UILayoutPriority(250)
    public static let fittingSizeLevel = UILayoutPriority(50)

    public static func < (lhs: UILayoutPriority, rhs: UILayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func + (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue + rhs) }
    public static func - (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue - rhs) }
}
