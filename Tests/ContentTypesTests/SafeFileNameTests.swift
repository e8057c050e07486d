@testable import ContentTypes
import Foundation
import PropertyBased
import SharingShim
import Testing

@Suite("The naming rule")
struct SafeFileNameTests {
    static let hostileCharacters: [Character] = ["/", "\\", ".", "\u{0}", "\u{7}", "\n", "\u{202E}", "\u{200B}", " ", "a", "é", "日", "e\u{301}", ":", "*"]

    @Test("names never escape a directory, never hide, never exceed 255 bytes, over generated hostile names")
    func neverEscapes() async {
        let hostile = Gen<Character?>.element(of: Self.hostileCharacters).map { $0! }.string(of: 0...300)
        await propertyCheck(count: 500, input: hostile) { name in
            let safe = SafeFileName.make(from: name, fallback: "item", extension: .keep)
            #expect(!safe.isEmpty)
            #expect(!safe.contains("/") && !safe.contains("\\"))
            #expect(safe != "." && safe != ".." && !safe.hasPrefix("."))
            #expect(safe.utf8.count <= 255)
            #expect(!safe.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
            let inside = URL(fileURLWithPath: "/inbox").appendingPathComponent(safe).standardized.path
            #expect(inside.hasPrefix("/inbox/"))
        }
    }

    @Test("names differing only in Unicode normalization become one name")
    func normalization() {
        #expect(SafeFileName.make(from: "cafe\u{301}.txt", fallback: "x", extension: .keep)
                == SafeFileName.make(from: "caf\u{E9}.txt", fallback: "x", extension: .keep))
    }

    @Test("collisions get a number before the extension")
    func unique() {
        let taken: Set<String> = ["a.txt", "a 2.txt"]
        #expect(SafeFileName.unique("a.txt") { taken.contains($0) } == "a 3.txt")
        #expect(SafeFileName.unique("b.txt") { taken.contains($0) } == "b.txt")
        let long = String(repeating: "x", count: 251) + ".txt"
        #expect(SafeFileName.unique(long) { $0 == long }.utf8.count <= 255)
    }
}
