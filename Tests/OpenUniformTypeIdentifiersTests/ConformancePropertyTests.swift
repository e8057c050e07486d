import Foundation
import OpenUniformTypeIdentifiers
import PropertyBased
import Testing

/// Laws of the type system, checked over the whole system table and generated types.
@Suite("Conformance laws")
struct ConformancePropertyTests {
    /// Every type of the macOS 13 declarations, from the data file the table was generated from.
    static let systemTypes: [UTType] = {
        struct Declaration: Decodable { var identifier: String }
        let url = repositoryRoot.appending(path: "Tools/data/apple-declared-types.macos13.json")
        let declarations = try! JSONDecoder().decode([Declaration].self, from: Data(contentsOf: url))
        return declarations.map { UTType($0.identifier)! }
    }()

    @Test("the whole system table loads")
    func tableLoads() {
        #expect(Self.systemTypes.count == 873)
    }

    @Test("conformance is reflexive")
    func reflexive() {
        for type in Self.systemTypes { #expect(type.conforms(to: type)) }
    }

    @Test("every type conforms to each of its supertypes, and is a subtype of each")
    func supertypes() {
        for type in Self.systemTypes {
            for supertype in type.supertypes {
                #expect(type.conforms(to: supertype))
                #expect(type.isSubtype(of: supertype) && supertype.isSupertype(of: type))
            }
        }
    }

    @Test("conformance is transitive and antisymmetric")
    func transitive() async {
        let types = Self.systemTypes
        let pick = Gen<UTType?>.element(of: types).map { $0! }
        await propertyCheck(count: 3000, input: pick, pick, pick) { a, b, c in
            if a.conforms(to: b) && b.conforms(to: c) { #expect(a.conforms(to: c)) }
            if a.conforms(to: b) && b.conforms(to: a) { #expect(a == b) }
            #expect(a.conforms(to: b) == (a == b || a.supertypes.contains(b)))
        }
    }

    @Test("the tags of a declared type map back to it")
    func tagsMapBack() {
        for type in Self.systemTypes {
            for (tagClass, values) in type.tags {
                for value in values {
                    let claimants = UTType.types(tag: value, tagClass: tagClass, conformingTo: nil)
                    #expect(claimants.contains(type), "\(value) → \(type.identifier)")
                    // The preferred answer for the tag is the type itself or another declared claimant.
                    #expect(UTType(tag: value, tagClass: tagClass, conformingTo: type) == type)
                }
            }
        }
    }
}
