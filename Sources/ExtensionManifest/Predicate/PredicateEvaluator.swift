import Foundation

/// A value a predicate is evaluated over: what key paths reach and comparisons compare.
package indirect enum PredicateValue: Sendable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case array([PredicateValue])
    /// An object with keys; `label` names it in explanations ("item 1, attachment 2 (public.jpeg)").
    case object(label: String, fields: [String: PredicateValue])

    var label: String {
        switch self {
        case .object(let label, _): label
        case .string(let value): "\"\(value)\""
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .boolean(let value): value ? "YES" : "NO"
        case .null: "nil"
        case .array(let values): "(\(values.map(\.label).joined(separator: ", ")))"
        }
    }
}

/// Evaluates predicates over `PredicateValue`s with NSPredicate's semantics, and explains why one is false.
///
/// Type conformance (`UTI-CONFORMS-TO`) is asked of `conforms`, so that the evaluator needs no type system of
/// its own; an activation rule passes one backed by `UTType`.
package struct PredicateEvaluator: Sendable {
    package let conforms: @Sendable (_ type: String, _ supertype: String) -> Bool
    package init(conforms: @escaping @Sendable (String, String) -> Bool) {
        self.conforms = conforms
    }

    // MARK: Evaluation

    package func evaluate(_ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue] = [:]) -> Bool {
        switch predicate {
        case .constant(let value, _): return value
        case .not(let inner, _): return !evaluate(inner, on: object, variables: variables)
        case .and(let terms, _): return terms.allSatisfy { evaluate($0, on: object, variables: variables) }
        case .or(let terms, _): return terms.contains { evaluate($0, on: object, variables: variables) }
        case .comparison(let comparison): return evaluate(comparison, on: object, variables: variables)
        }
    }

    private func evaluate(_ comparison: Comparison, on object: PredicateValue, variables: [String: PredicateValue]) -> Bool {
        let left = value(comparison.left, on: object, variables: variables)
        let right = value(comparison.right, on: object, variables: variables)
        switch comparison.modifier {
        case .direct:
            return compare(left, comparison.op, right, comparison.options)
        case .any, .all, .none:
            guard case .array(let elements) = left else { return false }
            let matching = elements.lazy.filter { compare($0, comparison.op, right, comparison.options) }
            switch comparison.modifier {
            case .any: return !matching.isEmpty
            case .all: return matching.count == elements.count
            default: return matching.isEmpty
            }
        }
    }

    package func value(_ expression: PredicateExpression, on object: PredicateValue, variables: [String: PredicateValue]) -> PredicateValue {
        switch expression {
        case .literal(let literal, _):
            switch literal {
            case .null: return .null
            case .boolean(let value): return .boolean(value)
            case .number(let value): return .number(value)
            case .string(let value): return .string(value)
            }
        case .aggregate(let elements, _):
            return .array(elements.map { value($0, on: object, variables: variables) })
        case .keyPath(let base, let keys, _):
            let start: PredicateValue
            switch base {
            case .root, .evaluatedObject: start = object
            case .variable(let name): start = variables[name] ?? .null
            case .expression(let inner): start = value(inner, on: object, variables: variables)
            }
            return Self.follow(keys[...], from: start)
        case .subquery(let collection, let variable, let predicate, _):
            guard case .array(let elements) = value(collection, on: object, variables: variables) else { return .array([]) }
            var bound = variables
            return .array(elements.filter { element in
                bound[variable] = element
                return evaluate(predicate, on: object, variables: bound)
            })
        case .arithmetic(let op, let lhs, let rhs, _):
            guard let a = Self.number(value(lhs, on: object, variables: variables)),
                  let b = Self.number(value(rhs, on: object, variables: variables)) else { return .null }
            switch op {
            case "+": return .number(a + b)
            case "-": return .number(a - b)
            case "*": return .number(a * b)
            default: return b == 0 ? .null : .number(a / b)
            }
        case .negation(let operand, _):
            return Self.number(value(operand, on: object, variables: variables)).map { .number(-$0) } ?? .null
        }
    }

    /// Key-value coding over the value model: keys of objects, keys mapped over arrays, and the collection
    /// operators (`@count`, `@sum`, `@avg`, `@min`, `@max`, `@unionOfArrays`, `@distinctUnionOfArrays`,
    /// `@unionOfObjects`, `@distinctUnionOfObjects`).
    static func follow(_ keys: ArraySlice<String>, from value: PredicateValue) -> PredicateValue {
        guard let key = keys.first else { return value }
        let rest = keys.dropFirst()
        // Only collection operators are matched without regard to case; a plain key is looked up as it is.
        switch key.utf8.first == UInt8(ascii: "@") ? key.lowercased() : "" {
        case "@count":
            guard case .array(let elements) = value else { return .null }
            return follow(rest, from: .number(Double(elements.count)))
        case "@sum", "@avg", "@min", "@max":
            guard case .array(let elements) = value else { return .null }
            let numbers = elements.compactMap { number(follow(rest, from: $0)) }
            switch key.lowercased() {
            case "@sum": return .number(numbers.reduce(0, +))
            case "@avg": return numbers.isEmpty ? .null : .number(numbers.reduce(0, +) / Double(numbers.count))
            case "@min": return numbers.min().map(PredicateValue.number) ?? .null
            default: return numbers.max().map(PredicateValue.number) ?? .null
            }
        case "@unionofarrays", "@distinctunionofarrays":
            guard case .array(let elements) = value else { return .null }
            let flat = elements.flatMap { element -> [PredicateValue] in
                if case .array(let inner) = follow(rest, from: element) { return inner }
                return []
            }
            return .array(key.lowercased() == "@distinctunionofarrays" ? distinct(flat) : flat)
        case "@unionofobjects", "@distinctunionofobjects":
            guard case .array(let elements) = value else { return .null }
            let mapped = elements.map { follow(rest, from: $0) }
            return .array(key.lowercased() == "@distinctunionofobjects" ? distinct(mapped) : mapped)
        default:
            switch value {
            case .object(_, let fields): return follow(rest, from: fields[key] ?? .null)
            case .array(let elements): return follow(rest, from: .array(elements.map { follow([key], from: $0) }))
            default: return .null
            }
        }
    }

    private static func distinct(_ values: [PredicateValue]) -> [PredicateValue] {
        var seen: Set<String> = [], result: [PredicateValue] = []
        for value in values where seen.insert(value.label).inserted { result.append(value) }
        return result
    }

    private static func number(_ value: PredicateValue) -> Double? {
        switch value {
        case .number(let number): number
        case .boolean(let flag): flag ? 1 : 0
        default: nil
        }
    }

    // MARK: Comparison

    private func compare(_ left: PredicateValue, _ op: Comparison.Operator, _ right: PredicateValue, _ options: Comparison.Options) -> Bool {
        switch op {
        case .equal: return equal(left, right, options)
        case .notEqual: return !equal(left, right, options)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = order(left, right, options) else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .between:
            guard case .array(let bounds) = right, bounds.count == 2,
                  let low = order(left, bounds[0], options), let high = order(left, bounds[1], options) else { return false }
            return low >= 0 && high <= 0
        case .in:
            switch right {
            case .array(let elements): return elements.contains { equal(left, $0, options) }
            case .string(let text):
                guard case .string(let part) = left else { return false }
                return fold(text, options).contains(fold(part, options))
            default: return false
            }
        case .contains:
            switch left {
            case .array(let elements): return elements.contains { equal($0, right, options) }
            case .string(let text):
                guard case .string(let part) = right else { return false }
                return fold(text, options).contains(fold(part, options))
            default: return false
            }
        case .beginsWith, .endsWith:
            guard case .string(let text) = left, case .string(let part) = right else { return false }
            return op == .beginsWith ? fold(text, options).hasPrefix(fold(part, options)) : fold(text, options).hasSuffix(fold(part, options))
        case .like:
            guard case .string(let text) = left, case .string(let pattern) = right else { return false }
            return Self.wildcard(Array(fold(pattern, options)), Array(fold(text, options)))
        case .matches:
            let diacritics = Comparison.Options(diacriticInsensitive: options.diacriticInsensitive)
            guard case .string(let text) = left, case .string(let pattern) = right,
                  let expression = try? RegularExpression(fold(pattern, diacritics), caseInsensitive: options.caseInsensitive)
            else { return false }
            return expression.matches(fold(text, diacritics))
        case .conformsTo, .typeEquals:
            guard case .string(let type) = left, case .string(let supertype) = right else { return false }
            return op == .conformsTo ? conforms(type, supertype) : type.lowercased() == supertype.lowercased()
        }
    }

    private func equal(_ left: PredicateValue, _ right: PredicateValue, _ options: Comparison.Options) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)): return fold(a, options) == fold(b, options)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        case (.object(let a, _), .object(let b, _)): return a == b
        default:
            guard let a = Self.number(left), let b = Self.number(right) else { return false }
            return a == b
        }
    }

    private func order(_ left: PredicateValue, _ right: PredicateValue, _ options: Comparison.Options) -> Int? {
        if case .string(let a) = left, case .string(let b) = right {
            let (x, y) = (fold(a, options), fold(b, options))
            return x < y ? -1 : x > y ? 1 : 0
        }
        guard let a = Self.number(left), let b = Self.number(right) else { return nil }
        return a < b ? -1 : a > b ? 1 : 0
    }

    private func fold(_ text: String, _ options: Comparison.Options) -> String {
        var folded = text
        if options.diacriticInsensitive { folded = folded.folding(options: .diacriticInsensitive, locale: nil) }
        if options.caseInsensitive { folded = folded.lowercased() }
        return folded
    }

    /// LIKE: `*` any run, `?` one character; iterative, so no pattern can make it take exponential time.
    static func wildcard(_ pattern: [Character], _ text: [Character]) -> Bool {
        var p = 0, t = 0, star = -1, mark = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) {
                p += 1; t += 1
            } else if p < pattern.count && pattern[p] == "*" {
                star = p; mark = t; p += 1
            } else if star >= 0 {
                p = star + 1; mark += 1; t = mark
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
