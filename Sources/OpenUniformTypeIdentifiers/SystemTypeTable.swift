internal import CSystemTypeTables

/// The types the system declares.
///
/// What lookups touch is compiled in: the identifiers (string literals, `Generated/SystemTypeTable+Data.swift`),
/// and, in `Sources/CSystemTypeTables/`, the conformance closure as a bit matrix (one row of bits per type, a
/// set bit for every type it conforms to, itself included) and the identifier, filename extension and MIME
/// type indices, whose candidate lists the generator ranked best first. The rest (descriptions, parents, the
/// ordered closure, tags) is parsed once, at first use, from the packed table.
final class SystemTypeTable: Sendable {
    static let shared = SystemTypeTable()

    let descriptions: [String]
    let parents: [[Int32]]
    /// Every type each type conforms to, depth-first from its parents, itself excluded.
    let closures: [[Int32]]
    let filenameExtensions: [[String]]
    let mimeTypes: [[String]]

    private init() {
        var descriptions: [String] = [], parents: [[Int32]] = [], closures: [[Int32]] = []
        var extensions: [[String]] = [], mimeTypes: [[String]] = []
        // Split as bytes, not characters: the table is ASCII but for descriptions, and splitting a String by
        // Character walks grapheme clusters, which made this the larger part of a process's start.
        for line in Self.packedTypes.utf8.split(separator: Self.newline) {
            let fields = line.split(separator: Self.tab, omittingEmptySubsequences: false)
            parents.append(Self.numbers(fields[0]))
            closures.append(Self.numbers(fields[1]))
            extensions.append(Self.strings(fields[2]))
            mimeTypes.append(Self.strings(fields[3]))
            descriptions.append(String(decoding: fields[4], as: UTF8.self))
        }
        self.descriptions = descriptions
        self.parents = parents
        self.closures = closures
        self.filenameExtensions = extensions
        self.mimeTypes = mimeTypes
    }

    static var wordsPerType: Int { Int(system_type_words_per_type) }
    static var byIdentifier: CaseFoldedIndex { CaseFoldedIndex(system_types_by_identifier()) }
    static var byFilenameExtension: CaseFoldedIndex { CaseFoldedIndex(system_types_by_filename_extension()) }
    static var byMIMEType: CaseFoldedIndex { CaseFoldedIndex(system_types_by_mime_type()) }

    /// The system type with this identifier, compared case-insensitively.
    static func index(ofIdentifier identifier: String) -> Int32? {
        if case .found(let match) = byIdentifier.lookup(identifier) { return match.first }
        return nil
    }

    /// Whether system type `type` conforms to system type `other` (reflexively).
    @inline(__always)
    static func conforms(_ type: Int32, to other: Int32) -> Bool {
        let word = system_type_closure()[Int(type) * wordsPerType + Int(other) >> 6]
        return word & (1 << (UInt64(truncatingIfNeeded: other) & 63)) != 0
    }

    /// The system types declaring a tag of a class, best first, the tag compared case-insensitively.
    @inline(__always)
    static func candidates(tag: String, tagClass: UTTagClass) -> CaseFoldedIndex.Lookup {
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
}
