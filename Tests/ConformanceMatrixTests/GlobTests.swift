@testable import ConformanceMatrix
import Foundation
import Testing

/// The patterns expectations name cells with.
@Suite("Globs over cell identifiers")
struct GlobTests {
    @Test("stars, question marks, sets and escapes match as a shell matches file names", arguments: [
        ("MemoryHog *", "MemoryHog notes device=none user=post fault=none", true),
        ("* photos *fault=load-fails*", "Saver photos device=none user=post fault=load-fails(nth=1)", true),
        ("* photos *fault=load-fails*", "Saver notes device=none user=post fault=load-fails(nth=1)", false),
        ("Saver ?otes *", "Saver notes device=none", true),
        ("Saver [mn]otes *", "Saver notes x", true),
        ("Saver [!n]otes *", "Saver notes x", false),
        ("Saver [a-m]otes *", "Saver notes x", false),
        (#"fault=slow-host\(delay=2s\)"#, "fault=slow-host(delay=2s)", true),
        ("*", "", true),
        ("?", "", false),
        ("[x", "[x", true),
        ("exact", "exact", true),
        ("exact", "exactly", false),
    ])
    func matching(pattern: String, text: String, matches: Bool) {
        #expect(Glob(pattern).matches(text) == matches)
    }

    @Test("a pattern of many stars that cannot match fails in work proportional to pattern × text, not exponential: counted, not timed")
    func manyStars() {
        let pattern = String(repeating: "a*", count: 60) + "b"
        let text = String(repeating: "a", count: 5000)
        let (matches, work) = Glob(pattern).match(text)
        #expect(!matches)
        // 121 tokens: at most 122 positions per character.
        #expect(work <= 122 * 5000, "\(work)")
        #expect(work >= 5000, "every character was tried: \(work)")
    }
}
