#if os(Linux)
import Foundation
import Testing

/// An extension's entitlements travel in its bundle, and the host makes a container for each app group they name,
/// as iOS does; entitlements that are not what they claim are refused with the file and what is wrong.
@Suite("Entitlements: app groups' containers made before the extension starts")
struct EntitlementsTests {
    private static func plist(_ body: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"# + body + "</plist>"
    }

    private static let uppercase = repositoryRoot.appending(path: "Examples/Extensions/Uppercase/Info.plist")

    @Test("a bundle made with --entitlements carries them, and a run makes each group's container in --app-group")
    func containersMade() async throws {
        try await withTemporaryDirectory { directory in
            let entitlements = directory.appending(path: "Uppercase.entitlements")
            try Data(Self.plist("<dict><key>com.apple.security.application-groups</key><array><string>group.org.example.pins</string>"
                                + "<string>group.org.example.shared</string></array></dict>").utf8).write(to: entitlements)
            let program = Sharing.executable.deletingLastPathComponent().appending(path: "Uppercase")
            let made = try await Sharing.run(["bundle", program.path, "--info-plist", Self.uppercase.path, "--output", directory.path,
                                              "--entitlements", entitlements.path])
            #expect(made.status == 0, "\(made.standardError)")
            let bundle = directory.appending(path: "Uppercase.appex")
            #expect(FileManager.default.contents(atPath: bundle.appending(path: "archived-expanded-entitlements.xcent").path)
                    == FileManager.default.contents(atPath: entitlements.path))
            let groups = directory.appending(path: "groups")
            let run = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "hi", "--app-group", groups.path])
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            let made2 = try FileManager.default.contentsOfDirectory(atPath: groups.path).sorted()
            #expect(made2 == ["group.org.example.pins", "group.org.example.shared"])
        }
    }

    @Test("entitlements that are not what they claim are refused: by sharing bundle naming --entitlements, and in a bundle naming its file (exit 2)", arguments: [
        ("<array/>", "is an array, not a dictionary"),
        ("<dict><key>com.apple.security.application-groups</key><string>group.a</string></dict>",
         "com.apple.security.application-groups is a string, not an array of group names"),
        ("<dict><key>com.apple.security.application-groups</key><array><integer>1</integer></array></dict>",
         "com.apple.security.application-groups[0] is an integer, not a group name"),
        ("<dict><key>com.apple.security.application-groups</key><array><string>../../etc</string></array></dict>",
         #"com.apple.security.application-groups[0] "../../etc" cannot name a container directory"#),
    ])
    func refused(body: String, reason: String) async throws {
        try await withTemporaryDirectory { directory in
            let entitlements = directory.appending(path: "bad.entitlements")
            try Data(Self.plist(body).utf8).write(to: entitlements)
            let program = Sharing.executable.deletingLastPathComponent().appending(path: "Uppercase")
            var result = try await Sharing.run(["bundle", program.path, "--info-plist", Self.uppercase.path, "--output", directory.path,
                                                "--entitlements", entitlements.path])
            #expect(result.status == 2)
            #expect(result.standardError.hasPrefix("sharing: error: --entitlements \(entitlements.path): \(reason)"), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "Uppercase.appex").path), "no bundle is made")

            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            try FileManager.default.copyItem(at: entitlements, to: bundle.appending(path: "archived-expanded-entitlements.xcent"))
            result = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "hi"])
            #expect(result.status == 2)
            #expect(result.standardError.contains("\(bundle.path): archived-expanded-entitlements.xcent: \(reason)"), "\(result.standardError)")
        }
    }
}
#endif
