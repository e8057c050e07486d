#if os(Linux)
import Foundation
import MachineLoad
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `sharing run --fault`, its activation check, and `sharing test`, through the binary.
@Suite("sharing run --fault, sharing test")
struct MatrixCommandTests {
    static let photo = repositoryRoot.appending(path: "Examples/files/sunset.jpg").path

    static func report(_ result: CommandResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardOutput)\(result.standardError)")
    }

    @Test("load-fails fails the nth load on the host's side; ImageSaver falls back to the item and completes")
    func loadFails() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("ImageSaver", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--fault", "load-fails(nth=1)",
                                                "--app-group", directory.appending(path: "groups").path, "--json"])
            let report = try Self.report(result)
            let loads = try #require(report["loads"] as? [[String: Any]])
            #expect(loads.count == 2)
            #expect(loads.first?["failure"] as? String == "the host fails load 1 (fault load-fails)")
            #expect(loads.last?["failure"] == nil)
            #expect(report["status"] as? String == "completed")
            #expect(result.status == 0)
        }
    }

    @Test("load-hangs never answers the nth load: the extension waits out its time, and the load says why")
    func loadHangs() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("ImageSaver", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--fault", "load-hangs",
                                                "--timeout", "1", "--app-group", directory.appending(path: "groups").path, "--json"])
            let report = try Self.report(result)
            #expect(report["status"] as? String == "interrupted-timeout")
            let loads = try #require(report["loads"] as? [[String: Any]])
            #expect(loads.map { $0["failure"] as? String } == ["never answered: the host hangs on load 1 (fault load-hangs)"])
            #expect(result.status == 1)
        }
    }

    @Test("slow-host answers every load that much later; the answer is the provider's own")
    func slowHost() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("ImageSaver", in: directory)
            let clock = ContinuousClock(), start = clock.now
            let result = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--fault", "slow-host(delay=1500ms)",
                                                "--app-group", directory.appending(path: "groups").path, "--json"])
            #expect(start.duration(to: clock.now) >= .milliseconds(1500))
            let report = try Self.report(result)
            let load = try #require((report["loads"] as? [[String: Any]])?.first)
            #expect(load["failure"] == nil)
            #expect(load["size"] as? Int == (try FileManager.default.attributesOfItem(atPath: Self.photo)[.size] as? Int))
            #expect(report["status"] as? String == "completed")
        }
    }

    @Test("with no --devices the standard set is played: each cell on iphone-se-2 and on iphone-13, named in the grid, the JSON and the commands; none among the names opts out")
    func standardDevices() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let json = directory.appending(path: "report.json")
            var result = try await Sharing.run(["test", bundle.path, "--hosts", "notes", "--faults", "none", "--work", directory.appending(path: "work").path,
                                                "--json", json.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("iphone-se-2 none") && result.standardOutput.contains("iphone-13 none"), "\(result.standardOutput)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            #expect((report["runInfo"] as? [String: Any])?["devices"] as? [String] == ["iphone-se-2", "iphone-13"])
            let played = try cells(json).compactMap { ($0["cell"] as? [String: Any])?["device"] as? String }
            #expect(played.sorted() == ["iphone-13", "iphone-se-2"])
            result = try await Sharing.run(["test", bundle.path, "--hosts", "notes", "--faults", "none", "--devices", "none,iphone-13", "--work",
                                            directory.appending(path: "work").path, "--json", json.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let commands = try cells(json).compactMap { $0["reproduce"] as? String }
            #expect(commands.contains { $0.contains(" --device none") } && commands.contains { $0.contains(" --device iphone-13") }, "\(commands)")
        }
    }

    @Test("a fault that does not read is bad input: exit status 2, the spec and its problem named")
    func badFault() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let run = try await Sharing.run(["run", bundle.path, "--text", "hi", "--fault", "slow-host(delay=soon)"])
            #expect(run.status == 2)
            #expect(run.standardError.contains("--fault: fault 'slow-host(delay=soon)': delay=soon is not a duration such as 2s or 500ms"), "\(run.standardError)")
            let test = try await Sharing.run(["test", bundle.path, "--faults", "none,crash"])
            #expect(test.status == 2)
            #expect(test.standardError.contains("--faults: fault 'crash': no fault is named 'crash'"), "\(test.standardError)")
            // A report that could not be written is refused before any cell runs.
            let unwritable = directory.appending(path: "missing/report.json").path
            let report = try await Sharing.run(["test", bundle.path, "--hosts", "notes", "--json", unwritable])
            #expect(report.status == 2)
            #expect(report.standardError == "sharing: error: --json \(unwritable): no such directory\n")
            #expect(report.standardOutput.isEmpty)
        }
    }

    @Test("run checks the activation rule first: not offered is not-activated, exit 0 as the matrix counts it, the failing clause named; --ignore-activation runs it")
    func activation() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let hidden = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo])
            #expect(hidden.status == 0)
            #expect(hidden.standardOutput.hasPrefix("host: photos (Photos)\nUppercase: not-activated: the system would not offer it for this share: item 1, attachment 1 (public.jpeg) is an image; the rule takes text\n"),
                    "\(hidden.standardOutput)")
            let forced = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo, "--ignore-activation", "--json"])
            let report = try Self.report(forced)
            #expect(report["status"] as? String != "not-activated")
            #expect(report["sandbox"] as? String != "not started")
        }
    }

    @Test("sharing test: a grid of bundles × hosts × faults, each status as the examples are made to show; JSON, JUnit and Markdown agree; a failing cell's command alone gives its status")
    func matrix() async throws {
        try await withTemporaryDirectory { directory in
            let bundles = try ["Uppercase", "MemoryHog", "CrashesMidLoad"].map { try ExampleBundle.make($0, in: directory).path }
            let json = directory.appending(path: "report.json"), junit = directory.appending(path: "report.xml"), markdown = directory.appending(path: "report.md")
            let result = try await Sharing.run(["test"] + bundles + ["--devices", "iphone-13", "--hosts", "notes,photos", "--faults", "none", "--timeout", "30",
                                                "--work", directory.appending(path: "work").path,
                                                "--json", json.path, "--junit", junit.path, "--markdown", markdown.path])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            #expect(report["schema"] as? String == "opensharing-conformance/3")
            let cells = try #require(report["cells"] as? [[String: Any]])
            func status(_ bundle: String, _ host: String) -> String? {
                cells.first { cell in
                    let key = cell["cell"] as? [String: Any]
                    return (key?["bundle"] as? String)?.hasSuffix("/\(bundle).appex") == true && key?["host"] as? String == host
                }?["status"] as? String
            }
            #expect(cells.count == 6)
            #expect(status("Uppercase", "notes") == "completed")
            #expect(status("Uppercase", "photos") == "not-activated")
            #expect(status("MemoryHog", "notes") == "interrupted-memory")
            #expect(status("MemoryHog", "photos") == "interrupted-memory")
            #expect(status("CrashesMidLoad", "photos") == "crashed")
            // The grid: a row per bundle and host, the fault's column, a ! on each cell not as expected.
            #expect(result.standardOutput.contains("MemoryHog photos       M!"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("Uppercase photos       ·"), "\(result.standardOutput)")
            let unexpected = cells.filter { cell in !((cell["expected"] as? [String]) ?? []).contains(cell["status"] as? String ?? "") }
            // The memory hog everywhere, the crasher wherever it is offered (text from Notes too).
            #expect(unexpected.count == 4)
            #expect(status("CrashesMidLoad", "notes") == "crashed")
            // Each failing cell's last words beside its status, as the extension said them: the crasher's fatal error.
            let crasher = try #require(result.standardOutput.range(of: "\nCrashesMidLoad notes device=iphone-13 user=post fault=none: crashed", options: .backwards))
            #expect(result.standardOutput[crasher.upperBound...].prefix(2000).contains("its last words:"), "\(result.standardOutput)")
            // The JSON, checked against its documented schema by an independent validator.
            let schema = repositoryRoot.appending(path: "docs/conformance-schema.json").path
            let validated = try await python("""
                import json, sys, jsonschema
                jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), cls=jsonschema.Draft202012Validator)
                print("valid")
                """, json.path, schema)
            #expect(validated == "valid\n")
            // JUnit, read by Python's own parser: the counts the grid shows.
            let counts = try await python("""
                import sys, xml.etree.ElementTree as ET
                root = ET.parse(sys.argv[1]).getroot()
                cases = root.findall('.//testcase')
                print(len(cases), len(root.findall('.//failure')), len(root.findall('.//skipped')), len({(c.get('classname'), c.get('name')) for c in cases}))
                print(root.find(".//failure[@type='crashed']").text.splitlines()[0])
                """, junit.path)
            let lines = counts.split(separator: "\n").map(String.init)
            #expect(lines.first == "6 4 1 6", "\(counts)")
            let reproduce = try #require(lines.last)
            #expect(reproduce.hasPrefix("sharing run \(bundles[2]) --host "), "\(reproduce)")
            #expect(try String(contentsOf: markdown, encoding: .utf8).contains("| MemoryHog notes | **M interrupted-memory** |"))
            // The failing cell's own command, alone, gives the same status.
            let memoryCell = try #require(cells.first { ($0["status"] as? String) == "interrupted-memory" })
            let command = try #require(memoryCell["reproduce"] as? String)
            #expect(command.hasPrefix("sharing run "))
            // Split as a POSIX shell splits it (Python's shlex), and run with this build's sharing.
            let split = try await python("import json, shlex, sys; print(json.dumps(shlex.split(sys.argv[1])))", command)
            let words = try #require(try JSONSerialization.jsonObject(with: Data(split.utf8)) as? [String])
            #expect(words.contains("Shopping: milk, bread, apples"))
            let alone = try await Sharing.run(Array(words.dropFirst()) + ["--json"])
            #expect(try Self.report(alone)["status"] as? String == "interrupted-memory")
        }
    }

    /// `sharing test` on Uppercase and MemoryHog, Notes and Photos, no fault: one completed, one not activated,
    /// the memory hog interrupted twice.
    func smallMatrix(_ directory: URL, _ extra: [String]) async throws -> CommandResult {
        let bundles = try ["Uppercase", "MemoryHog"].map { name -> String in
            let bundle = directory.appending(path: "\(name).appex")
            return FileManager.default.fileExists(atPath: bundle.path) ? bundle.path : try ExampleBundle.make(name, in: directory).path
        }
        return try await Sharing.run(["test"] + bundles + ["--devices", "iphone-13", "--hosts", "notes,photos", "--faults", "none", "--timeout", "30",
                                                           "--work", directory.appending(path: "work").path] + extra)
    }

    func cells(_ file: URL) throws -> [[String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        return try #require(report["cells"] as? [[String: Any]])
    }

    @Test("--update-expectations writes what failed as expected; with --expect the same matrix then passes; a glob entry decides the cells it matches")
    func expectations() async throws {
        try await withTemporaryDirectory { directory in
            let expect = directory.appending(path: "expected.json")
            let update = try await smallMatrix(directory, ["--expect", expect.path, "--update-expectations"])
            #expect(update.status == 0, "\(update.standardOutput)\(update.standardError)")
            #expect(update.standardOutput.hasSuffix("wrote 2 expectations to \(expect.path)\n"))
            let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: expect)) as? [String: Any])
            #expect(written["schema"] as? String == "opensharing-expectations/1")
            let entries = try #require(written["expectations"] as? [[String: Any]])
            #expect(entries.map { $0["cell"] as? String } == ["MemoryHog notes device=iphone-13 user=post fault=none", "MemoryHog photos device=iphone-13 user=post fault=none"])
            #expect(entries.allSatisfy { $0["statuses"] as? [String] == ["interrupted-memory"] }, "\(entries)\n\(update.standardOutput)")
            let again = try await smallMatrix(directory, ["--expect", expect.path])
            #expect(again.status == 0, "\(again.standardOutput)")
            #expect(again.standardOutput.contains("4 cells, 0 not as expected, 0 flaky"))
            // A glob that expects the hog to complete everywhere: both its cells fail again, with the bug linked.
            try Data(#"{"schema": "opensharing-expectations/1", "expectations": [{"cell": "MemoryHog *", "statuses": ["completed"], "bug": "https://example.com/bug/1"}]}"#.utf8).write(to: expect)
            let json = directory.appending(path: "report.json")
            let globbed = try await smallMatrix(directory, ["--expect", expect.path, "--json", json.path])
            #expect(globbed.status == 1)
            let hog = try cells(json).filter { ($0["cell"] as? [String: Any])?["bundle"] as? String == directory.appending(path: "MemoryHog.appex").path }
            #expect(hog.count == 2 && hog.allSatisfy { $0["bug"] as? String == "https://example.com/bug/1" && $0["expected"] as? [String] == ["completed"] })
            // An expectations file that does not read is bad input, named.
            try Data(#"{"schema": "opensharing-expectations/1", "expectations": [{"cell": "*", "statuses": ["exploded"]}]}"#.utf8).write(to: expect)
            let bad = try await smallMatrix(directory, ["--expect", expect.path])
            #expect(bad.status == 2)
            #expect(bad.standardError.contains("--expect \(expect.path): expectations[0].statuses[0]:"), "\(bad.standardError)")
        }
    }

    @Test("--retry runs only the cells a report shows failing, planned again here; --repeat runs each cell K times and records every status")
    func retryAndRepeat() async throws {
        try await withTemporaryDirectory { directory in
            let first = directory.appending(path: "first.json"), retried = directory.appending(path: "retried.json")
            _ = try await smallMatrix(directory, ["--json", first.path])
            let result = try await Sharing.run(["test", "--retry", first.path, "--repeat", "2", "--json", retried.path, "--work", directory.appending(path: "again").path])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.hasPrefix("2 cells × 2, 2 at a time, seed "))
            let again = try cells(retried)
            #expect(again.map { ($0["cell"] as? [String: Any])?["host"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["notes", "photos"])
            #expect(again.allSatisfy { $0["statuses"] as? [String] == ["interrupted-memory", "interrupted-memory"] }, "\(again.map { ($0["statuses"], $0["reason"], $0["logTail"]) })")
            // The same cells, their directories beneath this run's work directory, in its own process's cells folder.
            let failed = try cells(first).filter { $0["status"] as? String == "interrupted-memory" }
            func folderless(_ command: String) -> String { command.replacing(/cells-[0-9]+/, with: "cells-PID") }
            #expect(Set(again.compactMap { ($0["reproduce"] as? String).map(folderless) }) == Set(failed.compactMap {
                ($0["reproduce"] as? String).map { folderless($0.replacingOccurrences(of: directory.appending(path: "work").path, with: directory.appending(path: "again").path)) }
            }))
        }
    }

    @Test("--repeat runs a cell's runs one after another, never side by side in the directory they share: every run starts and ends alike")
    func repeatsShareNothing() async throws {
        try await withTemporaryDirectory { directory in
            // ImageSaver writes into the cell's app group, which each run's end removes. Four runs of one cell,
            // four at a time: side by side, a run that ended removed the group under the others, which then
            // could not start ("No such file or directory") or lost what they wrote.
            let bundle = try ExampleBundle.make("ImageSaver", in: directory)
            let json = directory.appending(path: "report.json")
            let result = try await Sharing.run(["test", bundle.path, "--devices", "iphone-13", "--hosts", "photos", "--faults", "none", "--repeat", "4", "--jobs", "4",
                                                "--timeout", "30", "--work", directory.appending(path: "work").path, "--json", json.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let cells = try cells(json)
            #expect(cells.count == 1)
            #expect(cells.first?["statuses"] as? [String] == Array(repeating: "completed", count: 4), "\(cells)")
        }
    }

    @Test("--retry of an edited report (an app group or bundle changed, an unknown fault, an extra argument) exits 2 naming the field, and touches nothing outside --work")
    func editedReport() async throws {
        try await withTemporaryDirectory { directory in
            let first = directory.appending(path: "first.json")
            _ = try await smallMatrix(directory, ["--json", first.path])
            // A directory the edited report aims at, with a file that must survive.
            let outside = directory.appending(path: "outside/groups")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data("keep".utf8).write(to: outside.appending(path: "keep.txt"))
            let edits: [(String, String, (inout [String: Any]) -> Void)] = [
                ("appGroup", "cells[2].cell.appGroup: \(outside.path) is not a cell's folder of the run's work directory", { $0["appGroup"] = outside.path }),
                ("bundle", "cells[2].cell.bundle: /bin.appex is not among the run's bundles", { $0["bundle"] = "/bin.appex" }),
                ("fault", "cells[2].cell.faults[0]: fault 'rm(rf=1)': no fault is named 'rm'", { $0["faults"] = ["rm(rf=1)"] }),
            ]
            var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: first)) as? [String: Any])
            let original = try #require(report["cells"] as? [[String: Any]])
            let hog = try #require(original.firstIndex { $0["status"] as? String == "interrupted-memory" })
            #expect(hog == 2)
            for (name, said, edit) in edits {
                var cells = original
                var cell = try #require(cells[hog]["cell"] as? [String: Any])
                edit(&cell)
                cells[hog]["cell"] = cell
                report["cells"] = cells
                let edited = directory.appending(path: "edited-\(name).json")
                try JSONSerialization.data(withJSONObject: report).write(to: edited)
                let work = directory.appending(path: "work-\(name)")
                let result = try await Sharing.run(["test", "--retry", edited.path, "--work", work.path])
                #expect(result.status == 2, "\(name): \(result.standardOutput)\(result.standardError)")
                #expect(result.standardError.contains(said), "\(name): \(result.standardError)")
                #expect(!((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []).contains { $0.hasPrefix("cells") }, "\(name): a cell ran")
            }
            var cells = original
            cells[hog]["arguments"] = ["run", "/bin/sh"]
            report["cells"] = cells
            try JSONSerialization.data(withJSONObject: report).write(to: directory.appending(path: "edited-arguments.json"))
            let extra = try await Sharing.run(["test", "--retry", directory.appending(path: "edited-arguments.json").path, "--work", directory.appending(path: "work-arguments").path])
            #expect(extra.status == 2 && extra.standardError.contains("cells[2].arguments: is not a field of a report of sharing test"), "\(extra.standardError)")
            #expect(try String(contentsOf: outside.appending(path: "keep.txt"), encoding: .utf8) == "keep")
        }
    }

    @Test("a cell known to vary that ends outside its expectation is flaky: marked ?, listed with its statuses, exit status 3 when nothing failed")
    func flaky() async throws {
        try await withTemporaryDirectory { directory in
            // The hog's expectation says it is known to vary: its interruption then counts as flaky, not failed.
            let expect = directory.appending(path: "expected.json")
            try Data(#"{"schema": "opensharing-expectations/1", "expectations": [{"cell": "MemoryHog *", "statuses": ["completed"], "flaky": true}]}"#.utf8).write(to: expect)
            let result = try await smallMatrix(directory, ["--expect", expect.path])
            #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("MemoryHog notes   M?"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("MemoryHog notes device=iphone-13 user=post fault=none: flaky: interrupted-memory\n"))
        }
    }

    @Test("--seed fixes the order cells run in, and is recorded; --shard I/N splits the cells the same way every time; --merge joins the shards into the whole grid")
    func seedShardMerge() async throws {
        try await withTemporaryDirectory { directory in
            let shards = [1, 2].map { directory.appending(path: "shard-\($0).json") }
            var keys: [[String]] = []
            for (index, shard) in shards.enumerated() {
                let result = try await smallMatrix(directory, ["--shard", "\(index + 1)/2", "--seed", "42", "--jobs", "1", "--json", shard.path])
                #expect(result.standardOutput.hasPrefix("2 cells, 1 at a time, seed 42\n"), "\(result.standardOutput)")
                let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: shard)) as? [String: Any])
                let info = try #require(report["runInfo"] as? [String: Any])
                #expect(info["seed"] as? Int == 42 && info["shard"] as? String == "\(index + 1)/2")
                keys.append(try cells(shard).map { "\((($0["cell"] as? [String: Any])?["bundle"] as? String ?? "").split(separator: "/").last ?? "") \(($0["cell"] as? [String: Any])?["host"] as? String ?? "")" })
            }
            #expect(keys == [["Uppercase.appex notes", "MemoryHog.appex notes"], ["Uppercase.appex photos", "MemoryHog.appex photos"]])
            let repeatShard = try await smallMatrix(directory, ["--shard", "2/2", "--json", directory.appending(path: "again.json").path])
            #expect(try cells(directory.appending(path: "again.json")).count == 2 && repeatShard.status == 1)
            // The order the cells start in is the seed's: the same seed, the same order; seeds 1 and 3 order four cells differently.
            func order(seed: Int) async throws -> [Int] {
                let file = directory.appending(path: "order-\(seed).json")
                _ = try await smallMatrix(directory, ["--seed", String(seed), "--jobs", "1", "--json", file.path])
                return try cells(file).map { try #require($0["order"] as? Int) }
            }
            let first = try await order(seed: 1)
            #expect(Set(first) == [0, 1, 2, 3])
            #expect(try await order(seed: 1) == first)
            #expect(try await order(seed: 3) != first)
            let junit = directory.appending(path: "merged.xml")
            let merged = try await Sharing.run(["test", "--merge"] + shards.map(\.path) + ["--junit", junit.path])
            #expect(merged.status == 1)
            #expect(merged.standardOutput.hasPrefix("""
                                  iphone-13 none
                Uppercase notes   ✓
                Uppercase photos  ·
                MemoryHog notes   M!
                MemoryHog photos  M!
                """.split(separator: "\n").map { $0.padding(toLength: 32, withPad: " ", startingAt: 0) }.joined(separator: "\n")), "\(merged.standardOutput)")
            #expect(try String(contentsOf: junit, encoding: .utf8).contains(#"<testsuites name="sharing test" tests="4" failures="2" skipped="1">"#))
            let notReport = try await Sharing.run(["test", "--merge", junit.path])
            #expect(notReport.status == 2)
            #expect(notReport.standardError.contains("\(junit.path): not a report of sharing test --json"))
        }
    }

    @Test("large-share adds its files to the share: ten 48 MP photos (too many for ImageSaver's rule), or a 2 GiB file (its copy stopped at the disk limit)")
    func largeShare() async throws {
        try await withTemporaryDirectory { directory in
            let saver = try ExampleBundle.make("ImageSaver", in: directory)
            let photos = try await Sharing.run(["run", saver.path, "--host", "photos", "--file", Self.photo, "--fault", "large-share(kind=photos)", "--json"])
            let report = try Self.report(photos)
            #expect(report["status"] as? String == "not-activated")
            #expect((report["reason"] as? String)?.contains("11 images, more than NSExtensionActivationSupportsImageWithMaxCount (10)") == true, "\(report)")
            let fileSaver = try ExampleBundle.make("FileSaver", in: directory)
            let file = try await Sharing.run(["run", fileSaver.path, "--host", "files", "--file", Self.photo, "--fault", "large-share(kind=file)",
                                              "--disk-limit", "16MB", "--app-group", directory.appending(path: "groups").path, "--json"])
            // The 2 GiB file crosses as a descriptor; the saver's copy of it is held at the disk budget: the write
            // that would pass it is refused before it lands, and the run ends over its budget.
            let saved = try Self.report(file)
            let loads = try #require(saved["loads"] as? [[String: Any]])
            #expect(loads.contains { $0["size"] as? Int == 2 << 30 }, "\(loads)")
            #expect(saved["status"] as? String == "interrupted-disk", "\(saved)")
            #expect((saved["reason"] as? String)?.hasPrefix("over its disk limit of 16.0 MB") == true, "\(saved)")
        }
    }

    @Test("host-killed: the host dies mid-run and the matrix finds nothing of the extension left once what the kernel was ending has ended; alone, the command kills its own host")
    func hostKilled() async throws {
        try await withTemporaryDirectory { directory in
            let json = directory.appending(path: "report.json")
            let bundle = try ExampleBundle.make("NeverCompletes", in: directory)
            let result = try await Sharing.run(["test", bundle.path, "--devices", "iphone-13", "--hosts", "notes", "--faults", "host-killed(after=1s)", "--timeout", "30",
                                                "--work", directory.appending(path: "work").path, "--json", json.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let cell = try #require(try cells(json).first)
            #expect(cell["status"] as? String == "host-killed")
            // The extension's tree was seen (our init and the extension at least) and ended with its host.
            let reason = try #require(cell["reason"] as? String)
            let watched = try #require(Int(reason.split(separator: " ").dropFirst(5).first ?? ""), "\(reason)")
            #expect(watched >= 2 && reason.hasSuffix("processes it had started ended with it"), "\(reason)")
            let alone = try await Sharing.run(["run", bundle.path, "--host", "notes", "--text", "x", "--fault", "host-killed(after=300ms)"])
            #expect(alone.status == -SIGKILL, "\(alone.status)")
            #expect(alone.standardError.hasPrefix("sharing: the host is killed 0.3 seconds after the extension starts (fault host-killed)\n"), "\(alone.standardError)")
        }
    }

    @Test("--html: one page that Chromium renders with every cell of the grid and its status, a cell's details opened from its address")
    func html() async throws {
        try await withTemporaryDirectory { directory in
            let page = directory.appending(path: "report.html"), json = directory.appending(path: "report.json")
            _ = try await smallMatrix(directory, ["--html", page.path, "--json", json.path])
            let all = try cells(json)
            let hog = try #require(all.firstIndex { $0["status"] as? String == "interrupted-memory" })
            // Rendered by headless Chromium from the file alone (no network), the DOM read back after its script ran.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
            process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory.appending(path: "chromium").path)",
                                 "--dump-dom", page.absoluteString + "#cell-\(hog)"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let counts = try await python("""
                import sys
                from html.parser import HTMLParser
                class Page(HTMLParser):
                    def __init__(self):
                        super().__init__(); self.grid = []; self.opened = []
                    def handle_starttag(self, tag, attributes):
                        attributes = dict(attributes)
                        if tag == "td" and "data-status" in attributes: self.grid.append((attributes["data-cell"], attributes["data-status"]))
                        if tag == "details" and "open" in attributes: self.opened.append(attributes["id"])
                page = Page(); page.feed(open(sys.argv[1]).read())
                for cell, status in page.grid: print(cell + "\t" + status)
                print("open\t" + ",".join(page.opened))
                """, try writeTemporary(dom, in: directory))
            let lines = counts.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
            let grid = Dictionary(uniqueKeysWithValues: lines.dropLast().map { ($0[0], $0[1]) })
            #expect(grid.count == all.count)
            for cell in all {
                let key = try #require(cell["cell"] as? [String: Any])
                let name = "\(((key["bundle"] as? String ?? "") as NSString).lastPathComponent.replacingOccurrences(of: ".appex", with: "")) \(key["host"] as? String ?? "") device=iphone-13 user=post fault=none"
                #expect(grid[name] == cell["status"] as? String, "\(name)")
            }
            #expect(lines.last == ["open", "cell-\(hog)"])
        }
    }

    @Test("a notification service's cells are payloads: the default set's statuses, what was shown, the image served from 127.0.0.1 while the matrix runs; share faults are left out")
    func payloads() async throws {
        try await withTemporaryDirectory { directory in
            let bundles = try ["BundledAttachment", "SilentService"].map { try ExampleBundle.make($0, in: directory).path }
            let json = directory.appending(path: "report.json"), work = directory.appending(path: "work")
            let result = try await Sharing.run(["test"] + bundles + ["--devices", "iphone-13", "--faults", "none,load-fails", "--timeout", "8", "--work", work.path, "--json", json.path])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            let all = try cells(json)
            #expect(all.count == 8, "load-fails means nothing to a notification service: one fault, four payloads, two bundles")
            func cell(_ bundle: String, _ payload: String) throws -> [String: Any] {
                try #require(all.first { cell in
                    let key = cell["cell"] as? [String: Any]
                    return (key?["bundle"] as? String)?.hasSuffix("/\(bundle).appex") == true && key?["payloads"] as? [String] == [work.appending(path: "payloads/\(payload).json").path]
                })
            }
            #expect(try cell("BundledAttachment", "alert-only")["reason"] as? String == "the payload does not ask for the extension: shown as sent")
            #expect(try cell("BundledAttachment", "not-mutable")["status"] as? String == "not-activated")
            let refused = try cell("BundledAttachment", "over-4kb")
            #expect(refused["status"] as? String == "not-activated")
            #expect((refused["reason"] as? String)?.hasPrefix("refused before the extension: \(work.path)/payloads/over-4kb.json holds ") == true, "\(refused)")
            let shown = try cell("BundledAttachment", "mutable-image")
            #expect(shown["status"] as? String == "completed")
            let returned = try #require(shown["returned"] as? [[String: Any]])
            #expect(returned.first?["text"] as? String == "A photo")
            #expect(try cell("SilentService", "mutable-image")["status"] as? String == "interrupted-timeout")
            // The image the mutable payload names was served by the matrix, from its own default share.
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: work.appending(path: "payloads/mutable-image.json"))) as? [String: Any])
            let image = try #require((payload["fcm_options"] as? [String: Any])?["image"] as? String)
            #expect(image.hasPrefix("http://127.0.0.1:") && image.hasSuffix("/photo.jpg"))
            #expect(result.standardOutput.contains("serving the payloads' image at \(image) while the matrix runs"))
            let notify = try await Sharing.run(["notify", bundles[0], "--payload", work.appending(path: "payloads/alert-only.json").path, "--fault", "load-fails"])
            #expect(notify.status == 2)
            #expect(notify.standardError.contains("--fault load-fails: a fault of a share's loads; a notification service loads nothing from its host."), "\(notify.standardError)")
        }
    }

    @Test("into a log (standard output a pipe), each run's line is written as the run ends, while the matrix still runs; commands name the program as invoked")
    func linePerRun() async throws {
        try await withTemporaryDirectory { directory in
            let quick = try ExampleBundle.make("Uppercase", in: directory).path
            let slow = try ExampleBundle.make("NeverCompletes", in: directory).path
            let output = Pipe()
            // NeverCompletes holds the matrix for its 5 s and the grace; Uppercase ends long before.
            let child = try ChildProcess(["test", quick, slow, "--devices", "iphone-13", "--hosts", "notes", "--faults", "none", "--timeout", "5", "--jobs", "2",
                                          "--work", directory.appending(path: "work").path], standardOutput: output)
            let (line, runningThen) = try await onOwnThread { () -> (String, Bool) in
                var text = ""
                while true {
                    let data = output.fileHandleForReading.availableData
                    if data.isEmpty { return (text, false) }
                    text += String(decoding: data, as: UTF8.self)
                    if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("[") }) { return (String(line), child.isRunning) }
                }
            }
            #expect(line.hasPrefix("[1/2] Uppercase notes device=iphone-13 user=post fault=none: completed ("), "\(line)")
            #expect(runningThen, "the first run's line came only when the matrix had ended")
            let rest = try await onOwnThread { String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
            #expect(rest.contains("[2/2] NeverCompletes notes device=iphone-13 user=post fault=none: interrupted-timeout ("), "\(rest)")
            // Its command as it runs here: this build's program, by the path it was started by.
            #expect(rest.contains("\n  \(Sharing.executable.path) run \(slow) --host notes "), "\(rest)")
            #expect(await child.exitStatus == 1)
        }
    }

    func writeTemporary(_ text: String, in directory: URL) throws -> String {
        let file = directory.appending(path: "dom.html")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test("two matrices sharing one work directory, side by side, each keep their own cells: the first's live cells outlive the second's start")
    func sideBySide() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("ImageSaver", in: directory)
            let work = directory.appending(path: "work")
            // The first's one cell waits 2 s for its load (a slow host) while the second starts.
            func matrix(_ name: String, fault: String) async throws -> (Int32, String) {
                let result = try await Sharing.run(["test", bundle.path, "--devices", "iphone-13", "--hosts", "photos", "--faults", fault,
                                                    "--work", work.path, "--json", directory.appending(path: "\(name).json").path])
                return (result.status, result.standardOutput + result.standardError)
            }
            async let first = matrix("first", fault: "slow-host(delay=2s)")
            // Once the first's cell is running: a cells folder of it in the work directory.
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline,
                  !((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []).contains(where: { $0.hasPrefix("cells") }) {
                try await Task.sleep(for: .milliseconds(20))
            }
            let second = try await matrix("second", fault: "none")
            let one = try await first
            #expect(one.0 == 0, "\(one.1)")
            #expect(second.0 == 0, "\(second.1)")
            for name in ["first", "second"] {
                let cells = try cells(directory.appending(path: "\(name).json"))
                #expect(cells.map { $0["status"] as? String } == ["completed"], "\(name): \(cells)")
            }
        }
    }

    /// Runs a Python program with arguments; what it printed.
    func python(_ program: String, _ arguments: String...) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
#endif

/// Tests that make the machine busy on purpose: run in a test process of their own (`make test`), so that the
/// load they make slows no other test.
@Suite("A busy machine: the same grid")
struct BusyMachineMatrixTests {
    @Test("the same grid on a busy machine: extensions with a compose sheet, alerts and timers of their own, users post and cancel, quiet and then beside four busy loops twice")
    func sameGridWhenBusy() async throws {
        // Photos shares a camera's 48 MP photo: UploadShare's request (a preview and a copy of it) is charged about
        // 4 s here on a quiet machine and 6.6–8.2 s beside four loops, for the host's own share of the work is slowed
        // and not credited (docs/runtime.md, Time). A budget well above both judges what the grid is for.
        try await withTemporaryDirectory { directory in
            let bundles = try ["UploadShare", "ImportAction", "Uppercase", "ImageSaver"].map { try ExampleBundle.make($0, in: directory).path }
            func matrix(_ name: String, _ extra: [String]) async throws -> [String: [String]] {
                let json = directory.appending(path: "\(name).json")
                let result = try await Sharing.run(["test"] + bundles + ["--devices", "iphone-13", "--hosts", "photos,messages,notes", "--users", "post,cancel",
                                                                         "--faults", "none", "--timeout", "30", "--seed", "3", "--json", json.path,
                                                                         "--work", directory.appending(path: name).path] + extra)
                #expect(result.status == 0 || result.status == 1, "\(result.standardOutput)\(result.standardError)")
                #expect(!result.standardOutput.contains("flaky:"), "\(result.standardOutput)")
                return Dictionary(uniqueKeysWithValues: try MatrixCommandTests().cells(json).map { cell in
                    let planned = cell["cell"] as? [String: Any] ?? [:]
                    let key = ["bundle", "host", "user"].map { "\(planned[$0] ?? "")" }.joined(separator: " ")
                    return (key, cell["statuses"] as? [String] ?? [])
                })
            }
            let quiet = try await matrix("quiet", [])
            let loops = try BusyLoops(4)
            defer { loops.stop() }
            let busy = try await matrix("busy", ["--repeat", "2"])
            #expect(quiet.count == 24 && busy.keys == quiet.keys)
            for (key, statuses) in busy {
                #expect(statuses == Array(repeating: quiet[key]?.first ?? "", count: 2), "\(key)")
            }
        }
    }
}
