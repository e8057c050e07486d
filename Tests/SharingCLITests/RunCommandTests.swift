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
        return bundle
    }
}

@Suite("sharing run")
struct RunCommandTests {
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
}
#endif
