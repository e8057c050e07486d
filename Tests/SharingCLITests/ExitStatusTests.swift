import Foundation
import Testing

@Suite("One exit-status rule")
struct ExitStatusTests {
    /// Bad input to every subcommand, and what the message must name. `DIR` is a scratch directory holding
    /// `x.jpg` (JPEG bytes), `inbox/` (an inbox), `manifest.plist` (a valid extension manifest) and `broken.appex/`
    /// (a bundle without an Info.plist).
    static let badInputs: [([String], String)] = [
        (["frobnicate"], "Unexpected argument 'frobnicate'"),
        (["types"], "Give at least one type, extension, MIME type or --file."),
        (["types", "--bogus", "public.png"], "Unknown option '--bogus'"),
        (["types", "--file", "DIR/missing.pdf"], "--file DIR/missing.pdf: no such file or directory"),
        (["types", "--declarations", "DIR/missing.plist", "public.png"], "--declarations: cannot read DIR/missing.plist"),
        (["share"], "Give --share FIXTURE, --host NAME, or --list-hosts."),
        (["share", "--host", "netscape"], "Unknown host 'netscape'"),
        (["share", "--share", "DIR/missing.json"], "DIR/missing.json"),
        (["share", "--host", "safari"], "--host safari: shares a page URL and was given none: give one with --url"),
        (["share", "--host", "safari-image", "--file", "DIR/x.jpg"],
         "--host safari-image: shares the page's URL and was given none: give one with --url"),
        (["lint"], "Missing expected argument '<file> ...'"),
        (["lint", "DIR/missing.plist"], "DIR/missing.plist: no such file or directory"),
        (["lint", "--format", "yaml", "DIR/manifest.plist"], "The value 'yaml' is invalid for '--format <format>'"),
        (["match", "DIR/manifest.plist"], "Give the share: --share FIXTURE, or --host NAME with --file, --url, --text."),
        (["match", "DIR/missing.plist", "--host", "safari", "--url", "https://example.com"], "DIR/missing.plist"),
        (["match", "DIR/manifest.plist", "--host", "safari", "--url", "example.com"], "'example.com' is not an absolute URL."),
        (["receive", "--inbox", "DIR/inbox", "DIR/missing.jpg"], "DIR/missing.jpg: no such file or directory"),
        (["receive", "DIR/x.jpg"], "Missing expected argument '--inbox <dir>'"),
        (["receive", "--inbox", "DIR/inbox", "--host", "screenshot", "--file", "DIR/manifest.plist"],
         "--host screenshot: shares a screenshot image and was given none: give one with --file"),
        (["receive", "--inbox", "DIR/inbox", "DIR/x.jpg", "--accept", "not.a.type.anywhere"], "--accept: 'not.a.type.anywhere' is not a type identifier"),
        (["receive", "--inbox", "DIR/inbox", "DIR/x.jpg", "--memory-budget", "1KB"], "a memory budget of 0.0 MB cannot hold one attachment in flight"),
        (["receive", "--inbox", "DIR/inbox", "DIR/x.jpg", "--memory-budget", "lots"], "The value 'lots' is invalid for '--memory-budget <size>'"),
        (["receive", "--inbox", "DIR/inbox", "DIR/x.jpg", "--timeout", "0"], "--timeout must be positive."),
        (["receive", "--inbox", "DIR/inbox", "DIR/x.jpg", "--previews", "big"], "--previews takes sizes in pixels, like 300,1200; not 'big'."),
        (["inbox", "list", "DIR/missing"], "DIR/missing: no such inbox"),
        (["inbox", "claim", "DIR/inbox", "../../etc"], "'../../etc' is not an inbox item identifier"),
        (["inbox", "gc", "DIR/inbox", "--lease=-5"], "--lease must not be negative."),
        (["inbox", "ack", "DIR/inbox"], "Missing expected argument '<id> ...'"),
        (["thumbnail", "DIR/x.jpg"], "Missing -o/--output (or --header)."),
        (["thumbnail", "DIR/x.jpg", "--max", "0", "-o", "DIR/t.jpg"], "--max must be at least 1."),
        (["thumbnail", "DIR/x.jpg", "--memory-budget", "0", "-o", "DIR/t.jpg"], "--memory-budget must be at least 1 MB."),
        (["thumbnail", "DIR/missing.jpg", "-o", "DIR/t.jpg"], "DIR/missing.jpg: cannot read the image: opening DIR/missing.jpg failed: No such file or directory"),
        (["thumbnail", "DIR", "-o", "DIR/t.jpg"], "DIR: cannot read the image: reading DIR failed: not a regular file"),
        (["extensions", "DIR"], "Give the share: --share FIXTURE, or --host NAME with --file, --url, --text."),
        (["extensions", "DIR/missing", "--host", "notes", "--text", "x"], "DIR/missing: cannot list the directory"),
        (["extensions", "DIR", "--host", "notes", "--text", "x"], "DIR/broken.appex: no Info.plist"),
        (["run", "DIR/missing.appex", "--host", "notes", "--text", "x"], "DIR/missing.appex: no such bundle"),
        (["run", "DIR/broken.appex", "--host", "notes", "--text", "x"], "DIR/broken.appex: no Info.plist"),
        (["run", "DIR/manifest.plist", "--host", "notes", "--text", "x"], "DIR/manifest.plist: not a directory"),
        (["run", "DIR/broken.appex", "--host", "notes", "--text", "x", "--timeout", "0"], "--timeout must be more than 0 seconds and at most a day."),
        (["run", "DIR/broken.appex", "--host", "notes", "--text", "x", "--memory-limit", "10KB"],
         "--memory-limit is 10240 bytes (a number with no unit is bytes); a limit is at least 1MB: write 10240MB for 10240 megabytes."),
        (["run", "DIR/broken.appex", "--host", "notes", "--text", "x", "--memory-limit", "120"],
         "--memory-limit is 120 bytes (a number with no unit is bytes); a limit is at least 1MB: write 120MB for 120 megabytes."),
        (["run", "DIR/broken.appex"], "Give the share: --share FIXTURE, or --host NAME with --file, --url, --text, or those alone."),
    ]

