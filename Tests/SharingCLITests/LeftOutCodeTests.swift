#if os(Linux)
import Foundation
import Testing

/// Code a device compiles and this build leaves out: `LeftOutCode` (the Appex plugin's tool) finds it in an
/// extension's sources, `sharing bundle --left-out` puts the list in the bundle, and every run reports it as the
/// warning `not-compiled-here`.
@Suite("not-compiled-here")
struct LeftOutCodeTests {
    /// The sources of a notification service, with a block of each kind: the comment before each says whether
    /// it is left out here.
    static let source = """
        import SharingShim
        #if canImport(UIKit)
        import UIKit
        #endif
        #if canImport(FoundationNetworking)
        import FoundationNetworking
        #endif

        final class Service {
            func failed() {
                // left out: only iOS compiles it
                #if os(iOS)
                drawErrorImage()
                #endif
                // left out: iOS compiles the #else
                #if os(Linux)
                print("here")
                #else
                print("on a phone")
                #endif
                // not left out: a device is not a simulator, and not a Mac
                #if targetEnvironment(simulator)
                print("simulator")
                #elseif os(macOS)
                print("Mac")
                #endif
                // not left out: a device runs a release build, without DEBUG, as this bundle is
                #if DEBUG
                print("debug")
                #endif
                // both compile the outer block; the inner one is left out
                #if compiler(>=5.9)
                let ready = true
                #if canImport(UIKit)
                UIApplication.shared.open(url)
                #endif
                #endif
                // left out: a device is arm64, this machine x86_64
                #if arch(arm64)
                print("arm")
                #endif
                // left out: a postfix member only iOS compiles
                let size = value
                    #if os(iOS)
                    .scaled()
                    #endif
            }
            // left out, as a member
            #if !os(Linux)
            func devicesOnly() {}
            #endif
        }
        """

