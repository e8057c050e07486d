public import Foundation
public import OpenImageIO

/// How lines of text align. Stands in for UIKit's `NSTextAlignment`, with its raw values.
public enum NSTextAlignment: Int, Sendable {
    case left = 0, center, right, justified, natural
}

/// Where a line too long for its view breaks or is cut. Stands in for UIKit's `NSLineBreakMode`, with its raw values.
public enum NSLineBreakMode: Int, Sendable {
    case byWordWrapping = 0, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
}

/// A line or lines of text: what code sets, kept and drawn nowhere. Stands in for UIKit's `UILabel`.
@preconcurrency @MainActor
open class UILabel: UIView {
    /// Stands in for `UILabel.text`; setting it sets `attributedText` to the same words.
    open var text: String? {
        didSet { storedAttributedText = text.map { NSAttributedString(string: $0) } }
    }
    private var storedAttributedText: NSAttributedString?
    /// Stands in for `UILabel.attributedText`; setting it sets `text` to its words.
    open var attributedText: NSAttributedString? {
        get { storedAttributedText }
        set {
            text = newValue?.string
            storedAttributedText = newValue
        }
    }
    /// Stands in for `UILabel.font` (UIKit's default: the system font at 17 points).
    open var font: UIFont! = .systemFont(ofSize: 17)
    /// Stands in for `UILabel.textColor` (UIKit's default: `label`).
    open var textColor: UIColor! = .label
    /// Stands in for `UILabel.textAlignment`.
    open var textAlignment: NSTextAlignment = .natural
    /// Stands in for `UILabel.numberOfLines`.
    open var numberOfLines = 1
    /// Stands in for `UILabel.lineBreakMode`.
    open var lineBreakMode: NSLineBreakMode = .byTruncatingTail
    /// Stands in for `UILabel.adjustsFontSizeToFitWidth`.
    open var adjustsFontSizeToFitWidth = false
    /// Stands in for `UILabel.allowsDefaultTighteningForTruncation`.
    open var allowsDefaultTighteningForTruncation = false
    /// Stands in for `UILabel.minimumScaleFactor`.
    open var minimumScaleFactor: CGFloat = 0
    /// Stands in for `UILabel.isEnabled`.
    open var isEnabled = true
}

/// An image in a view: kept, drawn nowhere. Stands in for UIKit's `UIImageView`.
@preconcurrency @MainActor
open class UIImageView: UIView {
    /// Never decoded from storyboards here. Stands in for `init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UIImageView.image`.
    open var image: UIImage?
    /// Stands in for `UIImageView.highlightedImage`.
    open var highlightedImage: UIImage?
    /// Stands in for `UIImageView.isHighlighted`.
    open var isHighlighted = false

    /// A view the size of `image` (in points), as UIKit makes it. Stands in for `UIImageView.init(image:)`.
    public init(image: UIImage?) {
        self.image = image
        super.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
    }

    /// Stands in for `UIImageView.init(image:highlightedImage:)`.
    public convenience init(image: UIImage?, highlightedImage: UIImage?) {
        self.init(image: image)
        self.highlightedImage = highlightedImage
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
    }
}

/// A font: its name and size, as code asks for them; nothing is drawn with it here. Stands in for UIKit's
/// `UIFont`.
open class UIFont: NSObject, @unchecked Sendable {
    /// A font's weight. Stands in for `UIFont.Weight`, with UIKit's values.
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)
    }

    /// A style of Dynamic Type. Stands in for `UIFont.TextStyle`.
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        /// The point size and weight at the default text size (Large), from Apple's Human Interface Guidelines'
        /// typography table.
        var metrics: (size: CGFloat, weight: Weight) {
            switch self {
            case .largeTitle: (34, .regular)
            case .title1: (28, .regular)
            case .title2: (22, .regular)
            case .title3: (20, .regular)
            case .headline: (17, .semibold)
            case .subheadline: (15, .regular)
            case .callout: (16, .regular)
            case .footnote: (13, .regular)
            case .caption1: (12, .regular)
            case .caption2: (11, .regular)
            default: (17, .regular)
            }
        }
    }

    /// Stands in for `UIFont.fontName`.
    public let fontName: String
    /// Stands in for `UIFont.familyName`.
    public let familyName: String
    /// Stands in for `UIFont.pointSize`.
    public let pointSize: CGFloat
    /// The weight asked for (the system font's), for the tests and the curious.
    let weight: Weight

    init(name: String, family: String, size: CGFloat, weight: Weight = .regular) {
        fontName = name
        familyName = family
        pointSize = size
        self.weight = weight
        super.init()
    }

    /// A font of that name at that size. No font file is read here: the name is kept as given. Stands in for
    /// `UIFont.init(name:size:)`; `nil` for an empty name.
    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        guard !fontName.isEmpty else { return nil }
        self.init(name: fontName, family: fontName, size: fontSize)
    }

    /// Stands in for `UIFont.systemFont(ofSize:)`.
    open class func systemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .regular)
    }

    /// Stands in for `UIFont.systemFont(ofSize:weight:)`.
    open class func systemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont {
        UIFont(name: ".SFUI-Regular", family: ".SF UI Text", size: fontSize, weight: weight)
    }

    /// Stands in for `UIFont.boldSystemFont(ofSize:)`.
    open class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .bold)
    }

    /// Stands in for `UIFont.italicSystemFont(ofSize:)`.
    open class func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(name: ".SFUI-Italic", family: ".SF UI Text", size: fontSize)
    }

    /// The system font at the style's size and weight for the default text size. Stands in for
    /// `UIFont.preferredFont(forTextStyle:)`.
    open class func preferredFont(forTextStyle style: UIFont.TextStyle) -> UIFont {
        let metrics = style.metrics
        return systemFont(ofSize: metrics.size, weight: metrics.weight)
    }

    /// Stands in for `UIFont.withSize(_:)`.
    open func withSize(_ fontSize: CGFloat) -> UIFont {
        UIFont(name: fontName, family: familyName, size: fontSize, weight: weight)
    }

    /// The fixed-width system font (SF Mono). Stands in for `UIFont.monospacedSystemFont(ofSize:weight:)`.
    open class func monospacedSystemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont {
        UIFont(name: ".SFUIMono-Regular", family: ".SF UI Mono", size: fontSize, weight: weight)
    }

    /// The system font with digits of one width. Stands in for `UIFont.monospacedDigitSystemFont(ofSize:weight:)`.
    open class func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight)
    }

    /// The height of a line of text: 1.2 times the point size, a nominal figure (no font file is read here; the
    /// system font's is 1.19). Stands in for `UIFont.lineHeight`.
    open var lineHeight: CGFloat { pointSize * 1.2 }

    /// How far one character advances a line, nominally: half the point size, 0.6 for the fixed-width font.
    var advance: CGFloat { pointSize * (familyName == ".SF UI Mono" ? 0.6 : 0.5) }
}
