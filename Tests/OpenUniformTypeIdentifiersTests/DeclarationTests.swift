import Foundation
import OpenUniformTypeIdentifiers
import Testing

@Suite("App type declarations")
struct DeclarationTests {
    static let infoPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>UTExportedTypeDeclarations</key>
            <array>
                <dict>
                    <key>UTTypeIdentifier</key><string>com.example.decl.doc</string>
                    <key>UTTypeConformsTo</key><array><string>public.json</string></array>
                    <key>UTTypeDescription</key><string>Example Document</string>
                    <key>UTTypeReferenceURL</key><string>https://example.com/doc</string>
                    <key>UTTypeVersion</key><string>3</string>
                    <key>UTTypeTagSpecification</key>
                    <dict>
                        <key>public.filename-extension</key><array><string>exdoc</string><string>.exd</string></array>
                        <key>public.mime-type</key><string>application/x-example-doc</string>
                    </dict>
                </dict>
                <dict>
                    <key>UTTypeIdentifier</key><string>com.example.decl.child</string>
                    <key>UTTypeConformsTo</key><string>com.example.decl.doc</string>
                </dict>
                <dict>
                    <key>UTTypeIdentifier</key><string>public.jpeg</string>
                    <key>UTTypeConformsTo</key><string>public.text</string>
                </dict>
            </array>
            <key>UTImportedTypeDeclarations</key>
            <array>
                <dict>
                    <key>UTTypeIdentifier</key><string>com.example.decl.doc</string>
                    <key>UTTypeConformsTo</key><string>public.image</string>
                </dict>
                <dict>
                    <key>UTTypeIdentifier</key><string>com.example.decl.other</string>
                    <key>UTTypeConformsTo</key><string>com.unknown.parent</string>
                    <key>UTTypeTagSpecification</key>
                    <dict><key>public.filename-extension</key><string>exdoc</string></dict>
                </dict>
            </array>
        </dict>
        </plist>
        """

    @Test("an XML Info.plist's declarations register; exported wins over imported, the system over both")
    func registerXML() throws {
        let declarations = try UTTypeDeclaration.declarations(inInfoPlist: Data(Self.infoPlist.utf8))
        #expect(declarations.map(\.identifier) == ["com.example.decl.doc", "com.example.decl.child", "public.jpeg", "com.example.decl.doc", "com.example.decl.other"])
        #expect(declarations[0].tags[.filenameExtension] == ["exdoc", "exd"])
        let refused = UTType.registerDeclarations(declarations)
        #expect(refused.map(\.identifier) == ["public.jpeg"])

        let doc = try #require(UTType("com.example.decl.doc"))
        #expect(doc.isDeclared && !doc.isSystem && !doc.isDynamic)
        #expect(doc.conforms(to: .json) && !doc.conforms(to: .image))
        #expect(doc.localizedDescription == "Example Document")
        #expect(doc.referenceURL == URL(string: "https://example.com/doc"))
        #expect(doc.version == 3)
        #expect(UTType.jpeg.version == nil)
        #expect(UTType(filenameExtension: "EXDOC") == doc)
        #expect(UTType(filenameExtension: "exd") == doc)
        #expect(UTType(mimeType: "application/x-example-doc") == doc)
        #expect(UTType.types(tag: "exdoc", tagClass: .filenameExtension, conformingTo: nil).map(\.identifier) == ["com.example.decl.doc", "com.example.decl.other"])

        let child = try #require(UTType("COM.EXAMPLE.DECL.CHILD"))
        #expect(child.conforms(to: doc) && child.conforms(to: .text) && child.isSubtype(of: doc))
        #expect(!doc.conforms(to: child))
        #expect(!UTType.json.conforms(to: doc))

        let other = try #require(UTType("com.example.decl.other"))
        #expect(other.conforms(to: UTType(importedAs: "com.unknown.parent")))
        #expect(UTType.jpeg.conforms(to: .image) && !UTType.jpeg.conforms(to: .text))
        #expect(UTType(exportedAs: "com.example.decl.doc") == doc)
    }

    @Test("binary Info.plists read the same")
    func binary() throws {
        let plist: [String: Any] = ["UTImportedTypeDeclarations": [[
            "UTTypeIdentifier": "com.example.decl.binary", "UTTypeConformsTo": ["public.data"],
            "UTTypeTagSpecification": ["public.filename-extension": ["exbin"]],
        ]]]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let declarations = try UTTypeDeclaration.declarations(inInfoPlist: data)
        #expect(declarations == [UTTypeDeclaration(identifier: "com.example.decl.binary", conformsTo: ["public.data"],
                                                   tags: [.filenameExtension: ["exbin"]], isExported: false)])
        UTType.registerDeclarations(declarations)
        #expect(UTType(filenameExtension: "exbin")?.identifier == "com.example.decl.binary")
    }

    @Test("declaration cycles are broken, not followed forever")
    func cycles() throws {
        UTType.registerDeclarations([
            UTTypeDeclaration(identifier: "com.example.cycle.a", conformsTo: ["com.example.cycle.b", "public.data"], isExported: true),
            UTTypeDeclaration(identifier: "com.example.cycle.b", conformsTo: ["com.example.cycle.a"], isExported: true),
        ])
        let a = try #require(UTType("com.example.cycle.a"))
        let b = try #require(UTType("com.example.cycle.b"))
        #expect(a.conforms(to: .data))
        #expect(a.conforms(to: b) || b.conforms(to: a))
    }

    @Test("malformed declarations name the key path and position", arguments: [
        ("<plist><array/></plist>", "line 1, column 8: the Info.plist's root is a array, not a dict"),
        ("<dict><key>UTExportedTypeDeclarations</key><dict/></dict>", "line 1, column 44, UTExportedTypeDeclarations: is a dict, not an array"),
        ("<dict><key>UTImportedTypeDeclarations</key><array><string>x</string></array></dict>", "line 1, column 51, UTImportedTypeDeclarations[0]: is a string, not a dict"),
        ("<dict><key>UTImportedTypeDeclarations</key><array><dict/></array></dict>", "line 1, column 51, UTImportedTypeDeclarations[0]: has no UTTypeIdentifier"),
        ("<dict><key>UTExportedTypeDeclarations</key><array><dict><key>UTTypeIdentifier</key><integer>3</integer></dict></array></dict>",
         "line 1, column 84, UTExportedTypeDeclarations[0].UTTypeIdentifier: is a integer, not a string"),
        ("<dict><key>UTExportedTypeDeclarations</key><array><dict><key>UTTypeIdentifier</key><string>dyn.ah62d4rv4ge8027pb</string></dict></array></dict>",
         "line 1, column 84, UTExportedTypeDeclarations[0].UTTypeIdentifier: dynamic identifiers (dyn.…) cannot be declared"),
        ("<dict><key>UTExportedTypeDeclarations</key><array><dict><key>UTTypeIdentifier</key><string>a.b</string><key>UTTypeConformsTo</key><array><true/></array></dict></array></dict>",
         "line 1, column 138, UTExportedTypeDeclarations[0].UTTypeConformsTo[0]: is a boolean, not a string"),
        ("<dict><key>a</key>", "line 1, column 19: not a property list: unexpected end of document"),
    ])
    func malformed(_ plist: String, _ message: String) {
        do {
            _ = try UTTypeDeclaration.declarations(inInfoPlist: Data(plist.utf8))
            Issue.record("accepted: \(plist)")
        } catch {
            #expect(error.description == message)
            #expect(error.code == (message.contains("not a property list") ? .notAPropertyList : message.contains("no UTTypeIdentifier") ? .missingIdentifier
                                   : message.contains("is not a type identifier") || message.contains("dynamic") ? .invalidIdentifier : .wrongKind))
        }
    }
}
