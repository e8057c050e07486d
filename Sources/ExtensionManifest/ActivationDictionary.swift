import SharingShim

/// The dictionary form of `NSExtensionActivationRule`: which kinds of attachment an extension takes, how
/// many, and whether every attachment must be one of them (strict) or at least one (fuzzy).
///
/// Apple documents the keys but not the predicate it derives from them; OpenSharing's translation is
/// `predicateSource`, and `accepts(_:)` states the same semantics directly (a property test keeps the two
/// in agreement):
///
/// - Each attachment belongs to one kind, the first that fits: image (`public.image`), movie
///   (`public.movie`), web page (`com.apple.property-list`, `public.html` or `com.apple.webarchive`, as
///   Safari's preprocessing results are), web URL (`public.url` but not `public.file-url`), text
///   (`public.text`), file (anything else that is a `public.item`).
/// - A count key of 0 (or absent) means the kind is not taken; `NSExtensionActivationSupportsText` is a
///   boolean, with no count.
/// - Strict (dictionary version 1, the default, or `NSExtensionActivationUsesStrictMatching`): every
///   attachment is of a taken kind and no kind exceeds its count. Fuzzy (version 2): some taken kind has
///   between 1 and its count attachments.
/// - `…AttachmentsWithMaxCount` / `…MinCount` bound the total; with no kind key, `…AttachmentsWithMaxCount`
///   alone takes attachments of any kind. A share with no attachments matches no dictionary rule.
public struct ActivationDictionary: Sendable, Hashable {
    public var attachmentsMaxCount: Int?
    public var attachmentsMinCount: Int?
    public var fileMaxCount: Int?
    public var imageMaxCount: Int?
    public var movieMaxCount: Int?
    public var supportsText: Bool
    public var webURLMaxCount: Int?
    public var webPageMaxCount: Int?
    /// `NSExtensionActivationDictionaryVersion`: 1 (strict) unless 2 (fuzzy).
    public var version: Int
    /// `NSExtensionActivationUsesStrictMatching`, which makes version 2 strict.
    public var usesStrictMatching: Bool?

    public init(attachmentsMaxCount: Int? = nil, attachmentsMinCount: Int? = nil, fileMaxCount: Int? = nil,
                imageMaxCount: Int? = nil, movieMaxCount: Int? = nil, supportsText: Bool = false,
                webURLMaxCount: Int? = nil, webPageMaxCount: Int? = nil, version: Int = 1, usesStrictMatching: Bool? = nil) {
        self.attachmentsMaxCount = attachmentsMaxCount
        self.attachmentsMinCount = attachmentsMinCount
        self.fileMaxCount = fileMaxCount
        self.imageMaxCount = imageMaxCount
        self.movieMaxCount = movieMaxCount
        self.supportsText = supportsText
        self.webURLMaxCount = webURLMaxCount
        self.webPageMaxCount = webPageMaxCount
        self.version = version
        self.usesStrictMatching = usesStrictMatching
    }

    public var isStrict: Bool { usesStrictMatching ?? (version != 2) }

    /// The kinds of attachment, in the order an attachment is assigned to them.
    enum Kind: CaseIterable {
        case image, movie, webPage, webURL, text, file

        var described: String {
            switch self {
            case .image: "an image"
            case .movie: "a movie"
            case .webPage: "a web page"
            case .webURL: "a web URL"
            case .text: "text"
            case .file: "a file"
            }
        }

        var plural: String {
            switch self {
            case .image: "images"
            case .movie: "movies"
            case .webPage: "web pages"
            case .webURL: "web URLs"
            case .text: "text"
            case .file: "files"
            }
        }

        /// The key that takes the kind and bounds its count.
        var countKey: String {
            switch self {
            case .image: "NSExtensionActivationSupportsImageWithMaxCount"
            case .movie: "NSExtensionActivationSupportsMovieWithMaxCount"
            case .webPage: "NSExtensionActivationSupportsWebPageWithMaxCount"
            case .webURL: "NSExtensionActivationSupportsWebURLWithMaxCount"
            case .text: "NSExtensionActivationSupportsText"
            case .file: "NSExtensionActivationSupportsFileWithMaxCount"
            }
        }
    }

    /// The kinds taken and their maximum count (`nil`: no count, text).
    var taken: [(Kind, Int?)] {
        var kinds: [(Kind, Int?)] = []
        if let count = imageMaxCount, count > 0 { kinds.append((.image, count)) }
        if let count = movieMaxCount, count > 0 { kinds.append((.movie, count)) }
        if let count = webPageMaxCount, count > 0 { kinds.append((.webPage, count)) }
        if let count = webURLMaxCount, count > 0 { kinds.append((.webURL, count)) }
        if supportsText { kinds.append((.text, nil)) }
        if let count = fileMaxCount, count > 0 { kinds.append((.file, count)) }
        return kinds
    }

    /// Only `…AttachmentsWithMaxCount`: attachments of any kind.
    private var takesAnyKind: Bool {
        taken.isEmpty && (attachmentsMaxCount ?? 0) > 0
    }

    // MARK: Direct semantics

    /// Whether the rule accepts a share, decided directly from the attachments' kinds.
    public func accepts(_ input: ActivationInput) -> Bool {
        refusals(input).isEmpty
    }

