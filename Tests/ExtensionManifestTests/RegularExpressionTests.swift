import Foundation
@testable import ExtensionManifest
import PropertyBased
import Testing

@Suite("MATCHES patterns")
struct RegularExpressionTests {
    @Test("ICU's syntax, whole-string matching", arguments: [
        ("public\\.jpe?g", "public.jpeg", true), ("public\\.jpe?g", "public.jpg", true), ("public\\.jpe?g", "publicXjpg", false),
        ("com\\.example\\..*", "com.example.doc", true), ("com\\.example\\..*", "org.example.doc", false),
        ("a|b|cd", "cd", true), ("a|b|cd", "c", false), ("(ab)+", "ababab", true), ("(ab)+", "", false), ("(?:ab)*", "", true),
        ("[a-c]{2,3}", "abc", true), ("[a-c]{2,3}", "a", false), ("[a-c]{2,3}", "abca", false), ("x{3}", "xxx", true),
        ("x{2,}", "xxxxx", true), ("x{2,}", "x", false), ("[^.]+", "abc", true), ("[^.]+", "a.c", false),
        ("\\d+", "0123", true), ("\\d+", "12a", false), ("\\w+", "é_9", true), ("\\s", " ", true), ("\\S\\D\\W", "a-.", true), ("\\S\\D\\W", " -.", false),
        ("[\\d-]+", "1-2", true), ("[]a]+", "]a]", true), ("[a-]+", "a-a", true), (".", "\n", false), (".", "é", true),
        ("^abc$", "abc", true), ("a^b", "ab", false), ("\\u00e9", "é", true), ("\\x{1F600}", "😀", true), ("\\x41", "A", true),
        ("a*?b", "aab", true), ("(a*)*b", "aab", true), ("", "", true), ("", "a", false), ("\\.\\*\\(", ".*(", true),
    ])
    func matching(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try RegularExpression(pattern).matches(text) == expected, "\(pattern) on \(text)")
    }

    @Test("case-insensitive as [c] asks, classes and ranges included")
    func caseInsensitive() throws {
        #expect(try RegularExpression("PUBLIC\\.[A-Z]+", caseInsensitive: true).matches("public.jpeg"))
        #expect(try RegularExpression("ÉTÉ", caseInsensitive: true).matches("été"))
        #expect(try !RegularExpression("PUBLIC", caseInsensitive: false).matches("public"))
    }

    @Test("what is not supported or not well formed is an error saying what, at its place", arguments: [
        ("(a)\\1", 3, "'\\1' is not supported"), ("(?=a)", 0, "'(?' (lookaround, inline flags, named groups) is not supported"),
        ("a*+", 2, "a possessive quantifier is not supported"), ("\\bword", 0, "'\\b' is not supported"),
        ("[[a]]", 1, "a class inside a class is not supported"), ("[a&&b]", 2, "class intersection '&&' is not supported"),
        ("(ab", 3, "expected ')' to close the group opened at character 1"), ("ab)", 2, "')' closes no group"),
        ("*a", 0, "'*' has nothing to repeat"), ("[abc", 4, "expected ']' to close the class opened at character 1"),
        ("a{3,1}", 1, "the interval {3,1} is backwards"), ("a{99999}", 1, "a repetition count above 1000"),
        ("[z-a]", 1, "the range z-a is backwards"), ("a\\", 1, "a pattern cannot end in '\\'"), ("\\u12", 0, "a malformed code point escape"),
    ])
    func refused(_ pattern: String, _ offset: Int, _ message: String) {
        do {
            _ = try RegularExpression(pattern)
            Issue.record("\(pattern) was accepted")
        } catch {
            #expect(error.code == (pattern == "a{99999}" ? .limitExceeded : .regularExpression), "\(pattern)")
            #expect(error.offset == offset, "\(pattern)")
            #expect(error.message.hasPrefix("in the MATCHES pattern, " + message), "\(pattern): \(error.message)")
        }
    }

    @Test("patterns that make backtracking engines take exponential time take linear time here")
    func linear() throws {
        let text = String(repeating: "a", count: 20_000)
        #expect(try !RegularExpression("(a|a)*b").matches(text))
        #expect(try !RegularExpression("(a*)*b").matches(text))
        #expect(try RegularExpression("(a|aa)*").matches(text))
        #expect(performing: { try RegularExpression("((a{1000}){1000}){1000}") }, throws: { ($0 as? PredicateSyntaxError)?.code == .limitExceeded })
    }

    @Test("in a predicate: a bad pattern is a syntax error at its literal; [c] and [d] fold")
    func inPredicates() throws {
        #expect(throws: PredicateSyntaxError(.regularExpression, "in the MATCHES pattern, ')' closes no group (character 2 of the pattern)", offset: 13)) {
            try PredicateParser.parse("name MATCHES 'a)'")
        }
        let object = PredicateValue.object(label: "o", fields: ["name": .string("Crème")])
        let evaluator = PredicateEvaluator { $0 == $1 }
        #expect(evaluator.evaluate(try PredicateParser.parse("name MATCHES[cd] 'creme'"), on: object))
        #expect(!evaluator.evaluate(try PredicateParser.parse("name MATCHES[c] 'creme'"), on: object))
    }

    @Test("the same answers as ICU (NSRegularExpression) on random patterns and texts")
    func agreesWithICU() async {
        // Patterns built from a small grammar over {a, b}, so that texts over the same letters often match.
        // No atom matches the empty string: ICU gives up on some alternations after a repeated empty match
        // (`b(a|)*?|b+` does not match "bb" there), which is ICU's bug, not the semantics to follow.
        let atom = Gen<String?>.element(of: ["a", "b", ".", "[ab]", "[^a]", "(a|b)", "(ab)", "\\w", "(?:ba)"]).map { $0! }
        let quantifier = Gen<String?>.element(of: ["", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?"]).map { $0! }
        let piece = zip(atom, quantifier).map { $0 + $1 }
        let branch = piece.array(of: 0...4).map { $0.joined() }
        let pattern = branch.array(of: 1...3).map { $0.joined(separator: "|") }
        let text = Gen<String?>.element(of: ["a", "b", "c"]).map { $0! }.array(of: 0...7).map { $0.joined() }
        await propertyCheck(count: 2_000, input: pattern, text) { pattern, text in
            let icu = try NSRegularExpression(pattern: "^(?:\(pattern))$")
            let expected = icu.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            #expect(try RegularExpression(pattern).matches(text) == expected, "\(pattern) on \(text)")
        }
    }
}
