/// The types the system declares, read once from the generated packed table.
///
/// Conformance is a bit test in a precomputed closure matrix: one row of bits per type, a set bit for every
/// type it conforms to (itself included). Tag lookups go through dictionaries keyed by the lowercased tag,
/// whose candidate lists the generator ranked best first.
final class SystemTypeTable: Sendable {
    static let shared = SystemTypeTable()

    let identifiers: [String]
    let descriptions: [String]
    let parents: [[Int32]]
    /// Every type each type conforms to, depth-first from its parents, itself excluded.
    let closures: [[Int32]]
    let filenameExtensions: [[String]]
    let mimeTypes: [[String]]
    private let byFilenameExtension: CaseFoldedIndex
    private let byMIMEType: CaseFoldedIndex
    private let byIdentifier: CaseFoldedIndex
    private let closureBits: [UInt64]
    private let wordsPerType: Int

    private init() {
        var identifiers: [String] = [], descriptions: [String] = []
        var parents: [[Int32]] = [], closures: [[Int32]] = []
        var extensions: [[String]] = [], mimeTypes: [[String]] = []
        // Split as bytes, not characters: the table is ASCII but for descriptions, and splitting a String by
        // Character walks grapheme clusters, which made this the larger part of a process's start.
        for line in Self.packedTypes.utf8.split(separator: Self.newline) {
            let fields = line.split(separator: Self.tab, omittingEmptySubsequences: false)
            identifiers.append(String(decoding: fields[0], as: UTF8.self))
            parents.append(Self.numbers(fields[1]))
            closures.append(Self.numbers(fields[2]))
            extensions.append(Self.strings(fields[3]))
            mimeTypes.append(Self.strings(fields[4]))
            descriptions.append(String(decoding: fields[5], as: UTF8.self))
        }
        let words = (identifiers.count + 63) / 64
        var bits = [UInt64](repeating: 0, count: identifiers.count * words)
        for (index, closure) in closures.enumerated() {
            for member in closure + [Int32(index)] {
                bits[index * words + Int(member) / 64] |= 1 << (UInt64(member) % 64)
            }
        }
        let byIdentifier = CaseFoldedIndex(identifiers.enumerated().map { ($0.element.lowercased(), [Int32($0.offset)]) })
        self.identifiers = identifiers
        self.descriptions = descriptions
        self.parents = parents
        self.closures = closures
        self.filenameExtensions = extensions
        self.mimeTypes = mimeTypes
        self.byIdentifier = byIdentifier
        self.closureBits = bits
        self.wordsPerType = words
        self.byFilenameExtension = Self.tagIndex(Self.packedFilenameExtensions)
        self.byMIMEType = Self.tagIndex(Self.packedMIMETypes)
    }

    var count: Int { identifiers.count }

    /// The system type with this identifier, compared case-insensitively.
    func index(ofIdentifier identifier: String) -> Int32? {
        if case .found(let match) = byIdentifier.lookup(identifier) { return match.first }
        return nil
    }

    /// Whether system type `type` conforms to system type `other` (reflexively).
    @inline(__always)
    func conforms(_ type: Int32, to other: Int32) -> Bool {
        let word = closureBits[Int(type) * wordsPerType + Int(other) >> 6]
        return word & (1 << (UInt64(truncatingIfNeeded: other) & 63)) != 0
    }

    /// The system types declaring a tag of a class, best first, the tag compared case-insensitively.
    func candidates(tag: String, tagClass: UTTagClass) -> CaseFoldedIndex.Lookup {
        switch tagClass.known {
        case .filenameExtension: byFilenameExtension.lookup(tag)
        case .mimeType: byMIMEType.lookup(tag)
        case .other: tag.utf8.contains(0) ? .invalid : .notFound
        }
    }

    func tags(of index: Int32) -> [UTTagClass: [String]] {
        var tags: [UTTagClass: [String]] = [:]
        if !filenameExtensions[Int(index)].isEmpty { tags[.filenameExtension] = filenameExtensions[Int(index)] }
        if !mimeTypes[Int(index)].isEmpty { tags[.mimeType] = mimeTypes[Int(index)] }
        return tags
    }

    private static let newline = UInt8(ascii: "\n"), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ",")

    /// Comma-separated decimal type numbers.
    private static func numbers(_ field: Substring.UTF8View) -> [Int32] {
        field.split(separator: comma).map { digits in
            digits.reduce(Int32(0)) { $0 * 10 + Int32($1 &- UInt8(ascii: "0")) }
        }
    }

    private static func strings(_ field: Substring.UTF8View) -> [String] {
        field.split(separator: comma).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func tagIndex(_ packed: String) -> CaseFoldedIndex {
        CaseFoldedIndex(packed.utf8.split(separator: newline).map { line in
            let fields = line.split(separator: tab)
            return (String(decoding: fields[0], as: UTF8.self), numbers(fields[1]))
        })
    }
}
