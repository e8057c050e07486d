public import Foundation
public import OpenImageIO
import PackageSupport

/// The interface style: light or dark. Stands in for UIKit's `UIUserInterfaceStyle`.
public enum UIUserInterfaceStyle: Int, Sendable {
    case unspecified = 0, light, dark
}

/// A size class: how much room a dimension has. Stands in for UIKit's `UIUserInterfaceSizeClass`.
public enum UIUserInterfaceSizeClass: Int, Sendable {
    case unspecified = 0, compact, regular
}

/// The kind of device the interface is laid out for. Stands in for UIKit's `UIUserInterfaceIdiom`.
public enum UIUserInterfaceIdiom: Int, Sendable {
    case unspecified = -1, phone, pad, tv, carPlay, mac = 5, vision = 6
}

/// The text size the person chose. Stands in for UIKit's `UIContentSizeCategory`.
public struct UIContentSizeCategory: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let unspecified = UIContentSizeCategory(rawValue: "_UICTContentSizeCategoryUnspecified")
    public static let extraSmall = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXS")
    public static let small = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryS")
    public static let medium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryM")
    public static let large = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryL")
    public static let extraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXL")
    public static let extraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXXL")
    public static let extraExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXXXL")
    public static let accessibilityMedium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityM")
    public static let accessibilityLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityL")
    public static let accessibilityExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXL")
    public static let accessibilityExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXXL")
    public static let accessibilityExtraExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXXXL")

    /// Whether the category is one of the accessibility sizes. Stands in for `isAccessibilityCategory`.
    public var isAccessibilityCategory: Bool { rawValue.hasPrefix("UICTContentSizeCategoryAccessibility") }
}

/// The traits of the environment an extension's interface is shown in, as the device the runtime plays has them:
/// a phone (`.phone`), portrait (compact width, regular height), the screen's scale, light mode and the default
/// text size. Nothing changes them while an extension runs, so `traitCollectionDidChange(_:)` is never called.
///
/// Stands in for UIKit's `UITraitCollection`.
// @unchecked: Apple's UITraitCollection is immutable and Sendable; an open NSObject subclass the compiler cannot check.
open class UITraitCollection: NSObject, @unchecked Sendable {
    /// Stands in for `UITraitCollection.userInterfaceStyle`.
    public let userInterfaceStyle: UIUserInterfaceStyle
    /// Stands in for `UITraitCollection.horizontalSizeClass`.
    public let horizontalSizeClass: UIUserInterfaceSizeClass
    /// Stands in for `UITraitCollection.verticalSizeClass`.
    public let verticalSizeClass: UIUserInterfaceSizeClass
    /// Stands in for `UITraitCollection.userInterfaceIdiom`.
    public let userInterfaceIdiom: UIUserInterfaceIdiom
    /// Stands in for `UITraitCollection.displayScale`.
    public let displayScale: CGFloat
    /// Stands in for `UITraitCollection.preferredContentSizeCategory`.
    public let preferredContentSizeCategory: UIContentSizeCategory

    init(style: UIUserInterfaceStyle = .unspecified, horizontal: UIUserInterfaceSizeClass = .unspecified,
         vertical: UIUserInterfaceSizeClass = .unspecified, idiom: UIUserInterfaceIdiom = .unspecified, scale: CGFloat = 0,
         contentSize: UIContentSizeCategory = .unspecified) {
        userInterfaceStyle = style
        horizontalSizeClass = horizontal
        verticalSizeClass = vertical
        userInterfaceIdiom = idiom
        displayScale = scale
        preferredContentSizeCategory = contentSize
    }

    /// An empty collection: every trait unspecified. Stands in for `UITraitCollection()`.
    public override convenience init() {
        self.init(style: .unspecified)
    }

    /// A collection of only this style. Stands in for `UITraitCollection(userInterfaceStyle:)`.
    public convenience init(userInterfaceStyle: UIUserInterfaceStyle) {
        self.init(style: userInterfaceStyle)
    }

    /// A collection of only this horizontal size class. Stands in for `UITraitCollection(horizontalSizeClass:)`.
    public convenience init(horizontalSizeClass: UIUserInterfaceSizeClass) {
        self.init(horizontal: horizontalSizeClass)
    }

