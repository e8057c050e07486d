#if os(Linux)
import Foundation
import Testing

/// Findings through the binary: what the runtime finds beside a run's status, in the text, the JSON and the
/// exit status of `run`, `notify` and `test`, each code with an extension of ours that makes it and one that
/// does not.
@Suite("findings")
struct FindingsTests {
    static func findings(_ json: [String: Any]?) -> [[String: String]] {
        (json?["findings"] as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? String } }
    }

    /// Runs `sharing` with `--json`: its exit status and the report it printed (nil when it printed none).
    static func report(_ arguments: [String]) async throws -> (status: Int32, report: [String: Any]?, said: String) {
        let result = try await Sharing.run(arguments + ["--json"])
        let report = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return (result.status, report, result.standardOutput + result.standardError)
    }

    /// The first notification of `sharing notify --json`'s report.
    private static func firstNotification(_ report: [String: Any]?) -> [String: Any]? {
        (report?["notifications"] as? [[String: Any]])?.first
    }

    @Test("request-ended-twice: an action extension that completes twice fails the run (exit 1) with the finding in its text and JSON; one that completes once passes")
    func requestEndedTwice() async throws {
        try await withTemporaryDirectory { directory in
            let twice = try ExampleBundle.make("CompletesTwice", in: directory)
            let result = try await Sharing.run(["run", twice.path, "--host", "notes", "--text", "hi"])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            // Which of its two endings comes first is the extension's own race (its load may answer before beginRequest
            // returns, on a busy machine); the request completes either way, and the other ending is the finding.
            #expect(result.standardOutput.contains("CompletesTwice: completed, 0 items returned")
                    || result.standardOutput.contains("CompletesTwice: completed, 1 item returned"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("finding: request-ended-twice: completeRequest(returningItems:) was called after the request had ended"),
                    "\(result.standardOutput)")
            let failed = try await Self.report(["run", twice.path, "--host", "notes", "--text", "hi"])
            #expect(failed.status == 1)
            let found = Self.findings(failed.report)
            #expect(found.first { $0["code"] == "request-ended-twice" }?["severity"] == "fail", "\(found)")

            let once = try ExampleBundle.make("Uppercase", in: directory)
            let passed = try await Self.report(["run", once.path, "--host", "notes", "--text", "hi"])
            #expect(passed.status == 0, "\(passed.said)")
            #expect(!Self.findings(passed.report).contains { $0["severity"] == "fail" }, "\(Self.findings(passed.report))")
        }
    }

    @Test("handler-called-twice: a content handler called twice fails the notification (exit 1) with the finding in its JSON; called once, none")
    func handlerCalledTwice() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("NotificationProber", in: directory)
            func payload(_ probe: String) throws -> String {
                let url = directory.appending(path: "\(probe).json")
                try Data(#"{"aps": {"alert": {"title": "Ana", "body": "Hi"}, "mutable-content": 1}, "probe": "\#(probe)"}"#.utf8).write(to: url)
                return url.path
            }
            let twice = try await Self.report(["notify", bundle.path, "--payload", try payload("double")])
            #expect(twice.status == 1, "\(twice.said)")
            var notification = Self.firstNotification(twice.report)
            #expect(notification?["status"] as? String == "completed" && notification?["delivered"] as? String == "modified")
            #expect(Self.findings(notification).first?["code"] == "handler-called-twice", "\(Self.findings(notification))")
            #expect(Self.findings(notification).first?["severity"] == "fail")

            let once = try await Self.report(["notify", bundle.path, "--payload", try payload("edit")])
            #expect(once.status == 0, "\(once.said)")
            notification = Self.firstNotification(once.report)
            #expect(!Self.findings(notification).contains { $0["code"] == "handler-called-twice" }, "\(Self.findings(notification))")
        }
    }

    @Test("debug-build: a program built without optimisation is reported, as a warning that fails nothing")
    func debugBuild() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "hi"])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            // The tests run on the build `swift build` makes, a debug one; a release build has no such finding
            // (HostileExtensionTests: an extension that says it is optimised).
            #expect(result.standardOutput.contains("finding: debug-build: the program was built without optimisation"), "\(result.standardOutput)")
        }
    }

    @Test("sharing test: a fail finding makes its cell not as expected (exit 1, the finding printed); --update-expectations allows it by code, and the matrix then passes")
    func matrix() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("CompletesTwice", in: directory)
            let expect = directory.appending(path: "expect.json")
            let test = ["test", bundle.path, "--hosts", "notes", "--faults", "none", "--devices", "iphone-13", "--work", directory.appending(path: "work").path]
            var result = try await Sharing.run(test)
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("CompletesTwice notes device=iphone-13 user=post fault=none: completed\n  finding: request-ended-twice: "),
                    "\(result.standardOutput)")
            result = try await Sharing.run(test + ["--expect", expect.path, "--update-expectations"])
            let written = try JSONSerialization.jsonObject(with: Data(contentsOf: expect)) as? [String: Any]
            let entry = (written?["expectations"] as? [[String: Any]])?.first
            #expect(entry?["findings"] as? [String] == ["request-ended-twice"], "\(String(describing: written))")
            result = try await Sharing.run(test + ["--expect", expect.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        }
    }
}
#endif
