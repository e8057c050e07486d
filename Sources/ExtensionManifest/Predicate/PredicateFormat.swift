/// A predicate written back in the format language, one line, spaced the same way whatever the source did,
/// as `NSPredicate.predicateFormat` gives it: what `sharing match --explain` and the explanations print.
extension PredicateNode: CustomStringConvertible {
    package var description: String { format(inside: .or) }

    /// How tightly the enclosing construct binds; a looser child gets parentheses.
    private enum Context: Int, Comparable {
        case or, and, not
        static func < (a: Context, b: Context) -> Bool { a.rawValue < b.rawValue }
    }

    private func format(inside context: Context) -> String {
        switch self {
        case .constant(let value, _):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            return comparison.description
        case .not(let inner, _):
            return "NOT " + inner.format(inside: .not)
        case .and(let terms, _):
            let text = terms.map { $0.format(inside: .and) }.joined(separator: " AND ")
            return context > .and ? "(\(text))" : text
        case .or(let terms, _):
            let text = terms.map { $0.format(inside: .or) }.joined(separator: " OR ")
            return context > .or ? "(\(text))" : text
        }
    }
}

extension Comparison: CustomStringConvertible {
    package var description: String {
        var options = ""
        if self.options.caseInsensitive { options += "c" }
        if self.options.diacriticInsensitive { options += "d" }
        let op = op.rawValue + (options.isEmpty ? "" : "[\(options)]")
        let modifier = modifier == .direct ? "" : modifier.rawValue + " "
        return "\(modifier)\(left) \(op) \(right)"
    }
}

extension PredicateExpression: CustomStringConvertible {
    package var description: String {
        switch self {
        case .literal(let literal, _):
            return literal.description
        case .aggregate(let elements, _):
            return "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .keyPath(let base, let keys, _):
            let head: String? = switch base {
            case .root: nil
            case .evaluatedObject: "SELF"
            case .variable(let name): "$" + name
            case .expression(let expression):
                if case .subquery = expression { expression.description } else { "(\(expression))" }
            }
            return ([head].compactMap { $0 } + keys.map(Self.written)).joined(separator: ".")
        case .subquery(let collection, let variable, let predicate, _):
            return "SUBQUERY(\(collection), $\(variable), \(predicate))"
        case .arithmetic(let op, let left, let right, _):
            return "\(left.operand(of: op, onRight: false)) \(op) \(right.operand(of: op, onRight: true))"
        case .negation(let inner, _):
            if case .arithmetic = inner { return "-(\(inner))" }
            return "-\(inner)"
        }
    }

    /// A key as the lexer reads it back: `#`-escaped when it would otherwise read as a keyword or a number.
    private static func written(_ key: String) -> String {
        guard let first = key.unicodeScalars.first else { return key }
        let plain = first == "@" || (PredicateLexer.isNameStart(first) && !PredicateLexer.keywords.contains(key.uppercased()))
        return plain ? key : "#" + key
    }

    /// The expression as an operand of `op`: parenthesized when it binds more loosely, or as tightly on the
    /// right, so that reading it back builds the same tree.
    private func operand(of op: Character, onRight: Bool) -> String {
        guard case .arithmetic(let inner, _, _, _) = self else { return description }
        func rank(_ op: Character) -> Int { op == "+" || op == "-" ? 0 : 1 }
        return rank(inner) < rank(op) || (onRight && rank(inner) == rank(op)) ? "(\(self))" : description
    }
}

extension PredicateLiteral: CustomStringConvertible {
    package var description: String {
        switch self {
        case .null: "nil"
        case .boolean(let value): value ? "YES" : "NO"
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value):
            // By scalar: a quote followed by a combining mark is one Character, but still a quote to the lexer.
            "\"" + String(String.UnicodeScalarView(value.unicodeScalars.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] })) + "\""
        }
    }
}
