/// The regular expressions of `MATCHES`, matched in time linear in the text whatever the pattern.
///
/// `NSPredicate` hands `MATCHES` to ICU, whose backtracking takes exponential time on patterns such as
/// `(a|a)*b`; an Info.plist is untrusted input, so OpenSharing compiles patterns into an automaton and runs
/// every alternative at once (Thompson's construction, simulated as Pike's VM without captures), in
/// O(text × pattern) steps.
///
/// The syntax is ICU's for everything a whole-string match can use: literals and `\`-escapes, `.`, classes
/// (`[a-z_]`, `[^…]`, `\d \w \s` and their negations), groups `(…)` and `(?:…)`, `|`, the quantifiers
/// `* + ? {n} {n,} {n,m}` (lazy or greedy, which whole-string matching cannot tell apart), and `^ $`.
/// Backreferences, lookaround, possessive quantifiers, inline flags, `\b`, `\p{…}` and nested or
/// intersected classes are refused with an error naming them, never misread.
package struct RegularExpression: Sendable {
    /// Most instructions a pattern compiles into, repetitions spelled out.
    static let maximumSize = 10_000

    private enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
        case split(Int, Int)
        case jump(Int)
        case atStart
        case atEnd
        case match
    }

    private let program: [Instruction]
    private let caseInsensitive: Bool

    /// Compiles `pattern`.
    ///
    /// - Throws: `PredicateSyntaxError` with the offset (in Unicode scalars) of what is wrong or unsupported.
    package init(_ pattern: String, caseInsensitive: Bool = false) throws(PredicateSyntaxError) {
        var parser = PatternParser(scalars: Array(pattern.unicodeScalars))
        let tree = try parser.parseWhole()
        var compiler = Compiler()
        try compiler.emit(tree)
        compiler.program.append(.match)
        program = compiler.program
        self.caseInsensitive = caseInsensitive
    }

    /// Whether the whole of `text` matches, as `MATCHES` asks.
    package func matches(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var current = ThreadList(size: program.count), next = ThreadList(size: program.count)
        add(0, at: 0, length: scalars.count, to: &current)
        for (position, scalar) in scalars.enumerated() {
            next.clear()
            for pc in current.threads {
                switch program[pc] {
                case .scalar(let expected):
                    if same(expected, scalar) { add(pc + 1, at: position + 1, length: scalars.count, to: &next) }
                case .set(let set):
                    if set.contains(scalar, caseInsensitive: caseInsensitive) { add(pc + 1, at: position + 1, length: scalars.count, to: &next) }
                default:
                    break
                }
            }
            swap(&current, &next)
            if current.threads.isEmpty { return false }
        }
        return current.threads.contains { if case .match = program[$0] { true } else { false } }
    }

    private func same(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        a == b || (caseInsensitive && ScalarSet.lowercase(a) == ScalarSet.lowercase(b))
    }

    /// Adds the thread at `pc` and every thread reachable from it without reading a scalar.
    private func add(_ pc: Int, at position: Int, length: Int, to list: inout ThreadList) {
        var pending = [pc]
        while let pc = pending.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .jump(let target): pending.append(target)
            case .split(let first, let second): pending.append(contentsOf: [second, first])
            case .atStart: if position == 0 { pending.append(pc + 1) }
            case .atEnd: if position == length { pending.append(pc + 1) }
            case .scalar, .set, .match: list.threads.append(pc)
            }
        }
    }

    /// The threads alive at one position, each instruction at most once.
    private struct ThreadList {
        var threads: [Int] = []
        private var seen: [Bool]

        init(size: Int) {
            seen = Array(repeating: false, count: size)
        }

        mutating func insert(_ pc: Int) -> Bool {
            if seen[pc] { return false }
            seen[pc] = true
            return true
        }

        mutating func clear() {
            for index in seen.indices { seen[index] = false }
            threads.removeAll(keepingCapacity: true)
        }
    }

    private struct Compiler {
        var program: [Instruction] = []

        mutating func emit(_ node: PatternNode) throws(PredicateSyntaxError) {
            guard program.count < RegularExpression.maximumSize else {
                throw PredicateSyntaxError(.limitExceeded, "the MATCHES pattern is too large once its repetitions are spelled out", offset: 0)
            }
            switch node {
            case .scalar(let scalar): program.append(.scalar(scalar))
            case .set(let set): program.append(.set(set))
            case .start: program.append(.atStart)
            case .end: program.append(.atEnd)
            case .sequence(let nodes):
                for node in nodes { try emit(node) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for branch in branches.dropLast() {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(branch)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                }
                try emit(branches[branches.count - 1])
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repetition(let node, let minimum, let maximum):
                for _ in 0..<minimum { try emit(node) }
                if let maximum {
                    // Each optional copy may be skipped, ending the repetition.
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(program.count)
                        program.append(.split(0, 0))
                        try emit(node)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let split = program.count
                    program.append(.split(0, 0))
                    try emit(node)
                    program.append(.jump(split))
                    program[split] = .split(split + 1, program.count)
                }
            }
        }
    }
}