    /// A collection of only this vertical size class. Stands in for `UITraitCollection(verticalSizeClass:)`.
    public convenience init(verticalSizeClass: UIUserInterfaceSizeClass) {
        self.init(vertical: verticalSizeClass)
    }

    /// A collection of only this scale. Stands in for `UITraitCollection(displayScale:)`.
    public convenience init(displayScale: CGFloat) {
        self.init(scale: displayScale)
    }

    /// A collection of only this idiom. Stands in for `UITraitCollection(userInterfaceIdiom:)`.
    public convenience init(userInterfaceIdiom: UIUserInterfaceIdiom) {
        self.init(idiom: userInterfaceIdiom)
    }

    /// A collection of only this text size. Stands in for `UITraitCollection(preferredContentSizeCategory:)`.
    public convenience init(preferredContentSizeCategory: UIContentSizeCategory) {
        self.init(contentSize: preferredContentSizeCategory)
    }

    /// The collections' traits together, a later collection's specified traits over an earlier one's.
    /// Stands in for `UITraitCollection(traitsFrom:)`.
    public convenience init(traitsFrom traitCollections: [UITraitCollection]) {
        func last<T: Equatable>(_ value: (UITraitCollection) -> T, unspecified: T) -> T {
            traitCollections.map(value).last { $0 != unspecified } ?? unspecified
        }
        self.init(style: last(\.userInterfaceStyle, unspecified: .unspecified),
                  horizontal: last(\.horizontalSizeClass, unspecified: .unspecified),
                  vertical: last(\.verticalSizeClass, unspecified: .unspecified),
                  idiom: last(\.userInterfaceIdiom, unspecified: .unspecified), scale: last(\.displayScale, unspecified: 0),
                  contentSize: last(\.preferredContentSizeCategory, unspecified: .unspecified))
    }

    /// Whether every specified trait of `trait` has the same value here. Stands in for `containsTraits(in:)`.
    open func containsTraits(in trait: UITraitCollection?) -> Bool {
        guard let trait else { return true }
        return (trait.userInterfaceStyle == .unspecified || trait.userInterfaceStyle == userInterfaceStyle)
            && (trait.horizontalSizeClass == .unspecified || trait.horizontalSizeClass == horizontalSizeClass)
            && (trait.verticalSizeClass == .unspecified || trait.verticalSizeClass == verticalSizeClass)
            && (trait.userInterfaceIdiom == .unspecified || trait.userInterfaceIdiom == userInterfaceIdiom)
            && (trait.displayScale == 0 || trait.displayScale == displayScale)
            && (trait.preferredContentSizeCategory == .unspecified || trait.preferredContentSizeCategory == preferredContentSizeCategory)
    }

    /// Whether colours resolve differently under `traitCollection` (its style differs).
    /// Stands in for `hasDifferentColorAppearance(comparedTo:)`.
    open func hasDifferentColorAppearance(comparedTo traitCollection: UITraitCollection?) -> Bool {
        userInterfaceStyle != (traitCollection?.userInterfaceStyle ?? .unspecified)
    }

    /// The traits colours resolve against when no view says otherwise: the device's unless set.
    /// Stands in for `UITraitCollection.current`.
    public static var current: UITraitCollection {
        get { currentTraits.withLock { $0 } }
        set { currentTraits.withLock { $0 = newValue } }
    }
    private static let currentTraits = Locked(UITraitCollection.device)

    /// The traits of the device the runtime plays.
    static var device: UITraitCollection {
        UITraitCollection(style: .light, horizontal: .compact, vertical: .regular, idiom: .phone, scale: UIScreen.environmentScale,
                          contentSize: .large)
    }
}

/// What has traits: views and view controllers. Stands in for UIKit's `UITraitEnvironment`.
@preconcurrency @MainActor
public protocol UITraitEnvironment: NSObjectProtocol {
    /// Stands in for `UITraitEnvironment.traitCollection`.
    var traitCollection: UITraitCollection { get }
    /// Stands in for `UITraitEnvironment.traitCollectionDidChange(_:)`.
    func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?)
}

extension UIView: UITraitEnvironment {}
extension UIViewController: UITraitEnvironment {}
