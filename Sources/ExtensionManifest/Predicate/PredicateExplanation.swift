/// Why a predicate is false, clause by clause, down to the elements of a SUBQUERY that do not satisfy it.
extension PredicateEvaluator {
    /// Most lines an explanation gives; the rest is summarized.
    static let explanationLimit = 40

    /// The lines explaining why `predicate` is false for `object`; empty when it holds.
    package func explain(_ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue] = [:]) -> [String] {
        var lines: [String] = []
        explain(predicate, on: object, variables: variables, depth: 0, into: &lines)
        if lines.count > Self.explanationLimit {
            let hidden = lines.count - Self.explanationLimit
            lines = Array(lines.prefix(Self.explanationLimit)) + ["… and \(hidden) more"]
        }
        return lines
    }

    private func explain(_ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue],
                         depth: Int, into lines: inout [String]) {
        guard lines.count <= Self.explanationLimit, !evaluate(predicate, on: object, variables: variables) else { return }
        let pad = String(repeating: "  ", count: depth)
        switch predicate {
        case .constant:
            lines.append("\(pad)FALSEPREDICATE never holds")
        case .and(let terms, _):
            for term in terms { explain(term, on: object, variables: variables, depth: depth, into: &lines) }
        case .or(let terms, _):
            lines.append("\(pad)none of \(terms.count) alternatives holds:")
            for term in terms { explain(term, on: object, variables: variables, depth: depth + 1, into: &lines) }
        case .not(let inner, _):
            lines.append("\(pad)`\(predicate)` is false: `\(inner)` holds")
        case .comparison(let comparison):
            explain(comparison, on: object, variables: variables, depth: depth, into: &lines)
        }
    }

    private func explain(_ comparison: Comparison, on object: PredicateValue, variables: [String: PredicateValue],
                         depth: Int, into lines: inout [String]) {
        let pad = String(repeating: "  ", count: depth)
        let left = value(comparison.left, on: object, variables: variables)
        let right = value(comparison.right, on: object, variables: variables)
        let quoted = "`\(comparison)`"
        switch comparison.modifier {
        case .direct:
            lines.append("\(pad)\(quoted) is false: \(left.label) \(comparison.op.rawValue) \(right.label)")
        case .any:
            lines.append("\(pad)\(quoted) is false: no element of \(left.label) is \(comparison.op.rawValue) \(right.label)")
        case .all:
            lines.append("\(pad)\(quoted) is false: not every element of \(left.label) is \(comparison.op.rawValue) \(right.label)")
        case .none:
            lines.append("\(pad)\(quoted) is false: an element of \(left.label) is \(comparison.op.rawValue) \(right.label)")
        }
        // A counted SUBQUERY on either side: say which elements made the count wrong.
        for (side, sideValue, other) in [(comparison.left, left, right), (comparison.right, right, left)] {
            guard let subquery = Self.countedSubquery(side), case .number(let target) = other,
                  case .number(let count) = sideValue else { continue }
            explainSubquery(subquery, count: count, target: target, on: object, variables: variables, depth: depth + 1, into: &lines)
        }
    }

    /// The SUBQUERY of `SUBQUERY(…).@count`.
    private static func countedSubquery(_ expression: PredicateExpression) -> (PredicateExpression, String, PredicateNode)? {
        guard case .keyPath(.expression(.subquery(let collection, let variable, let predicate, _)), let keys, _) = expression,
              keys.map({ $0.lowercased() }) == ["@count"] else { return nil }
        return (collection, variable, predicate)
    }

    private func explainSubquery(_ subquery: (PredicateExpression, String, PredicateNode), count: Double, target: Double,
                                 on object: PredicateValue, variables: [String: PredicateValue], depth: Int, into lines: inout [String]) {
        let (collection, variable, predicate) = subquery
        // A SUBQUERY of TRUEPREDICATE only counts; listing its elements says nothing.
        if case .constant(true, _) = predicate { return }
        guard case .array(let elements) = value(collection, on: object, variables: variables) else { return }
        let pad = String(repeating: "  ", count: depth)
        var bound = variables
        if count < target {
            // Too few satisfy it: show the ones that do not, and why.
            if elements.isEmpty { lines.append("\(pad)\(collection) is empty") }
            for element in elements {
                bound[variable] = element
                guard !evaluate(predicate, on: object, variables: bound) else { continue }
                lines.append("\(pad)\(element.label):")
                explain(predicate, on: object, variables: bound, depth: depth + 1, into: &lines)
            }
        } else if count > target {
            let matching = elements.filter { element in
                bound[variable] = element
                return evaluate(predicate, on: object, variables: bound)
            }
            lines.append("\(pad)\(matching.count) satisfy `\(predicate)`: \(matching.map(\.label).joined(separator: "; "))")
        }
    }
}