    /// Why the rule refuses a share, said in the dictionary's own terms (kinds and counts); empty when it
    /// accepts it.
    public func refusals(_ input: ActivationInput) -> [String] {
        let total = input.attachmentCount
        let minimum = max(1, attachmentsMinCount ?? 0)
        if total == 0 { return ["the share has no attachments, and a dictionary rule needs at least one"] }
        if total < minimum {
            return ["the share has \(total) attachment\(total == 1 ? "" : "s"); NSExtensionActivationSupportsAttachmentsWithMinCount is \(minimum)"]
        }
        if let maximum = attachmentsMaxCount, maximum > 0, total > maximum {
            return ["the share has \(total) attachments, more than NSExtensionActivationSupportsAttachmentsWithMaxCount (\(maximum))"]
        }
        if takesAnyKind { return [] }
        let taken = self.taken
        guard !taken.isEmpty else { return ["the rule takes no kind of attachment (every count is 0 or absent)"] }
        let attachments = input.attachments.map { (label: $0.label, kind: Self.kind($0.types)) }
        let counts = Dictionary(attachments.compactMap(\.kind).map { ($0, 1) }, uniquingKeysWith: +)
        let takes = "the rule takes " + taken.map { kind, maximum in kind.plural + (maximum.map { " (up to \($0))" } ?? "") }
            .joined(separator: ", ")
        let tooMany = taken.compactMap { kind, maximum -> String? in
            guard let maximum, let count = counts[kind], count > maximum else { return nil }
            return "\(count) \(kind.plural), more than \(kind.countKey) (\(maximum))"
        }
        if isStrict {
            let refused = attachments.filter { attachment in !taken.contains { $0.0 == attachment.kind } }
            return refused.map { "\($0.label) is \($0.kind?.described ?? "of no kind a dictionary rule knows"); \(takes)" } + tooMany
        }
        let fits = taken.contains { kind, maximum in (counts[kind] ?? 0) >= 1 && (maximum.map { counts[kind]! <= $0 } ?? true) }
        if fits { return [] }
        return tooMany.isEmpty ? ["no attachment is of a kind it takes: \(takes) (fuzzy matching: one is enough)"] : tooMany
    }

    /// The kind an attachment with these types belongs to, or `nil` when it belongs to none.
    static func kind(_ types: [String]) -> Kind? {
        let resolved = types.map { UTType($0) ?? UTType(importedAs: $0) }
        func any(_ supertypes: [UTType]) -> Bool { resolved.contains { type in supertypes.contains { type.conforms(to: $0) } } }
        if any([.image]) { return .image }
        if any([.movie]) { return .movie }
        if any([.propertyList, .html, .webArchive]) { return .webPage }
        if any([.url]) && !any([.fileURL]) { return .webURL }
        if any([.text]) { return .text }
        if any([.item]) { return .file }
        return nil
    }

    // MARK: The predicate

    /// The rule as the predicate language says it, evaluated over `{extensionItems: …}`.
    public var predicateSource: String {
        // A collection operator takes the whole rest of a key path, so the attachments of all items are
        // counted through a SUBQUERY, not with `extensionItems.@unionOfArrays.attachments.@count`.
        let all = "extensionItems.@unionOfArrays.attachments"
        let total = "SUBQUERY(\(all), $attachment, TRUEPREDICATE).@count"
        var clauses = ["\(total) >= \(max(1, attachmentsMinCount ?? 0))"]
        if let maximum = attachmentsMaxCount, maximum > 0 { clauses.append("\(total) <= \(maximum)") }
        if takesAnyKind { return clauses.joined(separator: " AND ") }
        let taken = self.taken
        guard !taken.isEmpty else { return "FALSEPREDICATE" }
        func count(_ kind: Kind) -> String { "SUBQUERY(\(all), $attachment, \(Self.condition(kind))).@count" }
        if isStrict {
            let any = taken.map { Self.condition($0.0) }.joined(separator: " OR ")
            clauses.append("SUBQUERY(\(all), $attachment, \(any)).@count == \(total)")
            for (kind, maximum) in taken { if let maximum { clauses.append("\(count(kind)) <= \(maximum)") } }
        } else {
            let alternatives = taken.map { kind, maximum in
                maximum.map { "(\(count(kind)) >= 1 AND \(count(kind)) <= \($0))" } ?? "\(count(kind)) >= 1"
            }
            clauses.append(alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")")
        }
        return clauses.joined(separator: " AND ")
    }

    private static func conforms(_ identifier: String) -> String {
        "ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(identifier)\""
    }

    /// The condition for an attachment of `$attachment` being of a kind: fitting it and none before it.
    static func condition(_ kind: Kind) -> String {
        func fits(_ kind: Kind) -> String {
            switch kind {
            case .image: conforms("public.image")
            case .movie: conforms("public.movie")
            case .webPage: "(\(conforms("com.apple.property-list")) OR \(conforms("public.html")) OR \(conforms("com.apple.webarchive")))"
            case .webURL: "(\(conforms("public.url")) AND NOT \(conforms("public.file-url")))"
            case .text: conforms("public.text")
            case .file: conforms("public.item")
            }
        }
        let earlier = Kind.allCases.prefix { $0 != kind }
        let parts = earlier.map { "NOT \(fits($0))" } + [fits(kind)]
        return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
    }
}
