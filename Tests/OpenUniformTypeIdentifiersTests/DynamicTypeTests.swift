@testable import OpenUniformTypeIdentifiers
import PropertyBased
import Testing

@Suite("Dynamic types")
struct DynamicTypeTests {
    @Test("the documented example encodes exactly")
    func documentedExample() {
        #expect(UTType(filenameExtension: "lua")?.identifier == "dyn.ah62d4rv4ge8027pb")
    }

    @Test("decoding restores tags and parent; the well-known parents use their one-letter codes")
    func decode() throws {
        for parent: UTType in [.data, .text, .plainText, .utf16PlainText, .image, .movie, .audio, .directory, .folder, .json] {
            let made = try #require(UTType(filenameExtension: "opensharing", conformingTo: parent))
            let decoded = try #require(UTType(made.identifier))
            #expect(decoded == made)
            #expect(decoded.tags == [.filenameExtension: ["opensharing"]])
            #expect(decoded.conforms(to: parent))
            #expect(Set(decoded.supertypes) == Set([parent]).union(parent.supertypes))
        }
    }

    @Test("upper-case dynamic identifiers are the same type")
    func caseInsensitive() throws {
        let lua = try #require(UTType("DYN.AH62D4RV4GE8027PB"))
        #expect(lua.identifier == "dyn.ah62d4rv4ge8027pb")
    }

    @Test("malformed dynamic identifiers give nil: bad prefix, letters outside the alphabet, bad padding, no '?'", arguments: [
        "dyn.a", "dyn.b62d4rv4ge8027pb", "dyn.aiii", "dyn.ah62d4rv4ge8027pba", "dyn.ahh", "dyn.axxxxxxxxxxxxx",
    ])
    func malformed(_ identifier: String) {
        #expect(UTType(identifier) == nil)
    }

    @Test("tags holding the separators round-trip through escaping")
    func escaping() throws {
        for tag in ["a:b", "a=b", #"a\b"#, "::==", #"\"#, "x-é-日本"] {
            let made = try #require(UTType(tag: tag, tagClass: UTTagClass(rawValue: "com.example.tag-class"), conformingTo: .data))
            #expect(made.isDynamic)
            let decoded = try #require(UTType(made.identifier))
            #expect(decoded.tags[UTTagClass(rawValue: "com.example.tag-class")] == [tag])
        }
    }

    @Test("dynamic identifiers round-trip for generated extensions and MIME types")
    func roundTrip() async {
        let word = Gen.letterOrNumber.string(of: 1...24)
        await propertyCheck(count: 300, input: word, Gen.bool) { tag, asMIME in
            let tagClass: UTTagClass = asMIME ? .mimeType : .filenameExtension
            // "zz" keeps the generated tags clear of declared ones ("application/x-xz" is one).
            let value = asMIME ? "application/x-zz\(tag)" : "zz\(tag)"
            guard let made = UTType(tag: value, tagClass: tagClass, conformingTo: .data), made.isDynamic else {
                Issue.record("no dynamic type for \(value)")
                return
            }
            let decoded = UTType(made.identifier)
            #expect(decoded == made)
            #expect(decoded?.tags[tagClass] == [value.lowercased()])
            #expect(decoded?.identifier == made.identifier)
        }
    }

    @Test("a stream of distinct unknown tags does not grow the cache of dynamic types past its bound")
    func boundedCache() {
        for i in 0..<(DynamicTypeCache.capacity + 500) {
            #expect(UTType(filenameExtension: "bound\(i)")?.isDynamic == true)
        }
        #expect(DynamicTypeCache.shared.count <= DynamicTypeCache.capacity)
        // Types made before the cache started over still equal the ones made after.
        #expect(UTType(filenameExtension: "bound0") == UTType(filenameExtension: "BOUND0"))
    }
}
