import Foundation
@testable import ExtensionManifest
import Testing

@Suite("The predicate language")
struct PredicateTests {
    /// Evaluates a predicate over an object built from JSON-like Swift values.
    func holds(_ source: String, _ object: PredicateValue = .object(label: "o", fields: [:])) throws -> Bool {
        let evaluator = PredicateEvaluator { type, supertype in
            type == supertype || (supertype == "public.image" && ["public.jpeg", "public.png"].contains(type))
        }
        return evaluator.evaluate(try PredicateParser.parse(source), on: object)
    }

    let sample: PredicateValue = .object(label: "o", fields: [
        "name": .string("Crème Brûlée"),
        "count": .number(3),
        "tags": .array([.string("a"), .string("b")]),
        "items": .array([
            .object(label: "i1", fields: ["size": .number(1), "types": .array([.string("public.jpeg")])]),
            .object(label: "i2", fields: ["size": .number(5), "types": .array([.string("public.pdf")])]),
        ]),
    ])

    static let comparisonCases: [(String, Bool)] = [
        ("count == 3", true), ("count = 3", true), ("count != 3", false), ("count <> 4", true), ("count < 4", true),
        ("count <= 3", true), ("count =< 2", false), ("count > 2", true), ("count >= 4", false), ("count => 3", true),
        ("count BETWEEN {1, 3}", true), ("count BETWEEN {4, 9}", false), ("count IN {1, 2, 3}", true),
        ("'b' IN tags", true), ("tags CONTAINS 'a'", true), ("name BEGINSWITH 'Crè'", true), ("name ENDSWITH[c] 'BRÛLÉE'", true),
        ("name CONTAINS[cd] 'creme'", true), ("name CONTAINS 'creme'", false), ("name LIKE 'Cr*e B?ûl*'", true),
        ("name MATCHES 'Cr.*e'", true), ("name MATCHES '[a-z]+'", false), ("count + 2 == 5", true), ("count * 2 - 1 == 5", true),
        ("-count < 0", true), ("(count + 1) * 2 == 8", true), ("((count)) - (1 - 2) == 4", true), ("-(-count) == 3", true), ("1 - --count == -2", true), ("name == nil", false), ("missing == nil", true), ("TRUE == YES", true),
        ("0x10 == 16", true), ("1.5e1 == 15", true), ("name == \"Crème Brûlée\"", true), ("name == 'Cr\\u00e8me'", false),
    ]

    @Test("comparisons, with their spellings", arguments: comparisonCases)
    func comparisons(_ source: String, _ expected: Bool) throws {
        #expect(try holds(source, sample) == expected, "\(source)")
    }

    static let collectionCases: [(String, Bool)] = [
        ("ANY tags == 'b'", true), ("ALL tags == 'b'", false), ("NONE tags == 'z'", true), ("SOME tags == 'a'", true),
        ("items.@count == 2", true), ("items.size.@sum == 6", true), ("items.@sum.size == 6", true), ("items.@max.size == 5", true),
        ("items.@avg.size == 3", true), ("items.@min.size == 1", true), ("items.@unionOfArrays.types.@count == 2", false),
        ("SUBQUERY(items.@unionOfArrays.types, $t, TRUEPREDICATE).@count == 2", true),
        ("SUBQUERY(items, $i, $i.size > 2).@count == 1", true),
        ("SUBQUERY(items, $i, ANY $i.types UTI-CONFORMS-TO 'public.image').@count == 1", true),
        ("SUBQUERY(items, $i, ANY $i.types UTI-EQUALS 'public.PDF').@count == 1", true),
        ("ANY items.types.@count == 1", false), ("ANY items.size == 5", true), ("ALL items.size < 6", true),
        ("SUBQUERY(items, $i, SUBQUERY($i.types, $t, $t BEGINSWITH 'public').@count == 1).@count == items.@count", true),
    ]

    @Test("ANY, ALL, NONE, SUBQUERY, collection operators, type conformance", arguments: collectionCases)
    func collections(_ source: String, _ expected: Bool) throws {
        #expect(try holds(source, sample) == expected, "\(source)")
    }

    static let logicCases: [(String, Bool)] = [
        ("count == 1 OR count == 3 AND name == 'x'", false), ("(count == 1 OR count == 3) AND name != 'x'", true),
        ("NOT count == 1", true), ("!(count == 3)", false), ("count == 3 && tags.@count == 2 || FALSEPREDICATE", true),
        ("truepredicate", true), ("any tags == 'a' and not (count > 5)", true), ("TRUEPREDICATE AND FALSEPREDICATE", false),
    ]

    @Test("AND binds tighter than OR; NOT, !, &&, || and parentheses; keywords in any case", arguments: logicCases)
    func logic(_ source: String, _ expected: Bool) throws {
        #expect(try holds(source, sample) == expected, "\(source)")
    }

