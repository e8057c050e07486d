import Foundation
import Testing

@Suite("sharing types")
struct TypesCommandTests {
    @Test("an identifier: conformance in depth-first order, tags, kind")
    func identifier() async throws {
        let result = try await Sharing.run(["types", "public.jpeg"])
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            public.jpeg  JPEG image
              kind:         system
              conforms to:  public.image, public.data, public.item, public.content
              extensions:   jpeg, jpg, jpe
              MIME types:   image/jpeg, image/jpg

            """)
    }

    @Test("an extension, a MIME type and a bare word")
    func tags() async throws {
        let result = try await Sharing.run(["types", ".pdf", "image/png", "lua"])
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            com.adobe.pdf  PDF document
              query:        .pdf
              kind:         system
              conforms to:  public.data, public.item, public.composite-content, public.content
              extensions:   pdf
              MIME types:   application/pdf
            public.png  PNG image
              query:        image/png
              kind:         system
              conforms to:  public.image, public.data, public.item, public.content
              extensions:   png
              MIME types:   image/png
            dyn.ah62d4rv4ge8027pb
              query:        lua
              kind:         dynamic
              conforms to:  public.data, public.item
              extensions:   lua

            """)
    }

    @Test("a tag several types claim names the others")
    func alsoClaimed() async throws {
        let result = try await Sharing.run(["types", ".plist"])
        #expect(result.standardOutput.contains("also claimed: com.apple.ascii-property-list, com.apple.binary-property-list, com.apple.xml-property-list"))
    }

    @Test("--json for machines")
    func json() async throws {
        let result = try await Sharing.run(["types", "--json", ".heic"])
        #expect(result.status == 0)
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(answers.count == 1)
        #expect(answers[0]["identifier"] as? String == "public.heic")
        #expect(answers[0]["kind"] as? String == "system")
        #expect(answers[0]["conformsTo"] as? [String] == ["public.heif-standard", "public.image", "public.data", "public.item", "public.content"])
        #expect((answers[0]["tags"] as? [String: [String]])?["public.mime-type"] == ["image/heic"])
    }

    @Test("--file: by extension; a folder is public.folder, a bundle directory its package type")
    func files() async throws {
        try await withTemporaryDirectory { directory in
            let photo = directory.appending(path: "photo.JPG")
            try Data([0xFF, 0xD8]).write(to: photo)
            let plain = directory.appending(path: "README")
            try Data().write(to: plain)
            let app = directory.appending(path: "Tool.app")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            let result = try await Sharing.run(["types", "--json", "--file", photo.path, "--file", plain.path, "--file", directory.path, "--file", app.path])
            #expect(result.status == 0)
            let answers = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
            #expect(answers.map { $0["identifier"] as? String } == ["public.jpeg", "public.data", "public.folder", "com.apple.application-bundle"])
        }
    }

    @Test("--declarations makes an app's types known")
    func declarations() async throws {
        try await withTemporaryDirectory { directory in
            let plist = directory.appending(path: "Info.plist")
            try Data("""
                <plist><dict><key>UTExportedTypeDeclarations</key><array><dict>
                <key>UTTypeIdentifier</key><string>com.example.cli.doc</string>
                <key>UTTypeConformsTo</key><string>public.json</string>
                <key>UTTypeDescription</key><string>CLI Document</string>
                <key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><string>clidoc</string></dict>
                </dict></array></dict></plist>
                """.utf8).write(to: plist)
            let result = try await Sharing.run(["types", "--declarations", plist.path, ".clidoc"])
            #expect(result.status == 0)
            #expect(result.standardOutput.hasPrefix("""
                com.example.cli.doc  CLI Document
                  query:        .clidoc
                  kind:         declared
                  conforms to:  public.json, public.text, public.data, public.item, public.content
                """))
        }
    }

    @Test("what is not a type: a message on standard error and exit status 1; the rest still answered")
    func notAType() async throws {
        let result = try await Sharing.run(["types", "public.png", "com.example.nobody"])
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix("public.png"))
        #expect(result.standardError == "sharing: error: 'com.example.nobody' is not a type identifier known here (write a filename extension as .ext, a MIME type as type/subtype)\n")
    }

    @Test("a missing file and an unreadable declarations file are errors")
    func missingFiles() async throws {
        let missing = try await Sharing.run(["types", "--file", "/nonexistent/x.pdf"])
        #expect(missing.status == 2)
        #expect(missing.standardError == "sharing: error: --file /nonexistent/x.pdf: no such file or directory\n")
        let badPlist = try await Sharing.run(["types", "--declarations", "/nonexistent/Info.plist", "public.png"])
        #expect(badPlist.status == 2)
        #expect(badPlist.standardError.hasPrefix("sharing: error: --declarations: cannot read /nonexistent/Info.plist"))
    }

    @Test("no query is a usage error")
    func usage() async throws {
        let result = try await Sharing.run(["types"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("Give at least one type, extension, MIME type or --file."))
    }

    @Test("--version is the checkout's own, as git describes it, not a number written once in the source")
    func version() async throws {
        let result = try await Sharing.run(["--version"])
        #expect(result.status == 0)
        let git = Process(), output = Pipe()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", repositoryRoot.path, "describe", "--tags", "--always"]
        git.standardOutput = output
        try git.run()
        let described = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        #expect(!described.isEmpty && result.standardOutput == described, "\(result.standardOutput) \(described)")
    }
}
