import Foundation
import Testing

@Suite("sharing lint")
struct LintCommandTests {
    @Test("clean files: 'clean', exit status 0")
    func clean() async throws {
        let result = try await Sharing.run(["lint", "Examples/manifests/PhotoSaver.plist", "Examples/manifests/LinkSaver.plist"], in: repositoryRoot)
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            Examples/manifests/PhotoSaver.plist
              clean

            Examples/manifests/LinkSaver.plist
              clean

            """)
    }

    @Test("--format gcc: FILE:LINE:COL: severity: message [key path], one a line, exit status 1 on errors")
    func gcc() async throws {
        let result = try await Sharing.run(["lint", "--format", "gcc", "Examples/manifests/Careless.plist"], in: repositoryRoot)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines.first == "Examples/manifests/Careless.plist:17:3: error: NSExtensionActivationRule belongs in NSExtensionAttributes, not in NSExtension; here the system ignores it [NSExtension.NSExtensionActivationRule]")
        #expect(lines.filter { $0.contains(": warning: ") }.count == 3)
    }

    @Test("--format json: a report per file, diagnostics with severity, key path, place, message and fix")
    func json() async throws {
        let result = try await Sharing.run(["lint", "--format", "json", "Examples/manifests/Careless.plist", "Examples/manifests/PhotoSaver.plist"], in: repositoryRoot)
        #expect(result.status == 1)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(reports.map { $0["file"] as? String } == ["Examples/manifests/Careless.plist", "Examples/manifests/PhotoSaver.plist"])
        let diagnostics = try #require(reports[0]["diagnostics"] as? [[String: Any]])
        let misspelled = try #require(diagnostics.first { ($0["message"] as? String)?.hasPrefix("unknown key") == true })
        #expect(misspelled["severity"] as? String == "error")
        #expect(misspelled["line"] as? Int == 25 && misspelled["column"] as? Int == 5)
        #expect(misspelled["fix"] as? String == "rename it to NSExtensionActivationSupportsImageWithMaxCount")
        #expect((reports[1]["diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test("a bundle directory is linted through its Info.plist, which the annotations name")
    func bundle() async throws {
        try await withTemporaryDirectory { directory in
            let appex = directory.appending(path: "Careless.appex")
            try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: repositoryRoot.appending(path: "Examples/manifests/Careless.plist"),
                                             to: appex.appending(path: "Info.plist"))
            let result = try await Sharing.run(["lint", "--format", "gcc", appex.path])
            #expect(result.status == 1)
            #expect(result.standardOutput.hasPrefix(appex.appending(path: "Info.plist").path + ":17:3: error: "))
        }
    }

    @Test("what is not an Info.plist: one error each, saying why, exit status 1")
    func unreadable() async throws {
        try await withTemporaryDirectory { directory in
            let huge = directory.appending(path: "huge.plist")
            #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
            let handle = try FileHandle(forWritingTo: huge)
            try handle.truncate(atOffset: 9 << 20)
            try handle.close()
            let malformed = directory.appending(path: "malformed.plist")
            try Data("<plist><dict><key>NSExtension</key><dict></plist>".utf8).write(to: malformed)
            let result = try await Sharing.run(["lint", "--format", "gcc", huge.path, malformed.path, directory.path])
            #expect(result.status == 1)
            #expect(result.standardOutput == """
                \(huge.path): error: larger than 8 MiB: not an Info.plist
                \(malformed.path):1:42: error: not a property list: expected </dict>, found </plist>
                \(directory.path): error: a bundle without Info.plist or Contents/Info.plist

                """)
            // A file that is not there is bad input: nothing is linted.
            let missing = try await Sharing.run(["lint", malformed.path, directory.appending(path: "missing.plist").path])
            #expect(missing.status == 2 && missing.standardOutput.isEmpty)
            #expect(missing.standardError == "sharing: error: \(directory.path)/missing.plist: no such file or directory\n")
        }
    }
}

@Suite("sharing match")
struct MatchCommandTests {
    let photoSaver = "Examples/manifests/PhotoSaver.plist"

    @Test("Photos with one image: would appear, exit status 0")
    func appears() async throws {
        let result = try await Sharing.run(["match", photoSaver, "--host", "photos", "--file", "Examples/files/sunset.jpg"], in: repositoryRoot)
        #expect(result.status == 0)
        #expect(result.standardOutput == "Photo Saver: would appear\n")
    }

    @Test("Photos with eleven images: would not appear, which count, exit status 1")
    func tooMany() async throws {
        let files = Array(repeating: ["--file", "Examples/files/sunset.jpg"], count: 11).flatMap { $0 }
        let result = try await Sharing.run(["match", photoSaver, "--host", "photos"] + files, in: repositoryRoot)
        #expect(result.status == 1)
        #expect(result.standardOutput == """
            Photo Saver: would not appear
              11 images, more than NSExtensionActivationSupportsImageWithMaxCount (10)

            """)
    }

    @Test("a predicate rule: the clause that failed, for the attachment it failed on; --explain prints the rule on one line")
    func predicateExplained() async throws {
        let result = try await Sharing.run(["match", "Examples/manifests/LinkSaver.plist", "--share", "Examples/shares/photos.json", "--explain"], in: repositoryRoot)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Link Saver: would not appear")
        #expect(lines[1] == #"  rule: SUBQUERY(extensionItems, $extensionItem, SUBQUERY($extensionItem.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" AND NOT ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.file-url").@count == $extensionItem.attachments.@count).@count >= 1"#)
        #expect(lines.contains("        item 1, attachment 1 (public.jpeg):"))
        #expect(lines.contains(#"          `ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url"` is false: no element of ("public.jpeg") is UTI-CONFORMS-TO "public.url""#))
    }

    @Test("several manifests against Safari, as JSON: each answered, exit status 1 when one would not appear")
    func json() async throws {
        let result = try await Sharing.run(["match", photoSaver, "Examples/manifests/LinkSaver.plist", "--share", "Examples/shares/safari.json", "--json"], in: repositoryRoot)
        #expect(result.status == 1)
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(answers.map { $0["name"] as? String } == ["Photo Saver", "Link Saver"])
        #expect(answers.map { $0["appears"] as? Bool } == [false, true])
        #expect(answers[0]["reasons"] as? [String] == ["item 1, attachment 1 (public.url) is a web URL; the rule takes images (up to 10), movies (up to 1)"])
    }

    @Test("bad input is exit status 2, like grep's: no share, a missing manifest, a malformed fixture, a predicate that does not parse",
          arguments: ["no share", "missing manifest", "malformed fixture", "bad predicate", "unknown option"])
    func badInput(_ case: String) async throws {
        try await withTemporaryDirectory { directory in
            let manifest = repositoryRoot.appending(path: photoSaver).path
            let share = ["--host", "photos", "--file", repositoryRoot.appending(path: "Examples/files/sunset.jpg").path]
            let arguments: [String]
            switch `case` {
            case "no share":
                arguments = ["match", manifest]
            case "missing manifest":
                arguments = ["match", directory.appending(path: "Missing.plist").path] + share
            case "malformed fixture":
                let fixture = directory.appending(path: "broken.json")
                try Data(#"{"format": "opensharing-share/1", "items": 3}"#.utf8).write(to: fixture)
                arguments = ["match", manifest, "--share", fixture.path]
            case "bad predicate":
                let plist = directory.appending(path: "Info.plist")
                try Data("""
                    <plist><dict><key>NSExtension</key><dict>
                    <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
                    <key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key><string>SUBQUERY(</string></dict>
                    </dict></dict></plist>
                    """.utf8).write(to: plist)
                arguments = ["match", plist.path] + share
            default:
                arguments = ["match", manifest, "--no-such-option"] + share
            }
            let result = try await Sharing.run(arguments)
            #expect(result.status == 2, "\(`case`): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            #expect(!result.standardError.isEmpty)
        }
    }
}
