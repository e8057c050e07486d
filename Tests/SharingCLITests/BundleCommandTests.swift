#if os(Linux)
import Foundation
import Testing

@Suite("sharing bundle: an Xcode Info.plist and a program as Name.appex")
struct BundleCommandTests {
    /// An Info.plist as Xcode's share extension template writes it: build settings, and keys left to Xcode.
    static let xcodePlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>CFBundleDisplayName</key>
            <string>${PRODUCT_NAME}</string>
            <key>NSExtension</key>
            <dict>
                <key>NSExtensionAttributes</key>
                <dict>
                    <key>NSExtensionActivationRule</key>
                    <string>TRUEPREDICATE</string>
                </dict>
                <key>NSExtensionPointIdentifier</key>
                <string>com.apple.share-services</string>
                <key>NSExtensionPrincipalClass</key>
                <string>$(PRODUCT_MODULE_NAME).ShareViewController</string>
            </dict>
            <key>AppGroup</key>
            <string>group.$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier)</string>
        </dict>
        </plist>
        """

    @Test("an Info.plist whose arrays share their children 40 deep (a few hundred bytes, 2^40 values unshared) is refused, exit 2, by the bounded reader")
    func sharedChildren() async throws {
        try await withTemporaryDirectory { directory in
            let plist = directory.appending(path: "Info.plist")
            // Python's plistlib writes an object it meets twice once, and refers to it: a DAG.
            let made = Process()
            made.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            made.arguments = ["python3", "-c", """
                import plistlib, sys
                value = "leaf"
                for _ in range(40): value = [value, value]
                open(sys.argv[1], "wb").write(plistlib.dumps({"CFBundleExecutable": "x", "Nested": value}, fmt=plistlib.FMT_BINARY))
                """, plist.path]
            try made.run()
            made.waitUntilExit()
            #expect(try Data(contentsOf: plist).count < 2000)
            let program = Sharing.executable.deletingLastPathComponent().appending(path: "Uppercase")
            let result = try await Sharing.run(["bundle", program.path, "--info-plist", plist.path, "--output", directory.appending(path: "out").path])
            #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardError.hasPrefix("sharing: error: --info-plist \(plist.path): "), "\(result.standardError)")
            #expect(result.standardError.contains("more than"), "\(result.standardError)")
        }
    }

    @Test("variables expanded, generated keys filled in, resources at the top; what it makes is a bundle the runtime reads")
    func bundle() async throws {
        try await withTemporaryDirectory { directory in
            let plist = directory.appending(path: "Info.plist")
            try Self.xcodePlist.write(to: plist, atomically: true, encoding: .utf8)
            let resource = directory.appending(path: "Logo.png")
            try Data("png".utf8).write(to: resource)
            let program = Sharing.executable.deletingLastPathComponent().appending(path: "Uppercase")
            let result = try await Sharing.run(["bundle", program.path, "--info-plist", plist.path, "--output", directory.appending(path: "out").path,
                                                "--product-name", "My Share", "--bundle-identifier", "com.example.app.share", "--resource", resource.path])
            #expect(result.status == 0, "\(result.standardError)")
            let bundle = directory.appending(path: "out/My Share.appex")
            #expect(result.standardOutput == "made \(bundle.path)\n")
            let made = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: bundle.appending(path: "Info.plist")), format: nil) as? [String: Any])
            #expect(made["CFBundleDisplayName"] as? String == "My Share")
            #expect(made["CFBundleExecutable"] as? String == "My Share")
            #expect(made["CFBundleIdentifier"] as? String == "com.example.app.share")
            #expect(made["CFBundlePackageType"] as? String == "XPC!")
            #expect(made["CFBundleShortVersionString"] as? String == "1.0" && made["CFBundleVersion"] as? String == "1")
            #expect(made["AppGroup"] as? String == "group.com.example.app.share")
            #expect((made["NSExtension"] as? [String: Any])?["NSExtensionPrincipalClass"] as? String == "My_Share.ShareViewController")
            #expect(FileManager.default.isExecutableFile(atPath: bundle.appending(path: "My Share").path))
            #expect(FileManager.default.fileExists(atPath: bundle.appending(path: "Logo.png").path))
            // The runtime reads it: the extensions command lists it by its name.
            let listed = try await Sharing.run(["extensions", directory.appending(path: "out").path, "--host", "notes", "--text", "hi"])
            #expect(listed.standardOutput.contains("My Share: would appear"), "\(listed.standardOutput)\(listed.standardError)")
        }
    }

    @Test("a build setting it cannot know is bad input naming it, where it is, and the option that sets it; --set gives it")
    func unknownSetting() async throws {
        try await withTemporaryDirectory { directory in
            let plist = directory.appending(path: "Info.plist")
            try Self.xcodePlist.replacingOccurrences(of: "group.$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier)", with: "$(GROUP_ID_PREFIX).shared")
                .write(to: plist, atomically: true, encoding: .utf8)
            let program = Sharing.executable.deletingLastPathComponent().appending(path: "Uppercase").path
            let unknown = try await Sharing.run(["bundle", program, "--info-plist", plist.path, "--output", directory.path])
            #expect(unknown.status == 2)
            #expect(unknown.standardError == "sharing: error: Info.plist AppGroup: $(GROUP_ID_PREFIX) is a build setting not known here; give it with --set GROUP_ID_PREFIX=VALUE\n")
            let given = try await Sharing.run(["bundle", program, "--info-plist", plist.path, "--output", directory.path, "--set", "GROUP_ID_PREFIX=group.com.example"])
            #expect(given.status == 0, "\(given.standardError)")
            let made = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: directory.appending(path: "Uppercase.appex/Info.plist")),
                                                                               format: nil) as? [String: Any])
            #expect(made["AppGroup"] as? String == "group.com.example.shared")
        }
    }

    @Test("a storyboard in place of a principal class: bundled with a note that the program's principal runs")
    func storyboard() async throws {
        try await withTemporaryDirectory { directory in
            let plist = directory.appending(path: "Info.plist")
            try Self.xcodePlist.replacingOccurrences(of: "<key>NSExtensionPrincipalClass</key>", with: "<key>NSExtensionMainStoryboard</key>")
                .replacingOccurrences(of: "<string>$(PRODUCT_MODULE_NAME).ShareViewController</string>", with: "<string>MainInterface</string>")
                .write(to: plist, atomically: true, encoding: .utf8)
            let program = Sharing.executable.deletingLastPathComponent().appending(path: "Uppercase").path
            let result = try await Sharing.run(["bundle", program, "--info-plist", plist.path, "--output", directory.path])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("note: the Info.plist names the storyboard MainInterface"))
            // And the runtime runs the program's principal, saying why in its log.
            let run = try await Sharing.run(["run", directory.appending(path: "Uppercase.appex").path, "--host", "notes", "--text", "shout", "--json"])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            #expect(report["status"] as? String == "completed", "\(run.standardOutput)")
        }
    }
}
#endif
