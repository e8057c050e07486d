#if os(Linux)
import Foundation
import Testing

/// Bundles of the example extensions for the CLI tests: `Name.appex` with the example's Info.plist and a copy
/// of its executable from this build.
enum ExampleBundle {
    static func make(_ name: String, in directory: URL) throws -> URL {
        let bundle = directory.appending(path: "\(name).appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appending(path: "Examples/Extensions/\(name)/Info.plist"),
                                         to: bundle.appending(path: "Info.plist"))
        try FileManager.default.copyItem(at: Sharing.executable.deletingLastPathComponent().appending(path: name),
                                         to: bundle.appending(path: name))
        let sources = repositoryRoot.appending(path: "Examples/Extensions/\(name)")
        // Its resources: the files beside its sources that are neither; its entitlements as the plugin puts them.
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where !file.hasSuffix(".swift") && file != "Info.plist" {
            let kept = file.hasSuffix(".entitlements") ? "archived-expanded-entitlements.xcent" : file
            try FileManager.default.copyItem(at: sources.appending(path: file), to: bundle.appending(path: kept))
        }
        return bundle
    }
}

@Suite("sharing run")
struct RunCommandTests {
    @Test("what an extension returns reaches the terminal with its escape sequences, line breaks and bidirectional controls made visible, never raw")
    func terminalEscaped() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let text = "\u{1B}]0;owned\u{7}\u{1B}[2J\nUppercase: completed\u{202E}txt.exe"
            let result = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", text])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(!result.standardOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" })
            #expect(result.standardOutput.contains(#"  public.plain-text: \u{1B}]0;OWNED\u{7}\u{1B}[2J\u{A}UPPERCASE: COMPLETED\u{202E}TXT.EXE"#), "\(result.standardOutput)")
            #expect(result.standardOutput.components(separatedBy: "Uppercase: completed").count == 2, "one verdict line, the extension's own")
        }
    }

    @Test("--app-group names a directory that does not exist yet: it is made, as receive --inbox makes its inbox")
    func appGroupMade() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("ImageSaver", in: directory)
            let groups = directory.appending(path: "not/yet/groups")
            let result = try await Sharing.run(["run", bundle.path, "--host", "photos",
                                                "--file", repositoryRoot.appending(path: "Examples/files/sunset.jpg").path,
                                                "--app-group", groups.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("ImageSaver: completed"))
            let new = groups.appending(path: "group.org.opensharing.examples/Inbox/new")
            #expect(try FileManager.default.contentsOfDirectory(atPath: new.path).count == 1)
        }
    }

    @Test("--app-group naming a file is bad input: exit status 2, the option and the path named")
    func appGroupIsAFile() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let file = directory.appending(path: "plain-file")
            try Data("x".utf8).write(to: file)
            let result = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "hi", "--app-group", file.path])
            #expect(result.status == 2)
            #expect(result.standardError == "sharing: error: --app-group \(file.path): not a directory\n")
        }
    }

    @Test("--disk-limit bounds a stream the extension is sent: drained to the limit, the load's failure says so, in JSON, and the saver, having kept nothing, cancels saying why: as expected")
    func diskLimit() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("FileSaver", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--file", "/dev/zero", "--disk-limit", "8MB",
                                                "--app-group", directory.appending(path: "groups").path, "--json"])
            // Cancelled because the run's budget cut its load short: as expected, as the matrix counts it.
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let load = try #require((report["loads"] as? [[String: Any]])?.first)
            #expect(load["form"] as? String == "stream")
            // Drained to the room the container has left less the 64 KiB reserve: the budget less what the
            // extension's log and files already hold, a block or two, and the reserve.
            let size = try #require(load["size"] as? Int)
            #expect(size <= (8 << 20) - (64 << 10) && size >= (8 << 20) - (128 << 10), "\(size)")
            #expect(load["failure"] as? String == "cut short at the disk budget after \(size) bytes")
            #expect(report["status"] as? String == "cancelled")
            #expect((report["reason"] as? String)?.contains("nothing of the share was received") == true, "\(report)")
            #expect(((report["findings"] as? [[String: Any]]) ?? []).allSatisfy { $0["severity"] as? String != "fail" })
        }
    }

    @Test("a limit below a megabyte is bad input: exit status 2, the option named", arguments: ["--disk-limit", "--memory-limit"])
    func tinyLimit(option: String) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--text", "hi", option, "10KB"])
            #expect(result.status == 2)
            #expect(result.standardError.contains("\(option) is 10240 bytes (a number with no unit is bytes); a limit is at least 1MB"), "\(result.standardError)")
        }
    }

    @Test("what a person must change is named: a host's missing content and the option that gives it; a fixture's file, field or syntax by its place; a notification service given a share")
    func messages() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("FirstTypeOnly", in: directory)
            var result = try await Sharing.run(["run", bundle.path, "--host", "photos"])
            #expect(result.status == 2)
            #expect(result.standardError == "sharing: error: --host photos shares photos or videos: give one with --file PATH\n", "\(result.standardError)")
            result = try await Sharing.run(["run", bundle.path, "--host", "safari"])
            #expect(result.standardError == "sharing: error: --host safari shares a page URL: give it with --url URL\n", "\(result.standardError)")

            let fixture = directory.appending(path: "share.json")
            func share(_ representation: String) throws {
                try Data(#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [\#(representation)]}]}]}"#.utf8).write(to: fixture)
            }
            try share(#"{"type": "public.jpeg", "provide": "file", "payload": {"file": "missing.jpg"}}"#)
            result = try await Sharing.run(["run", bundle.path, "--share", fixture.path])
            #expect(result.status == 2)
            #expect(result.standardError == "sharing: error: --share \(fixture.path): $.items[0].attachments[0].representations[0].payload: no such file: \(directory.appending(path: "missing.jpg").path)\n",
                    "\(result.standardError)")
            try share(#"{"type": "public.jpeg", "provide": "sideways", "payload": {"file": "x.jpg"}}"#)
            result = try await Sharing.run(["run", bundle.path, "--share", fixture.path])
            #expect(result.standardError.hasSuffix("representations[0].provide: 'sideways' is not one of data, file, openInPlace, directory, object, item\n"),
                    "\(result.standardError)")
            try Data("{\"items\": [\n {\"attachments\": [}\n]}".utf8).write(to: fixture)
            for arguments in [["run", bundle.path, "--share", fixture.path], ["test", bundle.path, "--share", fixture.path, "--work", directory.appending(path: "work").path]] {
                result = try await Sharing.run(arguments)
                #expect(result.status == 2)
                #expect(result.standardError == "sharing: error: --share \(fixture.path): $: not valid JSON at line 2, column 19: invalid value\n", "\(arguments[0]): \(result.standardError)")
            }

            let service = try ExampleBundle.make("SilentService", in: directory)
            result = try await Sharing.run(["run", service.path, "--host", "notes", "--text", "hi"])
            #expect(result.status == 2)
            #expect(result.standardError == "sharing: error: \(service.path) is a notification service: it is given push payloads, not a share; run it with sharing notify \(service.path) --payload FILE\n",
                    "\(result.standardError)")
        }
    }

    @Test("run says which host shared: the profile, a fixture, or none (the content as it is)")
    func saysTheHost() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let plain = try await Sharing.run(["run", bundle.path, "--text", "hi"])
            #expect(plain.standardOutput.hasPrefix("host: none: the content as it is, as no app in particular shares it (--host NAME shares it as that app does"),
                    "\(plain.standardOutput)")
            let notes = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "hi"])
            #expect(notes.standardOutput.hasPrefix("host: notes (Notes)\n"), "\(notes.standardOutput)")
        }
    }

    @Test("a file of /proc, whoever shares it, is bad input: exit status 2, the option and the path named", arguments: [[], ["--host", "files"]])
    func procFile(host: [String]) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--file", "/proc/self/environ"] + host)
            #expect(result.status == 2)
            #expect(result.standardError == "sharing: error: --file /proc/self/environ is on /proc, which is not shared\n")
        }
    }

    @Test("an extension over its memory limit, in JSON: the status word, the reason, the signal, its last words; exit status 1")
    func interruptedJSON() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("MemoryHog", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "x", "--memory-limit", "64MB", "--json"])
            #expect(result.status == 1)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect(report["status"] as? String == "interrupted-memory")
            #expect((report["reason"] as? String)?.hasPrefix("over its memory limit of 64.0 MB (peak ") == true, "\(report)")
            #expect(report["exitStatus"] as? String == "killed by signal 9 (SIGKILL)")
            #expect(report["log"] is [String])
            #expect((report["peakFootprint"] as? Int ?? 0) > 64 << 20)
        }
    }
}
#endif