    @Test("written back on one line, a predicate parses to itself and answers the same",
          arguments: comparisonCases + collectionCases + logicCases)
    func formatted(_ source: String, _ expected: Bool) throws {
        let written = try PredicateParser.parse(source).description
        #expect(try PredicateParser.parse(written).description == written)
        #expect(try holds(written, sample) == expected, "\(source) written as \(written)")
    }

    @Test("the one-line form: canonical spellings, parentheses only where precedence needs them")
    func formatting() throws {
        #expect(try PredicateParser.parse("(a == 1 || b = 2) && ! ( c <> 'x\\\"y' )").description
                == #"(a == 1 OR b == 2) AND NOT c != "x\"y""#)
        #expect(try PredicateParser.parse("NOT (a == 1 AND b ==[cd] 2) OR a BETWEEN { 1 , 2 } OR -(a + 1) * 2 < 0.5").description
                == "NOT (a == 1 AND b ==[cd] 2) OR a BETWEEN {1, 2} OR -(a + 1) * 2 < 0.5")
        // Keys that would read back as keywords or numbers keep their '#'.
        #expect(try PredicateParser.parse("#0 >= #and.#SELF.x").description == "#0 >= #and.#SELF.x")
        // Negations are written back as they nest, without parentheses that would count against the depth limit.
        let negations = String(repeating: "-", count: 40) + "count == 3"
        #expect(try PredicateParser.parse(PredicateParser.parse(negations).description).description == negations)
        // A quote followed by a combining mark is one Character but still a quote: escaped all the same.
        #expect(try PredicateParser.parse("a == '\"\u{064F}'").description == "a == \"\\\"\u{064F}\"")
        #expect(try PredicateParser.parse("subquery ( items , $i , any $i.types uti-conforms-to 'public.image' ) . @count >= 1").description
                == #"SUBQUERY(items, $i, ANY $i.types UTI-CONFORMS-TO "public.image").@count >= 1"#)
    }

    @Test("syntax errors say what and where", arguments: [
        ("", 0, "expected a value, a key path or SUBQUERY, found the end", PredicateSyntaxError.Code.grammar),
        ("count ==", 8, "expected a value, a key path or SUBQUERY, found the end", .grammar),
        ("count", 5, "expected a comparison (==, !=, <, >, IN, CONTAINS, UTI-CONFORMS-TO, …) after the expression, found the end", .grammar),
        ("count == 3 count", 11, "unexpected 'count' after a complete predicate", .grammar),
        ("(count == 3", 11, "expected ')' to close the '(' at character 1, found the end", .grammar),
        ("name == 'open", 8, "a string that is not closed", .lexical),
        ("SUBQUERY(items, i, TRUEPREDICATE).@count == 1", 16, "expected SUBQUERY's variable ($name), found 'i'", .grammar),
        ("count == %@", 9, "format arguments (%@, %K) cannot appear in an Info.plist predicate: it has no arguments", .lexical),
        ("count ~ 3", 6, "unexpected character '~'", .lexical),
        ("name ==[x] 'a'", 7, "expected comparison options such as [c], [d] or [cd]", .grammar),
        ("items. == 1", 7, "expected a key after '.', found '=='", .grammar),
        ("(count + 1)", 11, "expected a comparison (==, !=, <, >, IN, CONTAINS, UTI-CONFORMS-TO, …) after the expression, found the end", .grammar),
        ("(count == 1) + 2 > 3", 7, "expected ')' to close the '(' at character 1, found '=='", .grammar),
    ])
    func syntaxErrors(_ source: String, _ offset: Int, _ message: String, _ code: PredicateSyntaxError.Code) {
        #expect(throws: PredicateSyntaxError(code, message, offset: offset)) { try PredicateParser.parse(source) }
    }

    @Test("nesting is bounded; long inputs are refused, not followed into a stack overflow")
    func limits() throws {
        let deep = String(repeating: "(", count: 10_000) + "count == 1" + String(repeating: ")", count: 10_000)
        let limit = { (error: any Error) in (error as? PredicateSyntaxError)?.code == .limitExceeded }
        #expect(performing: { try PredicateParser.parse(deep) }, throws: limit)
        let nots = String(repeating: "NOT ", count: 10_000) + "count == 1"
        #expect(performing: { try PredicateParser.parse(nots) }, throws: limit)
        let long = Array(repeating: "count == 1", count: 5_000).joined(separator: " OR ")
        #expect(performing: { try PredicateParser.parse(long) }, throws: limit)
        let fine = String(repeating: "(", count: 30) + "count == 3" + String(repeating: ")", count: 30)
        #expect(try holds(fine, sample))
    }

    @Test("LIKE takes linear time even on patterns built to make backtracking explode")
    func likeIsLinear() {
        let text = Array(String(repeating: "a", count: 5_000) + "b")
        let pattern = Array(String(repeating: "*a", count: 50) + "c")
        #expect(!PredicateEvaluator.wildcard(pattern, text))
    }
}
