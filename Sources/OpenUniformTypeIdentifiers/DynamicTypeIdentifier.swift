/// Dynamic type identifiers (`dyn.a…`), encoded and decoded as macOS does.
///
/// A dynamic identifier is `dyn.a` followed by a base-32 text of a query string such as `?0=6:1=lua`
/// (parent `public.data`, filename extension `lua`). The encoding is verified against the 100 dynamic
/// identifiers that `mdls` printed on a real Mac (`Tests/…/Oracles/macos-mdls-vectors.json`).
///
/// Where macOS's behaviour is not known, OpenSharing chooses, and tests that the choice round-trips:
/// - `\`, `:` and `=` inside a key or value are escaped with a backslash;
/// - filename extensions and MIME types are lowercased before encoding (both are case-insensitive), so
///   `LUA` and `lua` give the same type;
/// - the parent pair comes first, then the tags in the order given; without a parent there is no `0=` pair;
/// - a MIME type is encoded under key `3`: `?0=6:3=application/x-foo`.
enum DynamicTypeIdentifier {
    struct Query: Equatable, Sendable {
        var parent: String?
        var tags: [Tag]
    }

    struct Tag: Equatable, Sendable {
        var tagClass: UTTagClass
        var value: String
    }

    static let prefix = "dyn.a"

    /// Letters for the values 0–31: no `i`, `j`, `l` or `o`.
    private static let alphabet: [UInt8] = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)

    private static let letterValues: [UInt8: UInt8] = Dictionary(
        uniqueKeysWithValues: alphabet.enumerated().map { ($0.element, UInt8($0.offset)) })

    /// One-character abbreviations of well-known parent types.
    private static let parentCodes: [String: String] = [
        "6": "public.data", "7": "public.text", "8": "public.plain-text", "9": "public.utf16-plain-text",
        "A": "com.apple.traditional-mac-plain-text", "B": "public.image", "C": "public.video",
        "D": "public.audio", "E": "public.directory", "F": "public.folder",
    ]

    /// One-character abbreviations of tag classes.
    private static let tagClassCodes: [String: String] = [
        "1": "public.filename-extension", "2": "com.apple.ostype", "3": "public.mime-type",
        "4": "com.apple.nspboard-type", "5": "public.url-scheme",
    ]

    private static let parentAbbreviations = Dictionary(uniqueKeysWithValues: parentCodes.map { ($1, $0) })
    private static let tagClassAbbreviations = Dictionary(uniqueKeysWithValues: tagClassCodes.map { ($1, $0) })

    // MARK: Encoding

    static func encode(_ query: Query) -> String {
        var pairs: [String] = []
        if let parent = query.parent {
            pairs.append("0=" + (parentAbbreviations[parent.lowercased()] ?? escape(parent)))
        }
        for tag in query.tags {
            let key = tagClassAbbreviations[tag.tagClass.rawValue] ?? escape(tag.tagClass.rawValue)
            pairs.append(key + "=" + escape(tag.value))
        }
        return prefix + base32("?" + pairs.joined(separator: ":"))
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == ":" || character == "=" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private static func base32(_ text: String) -> String {
        var letters: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for byte in text.utf8 {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                letters.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { letters.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: letters, as: UTF8.self)
    }

    // MARK: Decoding

    /// The query a dynamic identifier encodes, or `nil` when it is not a well-formed dynamic identifier.
    static func decode(_ identifier: String) -> Query? {
        let lowered = identifier.lowercased()
        guard lowered.hasPrefix(prefix) else { return nil }
        guard let text = unbase32(lowered.utf8.dropFirst(prefix.utf8.count)), text.hasPrefix("?") else { return nil }
        guard let pairs = splitUnescaped(text.dropFirst(), on: ":") else { return nil }
        var query = Query(parent: nil, tags: [])
        for pair in pairs where !pair.isEmpty {
            guard let parts = splitUnescaped(pair[...], on: "=", limit: 2), parts.count == 2 else { return nil }
            let key = unescape(parts[0]), value = unescape(parts[1])
            guard !key.isEmpty, !value.isEmpty else { return nil }
            if key == "0" {
                guard query.parent == nil, query.tags.isEmpty else { return nil }
                if value.count == 1 {
                    guard let parent = parentCodes[value] else { return nil }
                    query.parent = parent
                } else {
                    query.parent = value
                }
            } else if key.count == 1 {
                guard let tagClass = tagClassCodes[key] else { return nil }
                query.tags.append(Tag(tagClass: UTTagClass(rawValue: tagClass), value: value))
            } else {
                query.tags.append(Tag(tagClass: UTTagClass(rawValue: key), value: value))
            }
        }
        return query
    }

    private static func unbase32(_ letters: Substring.UTF8View) -> String? {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for letter in letters {
            guard let value = letterValues[letter] else { return nil }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // What is left must be padding: fewer than five bits, all zero.
        guard bits < 5, buffer == 0 else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Splits at separators not preceded by a backslash, keeping escapes for `unescape`.
    private static func splitUnescaped(_ text: Substring, on separator: Character, limit: Int = .max) -> [String]? {
        var parts: [String] = [], current = ""
        var escaping = false
        for character in text {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                current.append(character)
                escaping = true
            } else if character == separator && parts.count + 1 < limit {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { return nil }
        parts.append(current)
        return parts
    }

    private static func unescape(_ text: String) -> String {
        var result = "", escaping = false
        for character in text {
            if !escaping && character == "\\" { escaping = true; continue }
            escaping = false
            result.append(character)
        }
        return result
    }
}
