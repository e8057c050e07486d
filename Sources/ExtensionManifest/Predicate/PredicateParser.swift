/// Parses `NSPredicate` format strings (without format arguments) into a `PredicateNode` with positions.
///
/// Precedence, loosest first: OR (`||`), AND (`&&`), NOT (`!`), comparisons; in expressions `+ -`, then
/// `* /`, then unary minus, then key paths. Parentheses group predicates and expressions alike.
package struct PredicateParser {
    /// Deepest nesting of parentheses, NOTs and SUBQUERYs accepted.
    package static let maximumDepth = 64

    private var tokens: [PredicateLexer.Token]
    private var index = 0
    private var depth = 0

    /// Parses a whole predicate string.
    package static func parse(_ source: String) throws(PredicateSyntaxError) -> PredicateNode {
        var parser = PredicateParser(tokens: try PredicateLexer.tokens(source))
        let predicate = try parser.parsePredicate()
        guard case .end = parser.current.kind else {
            throw parser.error("unexpected \(parser.describe(parser.current)) after a complete predicate")
        }
        return predicate
    }

    private init(tokens: [PredicateLexer.Token]) {
        self.tokens = tokens
    }

    private var current: PredicateLexer.Token { tokens[index] }

    private mutating func advance() -> PredicateLexer.Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private func error(_ message: String, at token: PredicateLexer.Token? = nil, code: PredicateSyntaxError.Code = .grammar) -> PredicateSyntaxError {
        PredicateSyntaxError(code, message, offset: (token ?? current).range.start)
    }

    private func describe(_ token: PredicateLexer.Token) -> String {
        switch token.kind {
        case .identifier(let name): "'\(name)'"
        case .keyword(let word): word
        case .string(let value): "the string \"\(value)\""
        case .number(let value): "the number \(value)"
        case .variable(let name): "$\(name)"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end"
        }
    }

    private func isKeyword(_ word: String) -> Bool {
        if case .keyword(word) = current.kind { return true }
        return false
    }

    private func isSymbol(_ symbol: String) -> Bool {
        if case .symbol(symbol) = current.kind { return true }
        return false
    }

    private mutating func expectSymbol(_ symbol: String, _ context: String) throws(PredicateSyntaxError) -> PredicateLexer.Token {
        guard isSymbol(symbol) else { throw error("expected '\(symbol)' \(context), found \(describe(current))") }
        return advance()
    }

    private mutating func nest() throws(PredicateSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep", code: .limitExceeded) }
    }

    // MARK: Predicates

    private mutating func parsePredicate() throws(PredicateSyntaxError) -> PredicateNode {
        var terms = [try parseAnd()]
        while isKeyword("OR") || isSymbol("||") {
            _ = advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms, terms[0].range.union(terms[terms.count - 1].range))
    }

    private mutating func parseAnd() throws(PredicateSyntaxError) -> PredicateNode {
        var terms = [try parseNot()]
        while isKeyword("AND") || isSymbol("&&") {
            _ = advance()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .and(terms, terms[0].range.union(terms[terms.count - 1].range))
    }

    private mutating func parseNot() throws(PredicateSyntaxError) -> PredicateNode {
        if isKeyword("NOT") || isSymbol("!") {
            let start = advance()
            try nest()
            defer { depth -= 1 }
            let inner = try parseNot()
            return .not(inner, start.range.union(inner.range))
        }
        return try parsePrimaryPredicate()
    }

    private mutating func parsePrimaryPredicate() throws(PredicateSyntaxError) -> PredicateNode {
        if isSymbol("(") {
            // A parenthesis opens either a predicate, `(a == 1 OR b == 2)`, or the left expression of a
            // comparison, `(a + 1) * 2 > 3`: try the first, and when that fails or a comparison follows it,
            // the second; of two failures the one that read further says more.
            let start = (index, depth)
            let groupError: PredicateSyntaxError?
            do throws(PredicateSyntaxError) {
                let predicate = try parseGroupedPredicate()
                if !continuesExpression { return predicate }
                groupError = nil
            } catch {
                groupError = error
            }
            (index, depth) = start
            do throws(PredicateSyntaxError) {
                return .comparison(try parseComparison())
            } catch {
                guard let groupError, groupError.offset >= error.offset else { throw error }
                throw groupError
            }
        }
        if isKeyword("TRUEPREDICATE") || isKeyword("FALSEPREDICATE") {
            let token = advance()
            return .constant(token.kind == .keyword("TRUEPREDICATE"), token.range)
        }
        return .comparison(try parseComparison())
    }

    private mutating func parseGroupedPredicate() throws(PredicateSyntaxError) -> PredicateNode {
        let open = advance()
        try nest()
        defer { depth -= 1 }
        let inner = try parsePredicate()
        let close = try expectSymbol(")", "to close the '(' at character \(open.range.start + 1)")
        return Self.regrouped(inner, open.range.union(close.range))
    }

    /// Whether the current token continues an expression (an operator or a key), so that what came before
    /// was an expression, not a predicate.
    private var continuesExpression: Bool {
        comparisonOperator() != nil || ["+", "-", "*", "/", "."].contains(where: isSymbol)
    }

    /// A parenthesized predicate keeps its own node; only its range grows to include the parentheses.
    private static func regrouped(_ node: PredicateNode, _ range: SourceRange) -> PredicateNode {
        switch node {
        case .constant(let value, _): return .constant(value, range)
        case .not(let inner, _): return .not(inner, range)
        case .and(let terms, _): return .and(terms, range)
        case .or(let terms, _): return .or(terms, range)
        case .comparison(var comparison):
            comparison.range = range
            return .comparison(comparison)
        }
    }

    private mutating func parseComparison() throws(PredicateSyntaxError) -> Comparison {
        let start = current
        var modifier = Comparison.Modifier.direct
        if case .keyword(let word) = current.kind, ["ANY", "SOME", "ALL", "NONE"].contains(word) {
            _ = advance()
            modifier = word == "ALL" ? .all : word == "NONE" ? .none : .any
        }
        let left = try parseExpression()
        guard let op = comparisonOperator() else {
            throw error("expected a comparison (==, !=, <, >, IN, CONTAINS, UTI-CONFORMS-TO, …) after the expression, found \(describe(current))")
        }
        _ = advance()
        var options = Comparison.Options()
        if isSymbol("[") {
            let open = advance()
            guard case .identifier(let letters) = current.kind, letters.allSatisfy({ "cdnCDN".contains($0) }) else {
                throw error("expected comparison options such as [c], [d] or [cd]", at: open)
            }
            _ = advance()
            options.caseInsensitive = letters.lowercased().contains("c")
            options.diacriticInsensitive = letters.lowercased().contains("d")
            _ = try expectSymbol("]", "to close the options")
        }
        let right = try parseExpression()
        if op == .matches, case .literal(.string(let pattern), let range) = right {
            // A pattern that cannot match anything is a mistake to report where it is written.
            do throws(PredicateSyntaxError) {
                _ = try RegularExpression(pattern)
            } catch {
                throw PredicateSyntaxError(error.code, "\(error.message) (character \(error.offset + 1) of the pattern)", offset: range.start)
            }
        }
        return Comparison(modifier: modifier, left: left, op: op, options: options, right: right,
                          range: start.range.union(right.range))
    }

    private func comparisonOperator() -> Comparison.Operator? {
        switch current.kind {
        case .symbol("=="), .symbol("="): .equal
        case .symbol("!="), .symbol("<>"): .notEqual
        case .symbol("<"): .less
        case .symbol("<="), .symbol("=<"): .lessOrEqual
        case .symbol(">"): .greater
        case .symbol(">="), .symbol("=>"): .greaterOrEqual
        case .keyword(let word): Comparison.Operator(rawValue: word)
        default: nil
        }
    }

    // MARK: Expressions

    private mutating func parseExpression() throws(PredicateSyntaxError) -> PredicateExpression {
        var left = try parseTerm()
        while isSymbol("+") || isSymbol("-") {
            guard case .symbol(let symbol) = advance().kind else { break }
            let right = try parseTerm()
            left = .arithmetic(Character(symbol), left, right, left.range.union(right.range))
        }
        return left
    }

    private mutating func parseTerm() throws(PredicateSyntaxError) -> PredicateExpression {
        var left = try parseUnary()
        while isSymbol("*") || isSymbol("/") {
            guard case .symbol(let symbol) = advance().kind else { break }
            let right = try parseUnary()
            left = .arithmetic(Character(symbol), left, right, left.range.union(right.range))
        }
        return left
    }

    private mutating func parseUnary() throws(PredicateSyntaxError) -> PredicateExpression {
        if isSymbol("-") {
            let minus = advance()
            try nest()
            defer { depth -= 1 }
            let operand = try parseUnary()
            return .negation(operand, minus.range.union(operand.range))
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws(PredicateSyntaxError) -> PredicateExpression {
        let primary = try parsePrimaryExpression()
        var keys: [String] = []
        var end = primary.range
        while isSymbol(".") {
            _ = advance()
            let token = advance()
            switch token.kind {
            case .identifier(let name): keys.append(name)
            default: throw error("expected a key after '.', found \(describe(token))", at: token)
            }
            end = token.range
        }
        guard !keys.isEmpty else { return primary }
        let range = primary.range.union(end)
        if case .keyPath(let base, let existing, _) = primary { return .keyPath(base, existing + keys, range) }
        return .keyPath(.expression(primary), keys, range)
    }

    private mutating func parsePrimaryExpression() throws(PredicateSyntaxError) -> PredicateExpression {
        let token = current
        switch token.kind {
        case .string(let value):
            _ = advance()
            return .literal(.string(value), token.range)
        case .number(let value):
            _ = advance()
            return .literal(.number(value), token.range)
        case .variable(let name):
            _ = advance()
            return .keyPath(.variable(name), [], token.range)
        case .identifier(let name):
            _ = advance()
            return .keyPath(.root, [name], token.range)
        case .keyword("TRUE"), .keyword("YES"):
            _ = advance()
            return .literal(.boolean(true), token.range)
        case .keyword("FALSE"), .keyword("NO"):
            _ = advance()
            return .literal(.boolean(false), token.range)
        case .keyword("NULL"), .keyword("NIL"):
            _ = advance()
            return .literal(.null, token.range)
        case .keyword("SELF"):
            _ = advance()
            return .keyPath(.evaluatedObject, [], token.range)
        case .keyword("SUBQUERY"):
            return try parseSubquery()
        case .symbol("{"):
            _ = advance()
            var elements: [PredicateExpression] = []
            if !isSymbol("}") {
                elements.append(try parseExpression())
                while isSymbol(",") {
                    _ = advance()
                    elements.append(try parseExpression())
                }
            }
            let close = try expectSymbol("}", "to close the aggregate")
            return .aggregate(elements, token.range.union(close.range))
        case .symbol("("):
            _ = advance()
            try nest()
            defer { depth -= 1 }
            let inner = try parseExpression()
            _ = try expectSymbol(")", "to close the '(' at character \(token.range.start + 1)")
            return inner
        default:
            throw error("expected a value, a key path or SUBQUERY, found \(describe(token))")
        }
    }

    private mutating func parseSubquery() throws(PredicateSyntaxError) -> PredicateExpression {
        let start = advance()
        try nest()
        defer { depth -= 1 }
        _ = try expectSymbol("(", "after SUBQUERY")
        let collection = try parseExpression()
        _ = try expectSymbol(",", "after SUBQUERY's collection")
        guard case .variable(let variable) = current.kind else {
            throw error("expected SUBQUERY's variable ($name), found \(describe(current))")
        }
        _ = advance()
        _ = try expectSymbol(",", "after SUBQUERY's variable")
        let predicate = try parsePredicate()
        let close = try expectSymbol(")", "to close SUBQUERY")
        return .subquery(collection: collection, variable: variable, predicate: predicate, start.range.union(close.range))
    }
}