/// A parsed pattern.
private indirect enum PatternNode: Sendable {
    case scalar(Unicode.Scalar)
    case set(ScalarSet)
    case start
    case end
    case sequence([PatternNode])
    case alternation([PatternNode])
    case repetition(PatternNode, minimum: Int, maximum: Int?)
}

/// A class of scalars: ranges and named classes, perhaps negated.
package struct ScalarSet: Sendable {
    enum Named: Sendable {
        case digit, word, space
    }

    var ranges: [ClosedRange<UInt32>] = []
    var named: [(Named, negated: Bool)] = []
    var negated = false

    /// `.`: anything but a line terminator.
    static let any = ScalarSet(ranges: [0x0A...0x0D, 0x85...0x85, 0x2028...0x2029], negated: true)

    func contains(_ scalar: Unicode.Scalar, caseInsensitive: Bool) -> Bool {
        var found = containsExactly(scalar)
        if !found && caseInsensitive {
            found = [Self.lowercase(scalar), Self.uppercase(scalar)].contains { $0 != scalar && containsExactly($0) }
        }
        return found != negated
    }

    private func containsExactly(_ scalar: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(scalar.value) } || named.contains { name, negated in Self.isIn(name, scalar) != negated }
    }

    private static func isIn(_ name: Named, _ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch name {
        case .digit: return properties.generalCategory == .decimalNumber
        case .space: return properties.isWhitespace
        case .word:
            switch properties.generalCategory {
            case .decimalNumber, .connectorPunctuation, .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return properties.isAlphabetic || scalar == "\u{200C}" || scalar == "\u{200D}"
            }
        }
    }

    static func lowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let mapped = scalar.properties.lowercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped.first! : scalar
    }

    static func uppercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let mapped = scalar.properties.uppercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped.first! : scalar
    }
}

private struct PatternParser {
    static let maximumDepth = 64
    static let maximumCount = 1_000

    let scalars: [Unicode.Scalar]
    var index = 0
    var depth = 0

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func error(_ message: String, at offset: Int? = nil, code: PredicateSyntaxError.Code = .regularExpression) -> PredicateSyntaxError {
        PredicateSyntaxError(code, "in the MATCHES pattern, " + message, offset: offset ?? index)
    }

    private func unsupported(_ what: String, at offset: Int) -> PredicateSyntaxError {
        error("\(what) is not supported (OpenSharing matches in linear time, without backtracking)", at: offset)
    }

    mutating func parseWhole() throws(PredicateSyntaxError) -> PatternNode {
        let node = try parseAlternation()
        if current == ")" { throw error("')' closes no group") }
        return node
    }

