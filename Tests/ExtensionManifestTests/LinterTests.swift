import Foundation
@testable import ExtensionManifest
import Testing

@Suite("The linter")
struct LinterTests {
    static let corpus = repositoryRoot.appendingPathComponent("Tests/Fixtures/extension-manifests")

    func lint(_ xml: String) throws -> [Diagnostic] {
        ManifestLinter.lint(try ExtensionManifest(data: Data(xml.utf8)))
    }

    /// An Info.plist with this NSExtension body.
    func plist(_ extensionBody: String, top: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \(top)<key>NSExtension</key>
        <dict>
        \(extensionBody)
        </dict>
        </dict>
        </plist>
        """
    }

    func share(rule: String) -> String {
        plist("""
            <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
            <key>NSExtensionPrincipalClass</key><string>ShareViewController</string>
            <key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key>\(rule)</dict>
            """)
    }

    func messages(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.severity.rawValue) \($0.keyPath): \($0.message)" }
    }

    @Test("every Info.plist of the corpus lints, and the known mistakes in it are found")
    func corpus() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { !$0.hasSuffix(".md") }
        #expect(folders.count == 34)
        var findings: [String: [Diagnostic]] = [:]
        for folder in folders {
            let (_, manifest, diagnostics) = ManifestLinter.lint(fileAt: Self.corpus.appendingPathComponent(folder))
            #expect(manifest != nil, "\(folder)")
            findings[folder] = diagnostics
        }
        // The two real TRUEPREDICATEs.
        for folder in ["KasemJaffer__receive_sharing_intent__example-ActionExtension", "nextcloud__ios__Action-Assistant"] {
            #expect(findings[folder]!.contains { $0.severity == .error && $0.message.hasPrefix("TRUEPREDICATE") }, "\(folder)")
        }
        // Strict matching placed beside the rule instead of inside it, and as an integer.
        for folder in ["j3k0__cordova-plugin-openwith__ShareExtension", "omnivore-app__omnivore__ShareExtension"] {
            let keys = findings[folder]!.map(\.keyPath)
            #expect(keys.contains("NSExtension.NSExtensionAttributes.NSExtensionActivationUsesStrictMatching"), "\(folder)")
            #expect(findings[folder]!.contains { $0.message.contains("belongs in the NSExtensionActivationRule dictionary") })
        }
        #expect(findings["mozilla-mobile__firefox-ios__ActionExtension"]!.contains { $0.keyPath == "NSExtension.CFBundleDisplayName" })
        // Build-setting references are not mistakes: no corpus file gets an error for one.
        for (folder, diagnostics) in findings {
            #expect(!diagnostics.contains { $0.message.contains("$(") }, "\(folder)")
        }
        // Files with no known problem are clean of errors.
        let clean = ["Ranchero-Software__NetNewsWire__iOS-ShareExtension", "home-assistant__iOS__Share", "zotero__zotero-ios__ZShare",
                     "signalapp__Signal-iOS__SignalShareExtension", "TelegramMessenger__Telegram-iOS__Share", "duckduckgo__iOS__ShareExtension"]
        for folder in clean { #expect(!findings[folder]!.contains { $0.severity == .error }, "\(folder): \(messages(findings[folder]!))") }
    }

    @Test("a careless manifest: each mistake, where it is, with a fix")
    func careless() throws {
        let (_, _, diagnostics) = ManifestLinter.lint(fileAt: repositoryRoot.appendingPathComponent("Examples/manifests/Careless.plist"))
        #expect(messages(diagnostics) == [
            "error NSExtension.NSExtensionActivationRule: NSExtensionActivationRule belongs in NSExtensionAttributes, not in NSExtension; here the system ignores it",
            "error NSExtension.NSExtensionAttributes.NSExtensionActivationRule.NSExtensionActivationSupportsImagesWithMaxCount: unknown key NSExtensionActivationSupportsImagesWithMaxCount: did you mean NSExtensionActivationSupportsImageWithMaxCount? As written the system ignores it",
            "error NSExtension.NSExtensionAttributes.NSExtensionActivationRule.NSExtensionActivationSupportsText: NSExtensionActivationSupportsText is an integer; it takes a boolean (write <true/>; App Store validation rejects an integer here)",
            "error NSExtension.NSExtensionAttributes.NSExtensionActivationRule.NSExtensionActivationSupportsWebURLWithMaxCount: NSExtensionActivationSupportsWebURLWithMaxCount is -1; a count cannot be negative",
            "warning CFBundlePackageType: CFBundlePackageType is \"APPL\"; app extensions are \"XPC!\" bundles",
            "warning NSExtension.NSExtensionAttributes.NSExtensionServiceRoleType: NSExtensionServiceRoleType applies to Action (with a user interface), Action (without a user interface) extensions, not to Share",
            "warning NSExtension.NSExtensionAttributes.NSExtensionServiceRoleType: NSExtensionServiceRoleType is a macOS key; this Info.plist is for iOS, which ignores it",
        ])
        #expect(diagnostics[1].line == 25 && diagnostics[1].column == 5)
        #expect(diagnostics[1].fix == "rename it to NSExtensionActivationSupportsImageWithMaxCount")
    }

    @Test("IntentsSupported where iOS reads it: a share extension, a notification service making communication notifications; elsewhere a warning")
    func intentsSupported() throws {
        let intents = "<key>NSExtensionAttributes</key><dict><key>IntentsSupported</key><array><string>INSendMessageIntent</string></array></dict>"
        let service = try lint(plist("<key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.service</string>"
                                     + "<key>NSExtensionPrincipalClass</key><string>X</string>" + intents))
        #expect(service.isEmpty, "\(messages(service))")
        let content = try lint(plist("<key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string>"
                                     + "<key>NSExtensionPrincipalClass</key><string>X</string>" + intents))
        #expect(content.contains { $0.keyPath == "NSExtension.NSExtensionAttributes.IntentsSupported" && $0.severity == .warning }, "\(messages(content))")
    }

    @Test("missing pieces: no NSExtension, no extension point, no rule, no principal class")
    func missing() throws {
        #expect(messages(try lint("<plist><dict><key>CFBundleName</key><string>x</string></dict></plist>"))
                == ["error NSExtension: no NSExtension dictionary: this is not an app extension's Info.plist"])
        #expect(try lint(plist("<key>NSExtensionPrincipalClass</key><string>X</string>"))
            .contains { $0.keyPath == "NSExtension.NSExtensionPointIdentifier" && $0.severity == .error })
        let noRule = try lint(plist("""
            <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
            <key>NSExtensionMainStoryboard</key><string>MainInterface</string>
            """))
        #expect(messages(noRule) == ["error NSExtension.NSExtensionAttributes.NSExtensionActivationRule: no NSExtensionActivationRule: a share or action extension without one is never offered"])
        let noClass = try lint(plist("<key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.service</string>"))
        #expect(messages(noClass) == ["error NSExtension: a Notification service extension needs NSExtensionPrincipalClass"])
        let misspelledPoint = try lint(plist("<key>NSExtensionPointIdentifier</key><string>com.apple.share-service</string><key>NSExtensionPrincipalClass</key><string>X</string>"))
        #expect(messages(misspelledPoint) == ["warning NSExtension.NSExtensionPointIdentifier: unknown extension point com.apple.share-service; did you mean com.apple.share-services?"])
    }

    @Test("predicates: syntax errors placed at their line and column, entities and all")
    func predicateSyntax() throws {
        let diagnostics = try lint(share(rule: "<string>SUBQUERY(extensionItems, $e,\n  $e.attachments.@count &gt;= )</string>"))
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].message == "the predicate does not parse: expected a value, a key path or SUBQUERY, found ')'")
        // Line 9 of the document, where `&gt;` takes four characters: the ')' is the 31st.
        #expect(diagnostics[0].line == 9 && diagnostics[0].column == 31)
    }

    @Test("predicates: unknown types, lists without ANY, unbound variables, unknown keys")
    func predicateSemantics() throws {
        let rule = """
            <string>SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $a,
              ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.imag"
              OR $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.movie"
              OR ANY $b.registeredTypeIdentifiers UTI-CONFORMS-TO "com.example.thing"
              OR ANY $a.registeredTypeIdentifier UTI-CONFORMS-TO "public.url").@count &gt;= 1).@count == 1</string>
            """
        let diagnostics = try lint(share(rule: rule))
        #expect(messages(diagnostics).sorted() == [
            "error NSExtension.NSExtensionAttributes.NSExtensionActivationRule: $b is not defined here: variables come from an enclosing SUBQUERY",
            "warning NSExtension.NSExtensionAttributes.NSExtensionActivationRule: com.example.thing is declared neither by the system nor by this Info.plist; the rule relies on the host app registering it",
            "warning NSExtension.NSExtensionAttributes.NSExtensionActivationRule: public.imag is not a known type identifier; did you mean public.image?",
            "warning NSExtension.NSExtensionAttributes.NSExtensionActivationRule: registeredTypeIdentifier is not a key of what the rule sees (extensionItems, attachments, registeredTypeIdentifiers); did you mean registeredTypeIdentifiers?",
            "warning NSExtension.NSExtensionAttributes.NSExtensionActivationRule: registeredTypeIdentifiers is a list; comparing it as a whole is always false",
        ])
        #expect(diagnostics.first { $0.message.hasPrefix("public.imag") }.map { [$0.line, $0.column] } == [9, 52])
    }

    @Test("rules that match everything or nothing")
    func reach() throws {
        let everything = try lint(share(rule: "<string>extensionItems.@count &gt;= 0</string>"))
        #expect(everything.map(\.message) == ["the rule matches every share, even one with nothing in it: it works as TRUEPREDICATE, which App Store review rejects"])
        let nothing = try lint(share(rule: "<string>extensionItems.@count &lt; 0</string>"))
        #expect(nothing.map(\.message).first?.hasPrefix("the rule matches none of") == true)
        let never = try lint(share(rule: "<dict><key>NSExtensionActivationSupportsImageWithMaxCount</key><integer>0</integer></dict>"))
        #expect(never.contains { $0.message == "the rule takes no kind of attachment (every count is 0 or absent): the extension is never offered" })
        #expect(try lint(share(rule: "<string>FALSEPREDICATE</string>")).map(\.message) == ["FALSEPREDICATE: the extension is never offered"])
    }

    @Test("types the Info.plist declares itself are known")
    func declaredTypes() throws {
        let top = """
            <key>UTImportedTypeDeclarations</key><array><dict><key>UTTypeIdentifier</key><string>com.example.doc</string></dict></array>
            """
        let body = """
            <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
            <key>NSExtensionPrincipalClass</key><string>X</string>
            <key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key>
            <string>SUBQUERY(extensionItems, $i, SUBQUERY($i.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.example.doc").@count == 1).@count == 1</string></dict>
            """
        #expect(try lint(plist(body, top: top)).isEmpty)
    }

    @Test("build settings stand for values of any type; a binary Info.plist lints by byte offset")
    func buildSettingsAndBinary() throws {
        let withSettings = share(rule: "<dict><key>NSExtensionActivationSupportsImageWithMaxCount</key><string>$(MAX_IMAGES)</string></dict>")
        #expect(try lint(withSettings).isEmpty)
        let binary = try PropertyListSerialization.data(fromPropertyList: ["NSExtension": ["NSExtensionPointIdentifier": "com.apple.share-services",
                                                                                            "NSExtensionPrincipalClass": "X",
                                                                                            "NSExtensionAttributes": ["NSExtensionActivationRule": "TRUEPREDICATE"]]],
                                                        format: .binary, options: 0)
        let diagnostics = ManifestLinter.lint(try ExtensionManifest(data: binary))
        #expect(diagnostics.count == 1 && diagnostics[0].line == nil && diagnostics[0].byteOffset != nil)
    }

    @Test("unreadable files are one error each, placed when the plist is malformed")
    func unreadable() throws {
        let (_, _, missing) = ManifestLinter.lint(fileAt: URL(fileURLWithPath: "/nonexistent/Info.plist"))
        #expect(missing.count == 1 && missing[0].message.hasPrefix("cannot read the file"))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-lint-\(UUID().uuidString).plist")
        try Data("<plist><dict><key>a</key></dict></plist>".utf8).write(to: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (_, _, malformed) = ManifestLinter.lint(fileAt: scratch)
        #expect(malformed.map { [$0.line, $0.column] } == [[1, 14]])
        #expect(malformed[0].message == "not a property list: <key>a</key> has no value")
    }
}
