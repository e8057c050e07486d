/// A shell-style pattern over a cell's identifier, as expectations name cells: `*` any run of characters, `?`
/// any one, `[abc]` and `[a-z]` (`[!…]` for none of them) one of a set, `\` the next character as itself.
/// Matched in time proportional to pattern × text whatever the stars (no backtracking that a pattern of many
/// stars could make exponential).
struct Glob: Sendable {
    private enum Token: Sendable, Equatable {
        case character(Character)
        case any
        case anyRun
        case set(negated: Bool, ranges: [ClosedRange<Character>])
    }

    private let tokens: [Token]

    init(_ pattern: String) {
        var tokens: [Token] = []
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*": if tokens.last != .anyRun { tokens.append(.anyRun) }
            case "?": tokens.append(.any)
            case "\\": tokens.append(.character(characters.popFirst() ?? "\\"))
            case "[":
                // A set runs to its first `]` after its first character; without one, `[` is itself.
                guard let close = characters.dropFirst().firstIndex(of: "]") else {
                    tokens.append(.character("["))
                    continue
                }
                var members = characters[..<close]
                characters = characters[(close + 1)...]
                let negated = members.first == "!"
                if negated { members = members.dropFirst() }
                var ranges: [ClosedRange<Character>] = []
                while let low = members.popFirst() {
                    if members.first == "-", members.count >= 2, let high = members.dropFirst().first, low <= high {
                        members = members.dropFirst(2)
                        ranges.append(low...high)
                    } else {
                        ranges.append(low...low)
                    }
                }
                tokens.append(.set(negated: negated, ranges: ranges))
            default: tokens.append(.character(character))
            }
        }
        self.tokens = tokens
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool {
        match(text).matches
    }

    /// Whether the whole of `text` matches, and the work it took: the pattern positions visited, one per state a
    /// character of the text was tried against — at most (pattern + 1) × text, whatever the stars.
    func match(_ text: String) -> (matches: Bool, work: Int) {
        let characters = Array(text)
        // The pattern positions reachable after each character of the text, a set at a time.
        var states = closure([0])
        var work = 0
        for character in characters {
            var next = Set<Int>()
            work += states.count
            for state in states where state < tokens.count {
                switch tokens[state] {
                case .anyRun: next.insert(state)
                case .any: next.insert(state + 1)
                case .character(let expected): if expected == character { next.insert(state + 1) }
                case .set(let negated, let ranges): if ranges.contains(where: { $0.contains(character) }) != negated { next.insert(state + 1) }
                }
            }
            states = closure(next)
            if states.isEmpty { return (false, work) }
        }
        return (states.contains(tokens.count), work)
    }

    /// The states with every `*` that can match nothing stepped over.
    private func closure(_ states: Set<Int>) -> Set<Int> {
        var result = states
        for state in states.sorted() {
            var position = state
            while position < tokens.count, tokens[position] == .anyRun {
                position += 1
                result.insert(position)
            }
        }
        return result
    }
}