    private mutating func parseAlternation() throws(PredicateSyntaxError) -> PatternNode {
        var branches = [try parseSequence()]
        while current == "|" {
            index += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(PredicateSyntaxError) -> PatternNode {
        var nodes: [PatternNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            let atom = try parseAtom()
            nodes.append(try parseQuantifiers(atom))
        }
        return nodes.count == 1 ? nodes[0] : .sequence(nodes)
    }

    private mutating func parseQuantifiers(_ atom: PatternNode) throws(PredicateSyntaxError) -> PatternNode {
        var node = atom
        while let scalar = current, "*+?{".unicodeScalars.contains(scalar) {
            let start = index
            index += 1
            let (minimum, maximum): (Int, Int?)
            switch scalar {
            case "*": (minimum, maximum) = (0, nil)
            case "+": (minimum, maximum) = (1, nil)
            case "?": (minimum, maximum) = (0, 1)
            default: (minimum, maximum) = try parseInterval(start: start)
            }
            if case .start = node { throw error("a quantifier cannot follow '^'", at: start) }
            if case .end = node { throw error("a quantifier cannot follow '$'", at: start) }
            node = .repetition(node, minimum: minimum, maximum: maximum)
            if current == "?" { index += 1 }  // lazy: the same strings match the whole text
            else if current == "+" { throw unsupported("a possessive quantifier", at: index) }
            if let next = current, "*{".unicodeScalars.contains(next) { throw error("a quantifier cannot follow a quantifier") }
        }
        return node
    }

    private mutating func parseInterval(start: Int) throws(PredicateSyntaxError) -> (Int, Int?) {
        let minimum = try parseCount(start: start)
        var maximum: Int? = minimum
        if current == "," {
            index += 1
            maximum = current == "}" ? nil : try parseCount(start: start)
        }
        guard current == "}" else { throw error("expected '}' to close the interval opened at character \(start + 1)") }
        index += 1
        if let maximum, maximum < minimum { throw error("the interval {\(minimum),\(maximum)} is backwards", at: start) }
        return (minimum, maximum)
    }

    private mutating func parseCount(start: Int) throws(PredicateSyntaxError) -> Int {
        var value = 0, digits = 0
        while let scalar = current, ("0"..."9").contains(scalar) {
            value = value * 10 + Int(scalar.value - 48)
            digits += 1
            index += 1
            if value > Self.maximumCount { throw error("a repetition count above \(Self.maximumCount)", at: start, code: .limitExceeded) }
        }
        if digits == 0 { throw error("expected a number in the interval opened at character \(start + 1)") }
        return value
    }

    private mutating func parseAtom() throws(PredicateSyntaxError) -> PatternNode {
        let start = index
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case ".": return .set(.any)
        case "^": return .start
        case "$": return .end
        case "[": return .set(try parseClass(start: start))
        case "\\": return try parseEscape()
        case "*", "+", "?", "{": throw error("'\(scalar)' has nothing to repeat", at: start)
        case "(":
            if current == "?" {
                guard index + 1 < scalars.count, scalars[index + 1] == ":" else {
                    throw unsupported("'(?' (lookaround, inline flags, named groups)", at: start)
                }
                index += 2
            }
            depth += 1
            if depth > Self.maximumDepth { throw error("groups nested more than \(Self.maximumDepth) deep", at: start) }
            let inner = try parseAlternation()
            guard current == ")" else { throw error("expected ')' to close the group opened at character \(start + 1)") }
            index += 1
            depth -= 1
            return inner
        default:
            return .scalar(scalar)
        }
    }

    /// A `\`-escape, the backslash read: a named class, a control character, a code point, or a literal.
    private mutating func parseEscape() throws(PredicateSyntaxError) -> PatternNode {
        let start = index - 1
        guard let scalar = current else { throw error("a pattern cannot end in '\\'", at: start) }
        index += 1
        switch scalar {
        case "d", "D": return .set(ScalarSet(named: [(.digit, scalar == "D")]))
        case "w", "W": return .set(ScalarSet(named: [(.word, scalar == "W")]))
        case "s", "S": return .set(ScalarSet(named: [(.space, scalar == "S")]))
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "a": return .scalar("\u{07}")
        case "e": return .scalar("\u{1B}")
        case "u": return .scalar(try parseHex(digits: 4, start: start))
        case "x":
            if current == "{" {
                index += 1
                let value = try parseHex(digits: nil, start: start)
                guard current == "}" else { throw error("expected '}' after \\x{…}") }
                index += 1
                return .scalar(value)
            }
            return .scalar(try parseHex(digits: 2, start: start))
        default:
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                throw unsupported("'\\\(scalar)'", at: start)
            }
            return .scalar(scalar)
        }
    }

    private mutating func parseHex(digits: Int?, start: Int) throws(PredicateSyntaxError) -> Unicode.Scalar {
        var value: UInt32 = 0, count = 0
        while let scalar = current, let digit = scalar.properties.isASCIIHexDigit ? UInt32(String(scalar), radix: 16) : nil,
              digits.map({ count < $0 }) ?? (count < 8) {
            value = value * 16 + digit
            count += 1
            index += 1
        }
        guard count > 0, digits.map({ count == $0 }) ?? true, let result = Unicode.Scalar(value) else {
            throw error("a malformed code point escape", at: start)
        }
        return result
    }

    /// A class, its `[` read.
    private mutating func parseClass(start: Int) throws(PredicateSyntaxError) -> ScalarSet {
        var set = ScalarSet()
        if current == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = current else { throw error("expected ']' to close the class opened at character \(start + 1)") }
            if scalar == "]" && !first { break }
            first = false
            let itemStart = index
            if scalar == "[" { throw unsupported("a class inside a class", at: itemStart) }
            if scalar == "&" && index + 1 < scalars.count && scalars[index + 1] == "&" { throw unsupported("class intersection '&&'", at: itemStart) }
            let low = try parseClassMember()
            guard case .scalar(let lowScalar) = low else {
                if case .set(let named) = low { set.named += named.named }
                continue
            }
            if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                guard case .scalar(let high) = try parseClassMember() else { throw error("a range cannot end in a class", at: itemStart) }
                guard lowScalar.value <= high.value else { throw error("the range \(lowScalar)-\(high) is backwards", at: itemStart) }
                set.ranges.append(lowScalar.value...high.value)
            } else {
                set.ranges.append(lowScalar.value...lowScalar.value)
            }
        }
        index += 1
        return set
    }

    private mutating func parseClassMember() throws(PredicateSyntaxError) -> PatternNode {
        let scalar = scalars[index]
        index += 1
        return scalar == "\\" ? try parseEscape() : .scalar(scalar)
    }
}
