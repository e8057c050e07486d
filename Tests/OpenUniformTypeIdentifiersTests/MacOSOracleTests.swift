import Foundation
import OpenUniformTypeIdentifiers
import Testing

/// OpenSharing's answers against what real Macs printed. Every difference is listed here with its reason,
/// and the test checks that reason, so an unexplained difference fails.
@Suite("macOS oracles")
struct MacOSOracleTests {
    struct MdlsVector: Decodable, Sendable, CustomTestStringConvertible {
        var `extension`: String
        var contentType: String
        var contentTypeTree: [String]
        var testDescription: String { ".\(`extension`) → \(contentType)" }
    }

    static let mdlsVectors: [MdlsVector] = load("macos-mdls-vectors")
    static let conformanceTrees: [String: [String]] = load("macos-conformance-trees")

    /// Extensions whose type the recording Mac took from an installed app, not from macOS: macOS alone
    /// declares no type for them, so a Mac without those apps (and OpenSharing) answers with a dynamic type.
    static let typesFromInstalledApps: [String: String] = [
        "markdown": "net.daringfireball.markdown, declared by a Markdown editor",
        "md": "net.daringfireball.markdown, declared by a Markdown editor",
        "mdown": "net.daringfireball.markdown, declared by a Markdown editor",
        "sql": "com.sequel-ace.sequel-ace.sql, declared by Sequel Ace",
        "tsx": "com.microsoft.typescript, declared by Visual Studio Code",
        "xcodeproj": "com.apple.xcode.project, declared by Xcode",
        "fs": "org.khronos.glsl.fragment-shader, declared by a shader tool (macOS 13 gives .fs to com.apple.file-system-plug-in, a bundle, so a file gets a dynamic type)",
    ]

    /// Identifiers whose conformance the recording Mac reported differently from the macOS 13.3 declarations:
    /// the Mac had other versions of Microsoft Office, LibreOffice and Instruments installed, whose
    /// declarations of these types replace the system's (shared reference README).
    static let treesFromOtherVersions: Set<String> = [
        "com.microsoft.word.doc", "com.microsoft.word.dot", "org.oasis-open.opendocument.presentation",
        "com.microsoft.excel.sheet.binary.macroenabled", "com.apple.ktrace",
    ]

    @Test("mdls: the type of each extension and its whole conformance tree", arguments: mdlsVectors)
    func mdlsVector(_ vector: MdlsVector) throws {
        let type = try #require(UTType(filenameExtension: vector.extension))
        if let reason = Self.typesFromInstalledApps[vector.extension] {
            // The difference is explained only if macOS's own declarations really lack the recorded type.
            #expect(UTType(vector.contentType) == nil, "\(reason)")
            #expect(type.isDynamic)
            #expect(Set(([type] + type.supertypes).map(\.identifier)) == [type.identifier, "public.data", "public.item"])
            return
        }
        #expect(type.identifier == vector.contentType)
        #expect(type.isDynamic == vector.contentType.hasPrefix("dyn."))
        let tree = Set(([type] + type.supertypes).map(\.identifier))
        #expect(tree == Set(vector.contentTypeTree))
    }

    @Test("the 100 dynamic vectors decode to their extension under public.data")
    func dynamicVectorsDecode() throws {
        let dynamic = Self.mdlsVectors.filter { $0.contentType.hasPrefix("dyn.") }
        #expect(dynamic.count == 100)
        for vector in dynamic {
            let type = try #require(UTType(vector.contentType))
            #expect(type.isDynamic)
            #expect(type.tags == [.filenameExtension: [vector.extension.lowercased()]])
            #expect(type.conforms(to: .data))
        }
    }

    @Test("conformance trees: every identifier the declarations cover conforms exactly as on the Mac")
    func conformanceTrees() {
        var covered = 0, differing: Set<String> = []
        for (identifier, macTree) in Self.conformanceTrees {
            guard let type = UTType(identifier) else { continue }
            covered += 1
            let ours = Set(([type] + type.supertypes).map { $0.identifier.lowercased() })
            if ours != Set(macTree.map { $0.lowercased() }) { differing.insert(identifier) }
        }
        #expect(covered == 285)
        #expect(differing == Self.treesFromOtherVersions)
    }

    private static func load<T: Decodable>(_ name: String) -> T {
        let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Oracles")!
        return try! JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}
