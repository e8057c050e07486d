#if os(Linux)
import Foundation
import Testing

/// `sharing fuzz`, through the binary, on examples of our own with planted bugs and on a careful control.
///
/// One test at a time, two shares at a time, and the planted bugs without the Files host (whose large file each
/// share copies): the fuzzer is built to fill the machine, and the suites beside it time their own extensions.
@Suite("sharing fuzz", .serialized)
struct FuzzCommandTests {
    /// Every host profile but Files: the planted bugs need none of its documents.
    static let hostsButFiles = "safari,safari-javascript,safari-image,chrome,firefox,photos,live-photo,live-photo-messages,live-photo-bundle,"
        + "messages,screenshot,notes,mail,empty,no-attachments,empty-attachment,duplicates"

    /// Runs the fuzzer on `bundles` (examples by name) with `--shares count --seed seed`, writing into
    /// `directory`; its result and its JSON report.
    static func fuzz(_ bundles: [String], shares: Int = 60, seed: Int = 7, hosts: String = hostsButFiles, in directory: URL, _ more: [String] = [],
                     report name: String = "report.json") async throws -> (CommandResult, [String: Any]) {
        let paths = try bundles.map { name in
            let made = directory.appending(path: "\(name).appex")
            return FileManager.default.fileExists(atPath: made.path) ? made.path : try ExampleBundle.make(name, in: directory).path
        }
        let json = directory.appending(path: name)
        let result = try await Sharing.run(["fuzz"] + paths + ["--shares", String(shares), "--seed", String(seed), "--jobs", "2",
                                                               "--out", directory.appending(path: "out").path,
                                                               "--work", directory.appending(path: "work").path, "--hosts", hosts, "--json", json.path] + more)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any],
                                  "\(result.standardOutput)\(result.standardError)")
        return (result, report)
    }

    static func findings(_ report: [String: Any]) -> [[String: Any]] { report["findings"] as? [[String: Any]] ?? [] }

    @Test("a force-unwrapped attachments key and a load force-cast to URL are found, each shrunk to at most two attachments, and each reproduce command alone ends the same way")
    func plantedBugsFound() async throws {
        try await withTemporaryDirectory { directory in
            let junit = directory.appending(path: "fuzz.xml")
            let (result, report) = try await Self.fuzz(["UnwrapsAttachments", "CastsImageToURL"], in: directory, ["--junit", junit.path])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            let findings = Self.findings(report)
            // The JSON against its documented schema, and the JUnit's failures, each read by an independent tool.
            let checked = try await MatrixCommandTests().python("""
                import json, sys, jsonschema, xml.etree.ElementTree as ET
                jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), cls=jsonschema.Draft202012Validator)
                print(len(ET.parse(sys.argv[3]).getroot().findall('.//failure')))
                """, directory.appending(path: "report.json").path, repositoryRoot.appending(path: "docs/fuzzing-schema.json").path, junit.path)
            #expect(checked == "\(findings.count)\n")
            for bundle in ["UnwrapsAttachments", "CastsImageToURL"] {
                let found = findings.filter { ($0["bundle"] as? String)?.hasSuffix("\(bundle).appex") == true }
                #expect(!found.isEmpty, "\(bundle): \(result.standardOutput)")
                for finding in found {
                    #expect(finding["status"] as? String == "crashed")
                    #expect((finding["attachments"] as? Int ?? 99) <= 2, "\(finding)")
                    #expect(finding["replays"] as? Bool == true)
                    // The reproduce command, run alone, ends the same way.
                    let words = try #require((finding["reproduce"] as? String)?.split(separator: " ").map(String.init))
                    #expect(words.first == "sharing")
                    let replay = try await Sharing.run(Array(words.dropFirst()) + ["--json"])
                    let replayed = try #require(try JSONSerialization.jsonObject(with: Data(replay.standardOutput.utf8)) as? [String: Any])
                    #expect(replayed["status"] as? String == "crashed", "\(replay.standardOutput)\(replay.standardError)")
                    #expect(replay.status == 1)
                }
            }
            let site = try #require(findings.first { ($0["bundle"] as? String)?.hasSuffix("UnwrapsAttachments.appex") == true }?["site"] as? String)
            #expect(site == "main.swift:13", "where the force-unwrap is")
            let info = try #require(report["runInfo"] as? [String: Any])
            #expect(info["sharesRun"] as? Int == 120)
            #expect(info["seed"] as? Int == 7)
            #expect((info["skipped"] as? Int ?? 0) > 0, "shares the rule does not admit are counted, not run")
            #expect(result.standardOutput.contains("fuzzing 2 bundles with seed 7"))
        }
    }

    /// The other planted bugs: each example, what its finding must say, and what its run needs.
    static let planted: [(bundle: String, status: String, says: String, shares: Int, options: [String])] = [
        ("IndexesFirstItem", "crashed", "main.swift:11", 40, []),
        // Its failed load leaves the request open until its time runs out: three seconds, not a minute.
        ("WaitsOnFailedLoad", "interrupted-timeout", "", 40, ["--timeout", "3"]),
        ("HoldsEveryImage", "interrupted-memory", "", 40, []),
        ("HeadsMultipartName", "crashed", "main.swift:14", 40, []),
        ("UnwrapsMIMEType", "crashed", "main.swift:15", 40, []),
        ("CompletesPerAttachment", "completed", "request-ended-twice", 40, []),
    ]

    @Test("each planted bug is found with seed 7, its share at most two attachments, and its reproduce command alone ends the same way",
          arguments: planted.indices)
    func eachPlantedBug(_ index: Int) async throws {
        let bug = Self.planted[index]
        try await withTemporaryDirectory { directory in
            let (result, report) = try await Self.fuzz([bug.bundle], shares: bug.shares, in: directory, bug.options)
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            let finding = try #require(Self.findings(report).first { $0["status"] as? String == bug.status }, "\(result.standardOutput)")
            let says = ([finding["site"] as? String] + (finding["findings"] as? [String] ?? [])).compactMap { $0 }.joined(separator: " ")
            #expect(bug.says.isEmpty || says.contains(bug.says), "\(says)")
            #expect((finding["attachments"] as? Int ?? 99) <= 2, "\(finding)")
            #expect(finding["replays"] as? Bool == true)
            let words = try #require((finding["reproduce"] as? String)?.split(separator: " ").map(String.init))
            let replay = try await Sharing.run(Array(words.dropFirst()) + ["--json"])
            let replayed = try #require(try JSONSerialization.jsonObject(with: Data(replay.standardOutput.utf8)) as? [String: Any],
                                        "\(replay.standardOutput)\(replay.standardError)")
            #expect(replayed["status"] as? String == bug.status)
        }
    }

    @Test("the careful control has no finding: exit 0, and its JUnit report is one passing test case")
    func controlClean() async throws {
        try await withTemporaryDirectory { directory in
            let junit = directory.appending(path: "fuzz.xml")
            let (result, report) = try await Self.fuzz(["CarefulShare"], shares: 80, hosts: "all", in: directory, ["--junit", junit.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(Self.findings(report).isEmpty, "\(result.standardOutput)")
            #expect(result.standardOutput.contains("no finding"))
            let xml = try String(contentsOf: junit, encoding: .utf8)
            #expect(xml.contains(#"tests="1" failures="0""#), "\(xml)")
            #expect(xml.contains(#"name="CarefulShare: no finding""#), "\(xml)")
        }
    }

    @Test("the same seed gives the same findings, shrunk to the same shares; a shard's findings merge with the other's into the whole's")
    func repeatable() async throws {
        try await withTemporaryDirectory { directory in
            func summary(_ report: [String: Any]) throws -> [String] {
                try Self.findings(report).map { finding in
                    let share = try String(contentsOfFile: try #require(finding["share"] as? String), encoding: .utf8)
                    return "\(finding["status"] ?? "") \(finding["site"] ?? "") \(finding["foundAfter"] ?? "") \(share)"
                }
            }
            let (_, first) = try await Self.fuzz(["CastsImageToURL"], shares: 40, seed: 13, in: directory.appending(path: "a"))
            let (_, second) = try await Self.fuzz(["CastsImageToURL"], shares: 40, seed: 13, in: directory.appending(path: "b"))
            #expect(!Self.findings(first).isEmpty)
            // The shares differ only in where they were written.
            #expect(try summary(first).map { $0.replacingOccurrences(of: "/a/", with: "/") }
                    == summary(second).map { $0.replacingOccurrences(of: "/b/", with: "/") })

            let shards = directory.appending(path: "shards")
            let (_, one) = try await Self.fuzz(["CastsImageToURL"], shares: 20, seed: 13, in: shards, ["--shard", "1/2"], report: "1.json")
            let (_, two) = try await Self.fuzz(["CastsImageToURL"], shares: 20, seed: 13, in: shards, ["--shard", "2/2"], report: "2.json")
            #expect((one["runInfo"] as? [String: Any])?["shard"] as? String == "1/2")
            let merged = directory.appending(path: "merged.json")
            let result = try await Sharing.run(["fuzz", "--merge", shards.appending(path: "1.json").path, shards.appending(path: "2.json").path,
                                                "--json", merged.path])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            let whole = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: merged)) as? [String: Any])
            #expect((whole["runInfo"] as? [String: Any])?["sharesRun"] as? Int == 40)
            let kinds = { (report: [String: Any]) in Set(Self.findings(report).map { "\($0["status"] ?? "") \($0["site"] ?? "")" }) }
            #expect(kinds(whole) == kinds(one).union(kinds(two)))
            #expect(Self.findings(whole).count == kinds(whole).count, "each finding once")
        }
    }

    @Test("an upload begun after completeRequest is one finding everywhere: work-lost-at-exit naming the host, in every matrix cell and once in fuzz")
    func uploadAfterCompletion() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("UploadsAfterPost", in: directory)
            let json = directory.appending(path: "matrix.json")
            let matrix = try await Sharing.run(["test", bundle.path, "--hosts", "notes,safari,chrome,firefox", "--devices", "iphone-13", "--faults", "none",
                                                "--work", directory.appending(path: "matrix-work").path, "--json", json.path])
            #expect(matrix.status == 1, "\(matrix.standardOutput)")
            let cells = try MatrixCommandTests().cells(json)
            #expect(cells.count == 4)
            for cell in cells {
                let codes = (cell["findings"] as? [[String: Any]] ?? []).filter { $0["severity"] as? String == "fail" }.compactMap { $0["code"] as? String }
                #expect(cell["status"] as? String == "completed" && codes == ["work-lost-at-exit"], "\(cell)")
                let message = (cell["findings"] as? [[String: Any]])?.first { $0["code"] as? String == "work-lost-at-exit" }?["message"] as? String
                #expect(message?.hasPrefix("it looked up api.example.com") == true, "\(message ?? "")")
            }
            let (fuzzed, report) = try await Self.fuzz(["UploadsAfterPost"], shares: 20, in: directory)
            #expect(fuzzed.status == 1)
            let findings = Self.findings(report)
            #expect(findings.count == 1, "one cause, one finding: \(findings.map { $0["findings"] ?? "" })")
            #expect(findings.first?["findings"] as? [String] == ["work-lost-at-exit"])
        }
    }

    @Test("bad input exits 2 naming what is wrong: no budget, a notification service, a report that is not one, a report with a field the schema lacks")
    func badInput() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("CarefulShare", in: directory)
            var result = try await Sharing.run(["fuzz", bundle.path])
            #expect(result.status == 2)
            #expect(result.standardError.contains("--time SECONDS or --shares COUNT"), "\(result.standardError)")

            let service = try ExampleBundle.make("SilentService", in: directory)
            result = try await Sharing.run(["fuzz", service.path, "--shares", "1"])
            #expect(result.status == 2)
            #expect(result.standardError.contains("\(service.path) is a notification service"), "\(result.standardError)")

            let notReport = directory.appending(path: "not.json")
            try Data("[1, 2]".utf8).write(to: notReport)
            result = try await Sharing.run(["fuzz", "--merge", notReport.path])
            #expect(result.status == 2)
            #expect(result.standardError.contains(notReport.path), "\(result.standardError)")

            let (_, report) = try await Self.fuzz(["CastsImageToURL"], shares: 60, in: directory)
            var tampered = report
            var findings = Self.findings(report)
            try #require(!findings.isEmpty)
            findings[0]["command"] = "rm -rf /"
            tampered["findings"] = findings
            let file = directory.appending(path: "tampered.json")
            try JSONSerialization.data(withJSONObject: tampered).write(to: file)
            result = try await Sharing.run(["fuzz", "--merge", file.path])
            #expect(result.status == 2)
            #expect(result.standardError.contains("findings[0].command"), "\(result.standardError)")
        }
    }
}
#endif
