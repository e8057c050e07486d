public import Foundation

// The attributes UIKit adds to attributed strings, with UIKit's names (Foundation on Linux has none of them).
extension NSAttributedString.Key {
    /// Stands in for `NSAttributedString.Key.font` (a `UIFont`).
    public static let font = NSAttributedString.Key("NSFont")
    /// Stands in for `NSAttributedString.Key.foregroundColor` (a `UIColor`).
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// Stands in for `NSAttributedString.Key.backgroundColor` (a `UIColor`).
    public static let backgroundColor = NSAttributedString.Key("NSBackgroundColor")
    /// Stands in for `NSAttributedString.Key.kern` (points added after each character).
    public static let kern = NSAttributedString.Key("NSKern")
    /// Stands in for `NSAttributedString.Key.underlineStyle`.
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
    /// Stands in for `NSAttributedString.Key.strikethroughStyle`.
    public static let strikethroughStyle = NSAttributedString.Key("NSStrikethrough")
    /// Stands in for `NSAttributedString.Key.link` (a `URL` or `String`).
    public static let link = NSAttributedString.Key("NSLink")
    /// Stands in for `NSAttributedString.Key.baselineOffset`.
    public static let baselineOffset = NSAttributedString.Key("NSBaselineOffset")
}

/// Measuring and drawing text, as UIKit adds them to strings. Nothing is drawn: there are no fonts here. A
/// size is nominal and grows with the text as a device's does: each line the font's line height high (1.2
/// times its point size), each character half its point size wide (0.6 for the fixed-width font) plus the
/// `kern` attribute; 12-point text where no `font` is given, as UIKit's default.
private func measured(_ text: String, _ attributes: [NSAttributedString.Key: Any]?) -> CGSize {
    let font = attributes?[.font] as? UIFont ?? UIFont.systemFont(ofSize: 12)
    let kern = (attributes?[.kern] as? CGFloat) ?? (attributes?[.kern] as? Double).map { CGFloat($0) } ?? 0
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let widest = lines.map { CGFloat($0.count) * (font.advance + kern) }.max() ?? 0
    return CGSize(width: widest.rounded(.up), height: (CGFloat(lines.count) * font.lineHeight).rounded(.up))
}

extension String {
    /// Stands in for UIKit's `size(withAttributes:)`; see `measured` above for what it gives.
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize { measured(self, attrs) }
    /// Stands in for UIKit's `draw(at:withAttributes:)`: nothing is drawn.
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {}
    /// Stands in for UIKit's `draw(in:withAttributes:)`: nothing is drawn.
    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {}
}

extension NSString {
    /// Stands in for `NSString.size(withAttributes:)`; see `String.size(withAttributes:)`.
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize { measured(self as String, attrs) }
    /// Stands in for `NSString.draw(at:withAttributes:)`: nothing is drawn.
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {}
    /// Stands in for `NSString.draw(in:withAttributes:)`: nothing is drawn.
    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {}
}
