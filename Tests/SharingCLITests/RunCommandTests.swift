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
        // Its resources: the files beside its sources that are neither.
        let sources = repositoryRoot.appending(path: "Examples/Extensions/\(name)")
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where !file.hasSuffix(".swift") && file != "Info.plist" {
            try FileManager.default.copyItem(at: sources.appending(path: file), to: bundle.appending(path: file))
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
            #expect(result.standardError.contains("\(option) must be at least 1MB."), "\(result.standardError)")
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
