/// A span of a predicate string, in Unicode scalars from its start.
package struct SourceRange: Sendable, Hashable {
    package var start: Int
    package var end: Int

    package init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = end
    }

    package func union(_ other: SourceRange) -> SourceRange {
        SourceRange(min(start, other.start), max(end, other.end))
    }
}

/// A predicate of `NSPredicate`'s format language, as activation rules write it: comparisons joined by
/// AND, OR and NOT, with SUBQUERY, ANY/ALL/NONE, key paths and collection operators.
package indirect enum PredicateNode: Sendable {
    case constant(Bool, SourceRange)
    case not(PredicateNode, SourceRange)
    case and([PredicateNode], SourceRange)
    case or([PredicateNode], SourceRange)
    case comparison(Comparison)

    package var range: SourceRange {
        switch self {
        case .constant(_, let range), .not(_, let range), .and(_, let range), .or(_, let range): range
        case .comparison(let comparison): comparison.range
        }
    }
}

/// `[ANY|ALL|NONE] left operator[options] right`.
package struct Comparison: Sendable {
    package enum Modifier: String, Sendable {
        case direct = "", any = "ANY", all = "ALL", none = "NONE"
    }

    package enum Operator: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case between = "BETWEEN", `in` = "IN", contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
        case like = "LIKE", matches = "MATCHES", conformsTo = "UTI-CONFORMS-TO", typeEquals = "UTI-EQUALS"
    }

    /// `[c]` case-insensitive, `[d]` diacritic-insensitive, `[n]` normalized (ignored, as NSPredicate's
    /// is only a speed hint).
    package struct Options: Sendable, Hashable {
        package var caseInsensitive = false
        package var diacriticInsensitive = false
    }

    package var modifier: Modifier
    package var left: PredicateExpression
    package var op: Operator
    package var options: Options
    package var right: PredicateExpression
    package var range: SourceRange
}

package enum PredicateLiteral: Sendable, Hashable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
}

/// Where a key path starts.
package indirect enum KeyPathBase: Sendable {
    /// The evaluated object (`extensionItems` starts here).
    case root
    /// `SELF`.
    case evaluatedObject
    /// `$name`.
    case variable(String)
    /// A parenthesized or SUBQUERY expression (`SUBQUERY(…).@count`).
    case expression(PredicateExpression)
}

package indirect enum PredicateExpression: Sendable {
    case literal(PredicateLiteral, SourceRange)
    case aggregate([PredicateExpression], SourceRange)
    /// A base and keys (`$item.attachments.@count`); no keys means the base itself.
    case keyPath(KeyPathBase, [String], SourceRange)
    case subquery(collection: PredicateExpression, variable: String, predicate: PredicateNode, SourceRange)
    case arithmetic(Character, PredicateExpression, PredicateExpression, SourceRange)
    case negation(PredicateExpression, SourceRange)

    package var range: SourceRange {
        switch self {
        case .literal(_, let range), .aggregate(_, let range), .keyPath(_, _, let range),
             .subquery(_, _, _, let range), .arithmetic(_, _, _, let range), .negation(_, let range): range
        }
    }
}

/// Why a predicate string does not parse: what, and at which character (Unicode scalar, from 0).
public struct PredicateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of mistake it is.
    public enum Code: Sendable, Equatable {
        /// Characters that make no token: an unclosed string, a stray character.
        case lexical
        /// Tokens in an order the grammar has no rule for.
        case grammar
        /// A `MATCHES` pattern that is not a regular expression this reads.
        case regularExpression
        /// Longer, deeper or larger than a predicate from an Info.plist may be.
        case limitExceeded
    }

    public var code: Code
    public var message: String
    public var offset: Int

    public init(_ code: Code, _ message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String { "at character \(offset + 1): \(message)" }
}
