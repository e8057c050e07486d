import Foundation
import Testing

/// Keys whose place Apple's App Extension Keys reference states, tested through the binary.
@Suite("Keys as Apple's reference places them")
struct ReferencePlacementTests {
    /// An action extension for text only, with the dictionary version where `attributesExtra` or `ruleExtra`
    /// puts it, and `extensionExtra` directly in NSExtension.
    func manifest(attributesExtra: String = "", ruleExtra: String = "", extensionExtra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>CFBundleIdentifier</key><string>com.example.texter.action</string>
            <key>CFBundleDisplayName</key><string>Texter</string>
            <key>CFBundlePackageType</key><string>XPC!</string>
            <key>MinimumOSVersion</key><string>16.0</string>
            <key>NSExtension</key>
            <dict>
                <key>NSExtensionPointIdentifier</key><string>com.apple.ui-services</string>
                <key>NSExtensionMainStoryboard</key><string>MainInterface</string>
                \(extensionExtra)
                <key>NSExtensionAttributes</key>
                <dict>
                    \(attributesExtra)
                    <key>NSExtensionActivationRule</key>
                    <dict>
                        <key>NSExtensionActivationSupportsText</key><true/>
                        \(ruleExtra)
                    </dict>
                </dict>
            </dict>
        </dict>
        </plist>
        """
    }

    func run(_ plist: String, _ arguments: [String]) async throws -> CommandResult {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "Info.plist")
            try Data(plist.utf8).write(to: file)
            let image = directory.appending(path: "photo.jpg")
            try FileManager.default.copyItem(at: repositoryRoot.appending(path: "Examples/files/sunset.jpg"), to: image)
            return try await Sharing.run(arguments.map { $0 == "PLIST" ? file.path : $0 == "IMAGE" ? image.path : $0 })
        }
    }

    @Test("the reference's example: an image and text offered to a text-only extension appears under version 2 in NSExtensionAttributes, not under 1")
    func versionInAttributes() async throws {
        let share = ["match", "PLIST", "--host", "notes", "--text", "a note", "--file", "IMAGE"]
        let fuzzy = try await run(manifest(attributesExtra: "<key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>"), share)
        #expect(fuzzy.status == 0, "\(fuzzy.standardOutput)\(fuzzy.standardError)")
        #expect(fuzzy.standardOutput == "Texter: would appear\n")
        let strict = try await run(manifest(), share)
        #expect(strict.status == 1 && strict.standardOutput.hasPrefix("Texter: would not appear"))
        let inRule = try await run(manifest(ruleExtra: "<key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>"), share)
        #expect(inRule.status == 0)
    }

    @Test("lint: the reference's placement is clean; the common one a note saying what is known; a version given twice, differently, a warning")
    func versionLint() async throws {
        let reference = try await run(manifest(attributesExtra: "<key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>"), ["lint", "PLIST"])
        #expect(reference.status == 0 && reference.standardOutput.hasSuffix("  clean\n"), "\(reference.standardOutput)")
        let common = try await run(manifest(ruleExtra: "<key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>"), ["lint", "--format", "gcc", "PLIST"])
        #expect(common.status == 0)
        #expect(common.standardOutput.contains(": note: Apple's App Extension Keys reference places NSExtensionActivationDictionaryVersion in NSExtensionAttributes; shipping extensions commonly put it in the NSExtensionActivationRule dictionary"))
        #expect(!common.standardOutput.contains("ignores"))
        let both = try await run(manifest(attributesExtra: "<key>NSExtensionActivationDictionaryVersion</key><integer>1</integer>",
                                          ruleExtra: "<key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>"), ["lint", "--format", "gcc", "PLIST"])
        #expect(both.standardOutput.contains(": warning: NSExtensionActivationDictionaryVersion is 2 here and 1 in NSExtensionAttributes; OpenSharing uses 2"))
    }

    @Test("lint: NSExtensionActionWantsFullScreenPresentation must be an immediate child of NSExtension")
    func fullScreen() async throws {
        let key = "<key>NSExtensionActionWantsFullScreenPresentation</key><true/>"
        let right = try await run(manifest(extensionExtra: key), ["lint", "PLIST"])
        #expect(right.status == 0 && right.standardOutput.hasSuffix("  clean\n"), "\(right.standardOutput)")
        let wrong = try await run(manifest(attributesExtra: key), ["lint", "--format", "gcc", "PLIST"])
        #expect(wrong.status == 1)
        #expect(wrong.standardOutput.contains(": error: NSExtensionActionWantsFullScreenPresentation belongs in NSExtension, not in NSExtensionAttributes; here the system ignores it [NSExtension.NSExtensionAttributes.NSExtensionActionWantsFullScreenPresentation]"))
    }
}
