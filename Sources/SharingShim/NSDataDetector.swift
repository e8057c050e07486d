#if !canImport(Darwin)
public import Foundation

/// The kinds of result a data detector finds. Stands in for Foundation's `NSTextCheckingTypes`.
public typealias NSTextCheckingTypes = UInt64

/// Finds links in text, as share extensions do to pull a URL out of what a host sent.
///
/// Stands in for Foundation's `NSDataDetector`, which swift-corelibs-foundation does not have. Only links
/// are detected (`NSTextCheckingResult.CheckingType.link`): a URL with a scheme (`https://…`, `file:///…`),
/// one starting `www.`, or a `mailto:` address, less trailing punctuation. Other types are refused as
/// Apple's initializer refuses types it does not know. A result gives the link's `range`; its `url` is not
/// set (Foundation here cannot make link results).
// @unchecked: Apple's NSDataDetector is immutable and thread-safe; an open NSObject subclass the compiler cannot check.
open class NSDataDetector: NSObject, @unchecked Sendable {
    /// `NSTextCheckingResult.CheckingType.link.rawValue` as swift-corelibs-foundation numbers it (Apple's is
    /// `1 << 5`), written out because Foundation here marks `.link` deprecated.
    private static let link: NSTextCheckingTypes = 1 << 6
    private static let pattern = #"(?:[A-Za-z][A-Za-z0-9+.\-]*://|www\.|mailto:)[^\s<>"]*[^\s<>".,;:!?')\]]"#

    public let checkingTypes: NSTextCheckingTypes
    private let expression: NSRegularExpression

    public init(types checkingTypes: NSTextCheckingTypes) throws {
        guard checkingTypes == Self.link else {
            throw NSError(domain: NSCocoaErrorDomain, code: 2048, userInfo: [
                NSLocalizedDescriptionKey: "NSDataDetector: checking types \(checkingTypes) are not supported here; only links (\(Self.link)) are",
            ])
        }
        self.checkingTypes = checkingTypes
        self.expression = try NSRegularExpression(pattern: Self.pattern, options: [.caseInsensitive])
        super.init()
    }

    open func firstMatch(in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange) -> NSTextCheckingResult? {
        expression.firstMatch(in: string, options: options, range: range)
    }

    open func matches(in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange) -> [NSTextCheckingResult] {
        expression.matches(in: string, options: options, range: range)
    }

    open func numberOfMatches(in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange) -> Int {
        expression.numberOfMatches(in: string, options: options, range: range)
    }
}
#endif