    private static func line(of text: String, after marker: String) -> Int {
        let lines = source.components(separatedBy: "\n")
        let start = lines.firstIndex { $0.contains(marker) }!
        return lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix(text) }! + 1
    }

    /// Runs the built LeftOutCode on `sources` beneath `package`.
    private static func leftOutCode(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Sharing.executable.deletingLastPathComponent().appending(path: "LeftOutCode")
        process.arguments = arguments
        let error = Pipe()
        process.standardError = error
        try process.run()
        let said = try await onOwnThread {
            let said = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return said
        }
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }

    @Test("LeftOutCode lists the outermost clauses iOS compiles and Linux does not, with file, line and condition, and nothing else")
    func scan() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "Sources/Service/Service.swift")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.source.write(to: file, atomically: true, encoding: .utf8)
            let output = directory.appending(path: "left-out.json")
            let result = try await Self.leftOutCode(["--package-directory", directory.path, "--output", output.path, file.path])
            #expect(result.status == 0, "\(result.output)")
            let list = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
            #expect(list["format"] as? String == "opensharing-left-out/1")
            let blocks = (list["blocks"] as? [[String: Any]] ?? []).map { "\($0["file"] as? String ?? ""):\($0["line"] as? Int ?? 0): \($0["condition"] as? String ?? "")" }
            let path = "Sources/Service/Service.swift"
            #expect(blocks == [
                "\(path):\(Self.line(of: "#if os(iOS)", after: "only iOS")): #if os(iOS)",
                "\(path):\(Self.line(of: "#else", after: "iOS compiles the #else")): #else of #if os(Linux)",
                "\(path):\(Self.line(of: "#if canImport(UIKit)", after: "the inner one")): #if canImport(UIKit)",
                "\(path):\(Self.line(of: "#if arch(arm64)", after: "arm64")): #if arch(arm64)",
                "\(path):\(Self.line(of: "#if os(iOS)", after: "a postfix member")): #if os(iOS)",
                "\(path):\(Self.line(of: "#if !os(Linux)", after: "as a member")): #if !os(Linux)",
            ])

            let missing = try await Self.leftOutCode(["--package-directory", directory.path, "--output", output.path, directory.appending(path: "none.swift").path])
            #expect(missing.status == 2)
            #expect(missing.output == "LeftOutCode: \(directory.appending(path: "none.swift").path): cannot be read\n")
        }
    }

    @Test("a bundle's list is reported by every run as a warning naming each block (exit 0); a bundle without one reports none")
    func reported() async throws {
        try await withTemporaryDirectory { directory in
            let list = directory.appending(path: "left-out.json")
            try Data(##"{"format": "opensharing-left-out/1", "blocks": [{"file": "Sources/Share/Share.swift", "line": 12, "condition": "#if os(iOS)"}, {"file": "Sources/Share/Draw.swift", "line": 3, "condition": "#if canImport(UIKit)"}]}"##.utf8).write(to: list)
            let plist = directory.appending(path: "Info.plist")
            try FileManager.default.copyItem(at: repositoryRoot.appending(path: "Examples/Extensions/Uppercase/Info.plist"), to: plist)
            let program = Sharing.executable.deletingLastPathComponent().appending(path: "Uppercase")
            var result = try await Sharing.run(["bundle", program.path, "--info-plist", plist.path, "--output", directory.appending(path: "listed").path,
                                                "--left-out", list.path])
            #expect(result.status == 0, "\(result.standardError)")
            let listed = directory.appending(path: "listed/Uppercase.appex")
            result = try await Sharing.run(["run", listed.path, "--host", "notes", "--text", "hi"])
            #expect(result.status == 0, "a warning fails nothing: \(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("finding: not-compiled-here: 2 blocks of the extension's code that iOS compiles were not compiled here, "
                                                   + "so this run did not run them: Sources/Share/Share.swift:12: #if os(iOS); Sources/Share/Draw.swift:3: #if canImport(UIKit)"),
                    "\(result.standardOutput)")
            let json = try await FindingsTests.report(["run", listed.path, "--host", "notes", "--text", "hi"])
            let found = FindingsTests.findings(json.report)
            #expect(found.first { $0["code"] == "not-compiled-here" }?["severity"] == "warn", "\(found)")

            let unlisted = try ExampleBundle.make("Uppercase", in: directory)
            result = try await Sharing.run(["run", unlisted.path, "--host", "notes", "--text", "hi"])
            #expect(result.status == 0)
            #expect(!result.standardOutput.contains("not-compiled-here"), "\(result.standardOutput)")
        }
    }

    @Test("a list that is not one is refused: by sharing bundle naming --left-out, and in a bundle naming its file (exit 2)", arguments: [
        (#"{"format": "opensharing-left-out/9", "blocks": []}"#, #"its format is "opensharing-left-out/9"; this runtime reads "opensharing-left-out/1""#),
        (##"{"format": "opensharing-left-out/1", "blocks": [{"file": "a.swift", "line": 0, "condition": "#if os(iOS)"}]}"##, "block 0 has an empty or overlong file or condition, or a line below 1"),
        (#"{"blocks": "rm -rf /"}"#, "not a list of left-out code"),
    ])
    func refused(list text: String, reason: String) async throws {
        try await withTemporaryDirectory { directory in
            let list = directory.appending(path: "left-out.json")
            try Data(text.utf8).write(to: list)
            let program = Sharing.executable.deletingLastPathComponent().appending(path: "Uppercase")
            var result = try await Sharing.run(["bundle", program.path, "--info-plist",
                                                repositoryRoot.appending(path: "Examples/Extensions/Uppercase/Info.plist").path,
                                                "--output", directory.path, "--left-out", list.path])
            #expect(result.status == 2)
            #expect(result.standardError.hasPrefix("sharing: error: --left-out \(list.path): \(reason)"), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "Uppercase.appex").path), "no bundle is made")

            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            try FileManager.default.copyItem(at: list, to: bundle.appending(path: "LeftOutCode.json"))
            result = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "hi"])
            #expect(result.status == 2)
            #expect(result.standardError.contains("\(bundle.path): LeftOutCode.json: \(reason)"), "\(result.standardError)")
        }
    }
}
#endif
