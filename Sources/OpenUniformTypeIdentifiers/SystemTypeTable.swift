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
        for line in Self.packedTypes.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            identifiers.append(String(fields[0]))
            parents.append(Self.numbers(fields[1]))
            closures.append(Self.numbers(fields[2]))
            extensions.append(Self.strings(fields[3]))
            mimeTypes.append(Self.strings(fields[4]))
            descriptions.append(String(fields[5]))
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

    private static func numbers(_ field: Substring) -> [Int32] {
        field.split(separator: ",").map { Int32($0)! }
    }

    private static func strings(_ field: Substring) -> [String] {
        field.split(separator: ",").map(String.init)
    }

    private static func tagIndex(_ packed: String) -> CaseFoldedIndex {
        CaseFoldedIndex(packed.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t")
            return (String(fields[0]), numbers(fields[1]))
        })
    }
}