    @Test("bad input to any subcommand: exit status 2 and a message naming what was wrong", arguments: badInputs)
    func badInput(_ arguments: [String], _ message: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path
            try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: directory.appending(path: "x.jpg"))
            try FileManager.default.copyItem(at: repositoryRoot.appending(path: "Examples/manifests/LinkSaver.plist"),
                                             to: directory.appending(path: "manifest.plist"))
            _ = try await Sharing.run(["receive", "--inbox", path + "/inbox", path + "/x.jpg"])
            try FileManager.default.createDirectory(at: directory.appending(path: "broken.appex"), withIntermediateDirectories: true)
            let result = try await Sharing.run(arguments.map { $0.replacingOccurrences(of: "DIR", with: path) })
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message.replacingOccurrences(of: "DIR", with: path)), "\(arguments): \(result.standardError)")
            // Words for a person, never a Swift value's description.
            #expect(!result.standardError.contains("(message:"), "\(arguments): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: path + "/t.jpg"))
        }
    }

    @Test("failures of the work itself are exit status 1", arguments: [
        (["types", "com.example.nobody"], "'com.example.nobody' is not a type identifier known here"),
        (["thumbnail", "DIR/notes.txt", "-o", "DIR/t.jpg"], "unsupported: not a JPEG, PNG, GIF, WebP, HEIF, TIFF or BMP image"),
        (["inbox", "ack", "DIR/inbox", "0019a6b2c3d4e.1.00000001"], "0019a6b2c3d4e.1.00000001 is not claimed"),
    ])
    func workFailures(_ arguments: [String], _ message: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path
            try Data("just text".utf8).write(to: directory.appending(path: "notes.txt"))
            try FileManager.default.createDirectory(at: directory.appending(path: "inbox"), withIntermediateDirectories: true)
            let result = try await Sharing.run(arguments.map { $0.replacingOccurrences(of: "DIR", with: path) })
            #expect(result.status == 1, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
    }
}
