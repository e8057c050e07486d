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

    @Test("a pattern of many stars that cannot match fails in time proportional to its size, not exponentially")
    func manyStars() {
        let pattern = String(repeating: "a*", count: 60) + "b"
        let text = String(repeating: "a", count: 5000)
        let clock = ContinuousClock(), start = clock.now
        #expect(!Glob(pattern).matches(text))
        #expect(start.duration(to: clock.now) < .seconds(10))
    }
}
