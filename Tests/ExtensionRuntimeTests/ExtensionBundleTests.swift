import ExtensionRuntime
import Foundation
import Testing

@Suite("Extension bundles and their discovery")
struct ExtensionBundleTests {
    @Test("discovery finds every .appex in each directory, by name, and reads what the runtime needs")
    func discovery() throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try ExampleBundles.make("Uppercase", in: directory)
        try ExampleBundles.make("NeverCompletes", in: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("NotABundle"), withIntermediateDirectories: true)
        let bundles = try ExtensionBundle.discover(in: [directory])
        #expect(bundles.map(\.name) == ["NeverCompletes", "Uppercase"])
        let uppercase = try #require(bundles.last)
        #expect(uppercase.bundleIdentifier == "org.opensharing.examples.Uppercase")
        #expect(uppercase.extensionPointIdentifier == "com.apple.services")
        #expect(uppercase.executable.lastPathComponent == "Uppercase")
    }

    @Test("a broken bundle is an error with a code that names the bundle and what is wrong", arguments: [
        ("no-plist", ExtensionRuntimeError.Code.unreadableInfoPlist, "no Info.plist"),
        ("no-identifier", .missingKey, "Info.plist has no CFBundleIdentifier"),
        ("no-executable-key", .missingKey, "Info.plist has no CFBundleExecutable"),
        ("escaping-executable", .notExecutable, "CFBundleExecutable \"../Uppercase\" is not a file name in the bundle"),
        ("missing-executable", .notExecutable, "CFBundleExecutable \"Missing\" is not an executable file in the bundle"),
        ("no-extension", .missingKey, "Info.plist has no NSExtension dictionary with NSExtensionPointIdentifier"),
    ])
    func broken(kind: String, code: ExtensionRuntimeError.Code, problem: String) throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ExampleBundles.make("Uppercase", in: directory, named: kind) { plist in
            switch kind {
            case "no-identifier": plist["CFBundleIdentifier"] = nil
            case "no-executable-key": plist["CFBundleExecutable"] = nil
            case "escaping-executable": plist["CFBundleExecutable"] = "../Uppercase"
            case "missing-executable": plist["CFBundleExecutable"] = "Missing"
            case "no-extension": plist["NSExtension"] = nil
            default: break
            }
        }
        if kind == "no-plist" { try FileManager.default.removeItem(at: url.appendingPathComponent("Info.plist")) }
        if kind == "missing-executable" { try FileManager.default.removeItem(at: url.appendingPathComponent("Missing")) }
        expectRuntimeError(code, bundle: url.path, problem) { try ExtensionBundle(url: url) }
        // Discovery reports it rather than skipping it.
        expectRuntimeError(code, bundle: url.path, problem) { try ExtensionBundle.discover(in: [directory]) }
    }

    @Test("a path that is not a bundle directory, or a directory that cannot be listed")
    func notBundles() throws {
        let missing = "/nonexistent/Thing.appex"
        expectRuntimeError(.noSuchBundle, bundle: missing, "no such bundle") { try ExtensionBundle(url: URL(fileURLWithPath: missing)) }
        expectRuntimeError(.notABundle, bundle: "/etc/hostname", "not a directory (an extension is a Name.appex directory)") {
            try ExtensionBundle(url: URL(fileURLWithPath: "/etc/hostname"))
        }
        expectRuntimeError(.unreadableDirectory, bundle: "/nonexistent", "cannot list the directory: The operation could not be completed. The file doesn’t exist.") {
            try ExtensionBundle.discover(in: [URL(fileURLWithPath: "/nonexistent")])
        }
    }
}

/// Expects `body` to throw an `ExtensionRuntimeError` with this code, bundle and message.
func expectRuntimeError<T>(_ code: ExtensionRuntimeError.Code, bundle: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
                           _ body: () throws -> T) {
    do {
        _ = try body()
        Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as ExtensionRuntimeError {
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.bundle == bundle, sourceLocation: sourceLocation)
        #expect(error.message == message, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected an ExtensionRuntimeError, got \(error)", sourceLocation: sourceLocation)
    }
}
