/// Splits a predicate string into tokens, with their positions.
struct PredicateLexer {
    enum Kind: Equatable {
        case identifier(String)
        case keyword(String)
        case string(String)
        case number(Double)
        case variable(String)
        case symbol(String)
        case end
    }

    struct Token {
        var kind: Kind
        var range: SourceRange
    }

    static let keywords: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "BETWEEN", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "LIKE", "MATCHES", "TRUEPREDICATE", "FALSEPREDICATE", "TRUE", "YES", "FALSE", "NO", "NULL", "NIL", "SELF",
        "SUBQUERY", "UTI-CONFORMS-TO", "UTI-EQUALS",
    ]

    /// Longest first, so that `<=` is not read as `<` `=`; as scalars, so that matching allocates nothing.
    private static let symbols: [(text: String, scalars: [Unicode.Scalar])] =
        ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", "(", ")", "{", "}", "[", "]",
         ",", ".", "=", "<", ">", "!", "+", "-", "*", "/", "%"].map { ($0, Array($0.unicodeScalars)) }

    /// Most tokens in one predicate: an activation rule has a few dozen.
    static let maximumTokens = 10_000

    static func tokens(_ source: String) throws(PredicateSyntaxError) -> [Token] {
        let scalars = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        func error(_ message: String, _ at: Int, code: PredicateSyntaxError.Code = .lexical) -> PredicateSyntaxError { PredicateSyntaxError(code, message, offset: at) }
        while i < scalars.count {
            let c = scalars[i]
            if isWhitespace(c) { i += 1; continue }
            if tokens.count >= maximumTokens { throw error("longer than \(maximumTokens) tokens", i, code: .limitExceeded) }
            let start = i
            if c == "\"" || c == "'" {
                var value = String.UnicodeScalarView()
                i += 1
                while true {
                    guard i < scalars.count else { throw error("a string that is not closed", start) }
                    let d = scalars[i]
                    if d == c { i += 1; break }
                    if d == "\\" {
                        guard i + 1 < scalars.count else { throw error("a string that is not closed", start) }
                        let e = scalars[i + 1]
                        switch e {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "r": value.append("\r")
                        default: value.append(e)
                        }
                        i += 2
                        continue
                    }
                    value.append(d)
                    i += 1
                }
                tokens.append(Token(kind: .string(String(value)), range: SourceRange(start, i)))
            } else if c == "$" {
                i += 1
                let name = readName(scalars, &i)
                if name.isEmpty { throw error("'$' must start a variable name", start) }
                tokens.append(Token(kind: .variable(name), range: SourceRange(start, i)))
            } else if isDigit(c) {
                tokens.append(Token(kind: .number(try readNumber(scalars, &i)), range: SourceRange(start, i)))
            } else if isNameStart(c) || c == "#" || c == "@" {
                let escaped = c == "#"
                if escaped { i += 1 }
                let prefix = i < scalars.count && scalars[i] == "@" ? "@" : ""
                if !prefix.isEmpty { i += 1 }
                var name = prefix + readName(scalars, &i)
                if name == "@" || name.isEmpty { throw error("a name must follow '\(escaped ? "#" : "@")'", start) }
                // UTI-CONFORMS-TO and UTI-EQUALS are the only keywords with hyphens.
                if !escaped && name.uppercased() == "UTI" {
                    for suffix in ["-CONFORMS-TO", "-EQUALS"] where matches(scalars, at: i, Array(suffix.unicodeScalars)) {
                        name += suffix
                        i += suffix.unicodeScalars.count
                        break
                    }
                }
                let upper = name.uppercased()
                if !escaped && keywords.contains(upper) {
                    tokens.append(Token(kind: .keyword(upper), range: SourceRange(start, i)))
                } else {
                    tokens.append(Token(kind: .identifier(name), range: SourceRange(start, i)))
                }
            } else if let symbol = symbols.first(where: { matches(scalars, at: i, $0.scalars) }) {
                if symbol.text == "%" {
                    throw error("format arguments (%@, %K) cannot appear in an Info.plist predicate: it has no arguments", start)
                }
                i += symbol.scalars.count
                tokens.append(Token(kind: .symbol(symbol.text), range: SourceRange(start, i)))
            } else {
                throw error("unexpected character '\(c)'", start)
            }
        }
        tokens.append(Token(kind: .end, range: SourceRange(scalars.count, scalars.count)))
        return tokens
    }

    // Character classes, with the ASCII that predicates are almost all made of answered without a lookup
    // of Unicode properties.

    private static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? c == " " || (0x09...0x0D).contains(c.value) : c.properties.isWhitespace
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(c)
    }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) : c.properties.isAlphabetic
    }

    private static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        isNameStart(c) || isDigit(c) || (!c.isASCII && c.properties.numericType != nil)
    }

    private static func readName(_ scalars: [Unicode.Scalar], _ i: inout Int) -> String {
        let start = i
        while i < scalars.count, isNameCharacter(scalars[i]) { i += 1 }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[start..<i])
        return String(name)
    }

    private static func readNumber(_ scalars: [Unicode.Scalar], _ i: inout Int) throws(PredicateSyntaxError) -> Double {
        let start = i
        if scalars[i] == "0", i + 1 < scalars.count, scalars[i + 1] == "x" || scalars[i + 1] == "X" {
            i += 2
            var digits = ""
            while i < scalars.count, scalars[i].properties.isASCIIHexDigit { digits.unicodeScalars.append(scalars[i]); i += 1 }
            guard let value = UInt64(digits, radix: 16) else { throw PredicateSyntaxError(.lexical, "a hexadecimal number without digits", offset: start) }
            return Double(value)
        }
        var text = ""
        while i < scalars.count, isDigit(scalars[i]) || scalars[i] == "." || scalars[i] == "e" || scalars[i] == "E"
                || ((scalars[i] == "-" || scalars[i] == "+") && (text.hasSuffix("e") || text.hasSuffix("E"))) {
            // A dot followed by a letter is a key path (`1.@count` is not a number): stop before it.
            if scalars[i] == ".", i + 1 < scalars.count, !isDigit(scalars[i + 1]) { break }
            text.unicodeScalars.append(scalars[i])
            i += 1
        }
        guard let value = Double(text), value.isFinite else { throw PredicateSyntaxError(.lexical, "'\(text)' is not a number", offset: start) }
        return value
    }

    /// Whether `wanted` is at `index`, ASCII letters in either case.
    private static func matches(_ scalars: [Unicode.Scalar], at index: Int, _ wanted: [Unicode.Scalar]) -> Bool {
        guard index + wanted.count <= scalars.count else { return false }
        func upper(_ c: Unicode.Scalar) -> UInt32 { ("a"..."z").contains(c) ? c.value - 32 : c.value }
        for (offset, scalar) in wanted.enumerated() where upper(scalars[index + offset]) != upper(scalar) { return false }
        return true
    }
}
