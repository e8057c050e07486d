#if os(Linux)
import Foundation
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
        }
    }

    @Test("run checks the activation rule first: not offered is not-activated, exit 1, the failing clause named; --ignore-activation runs it")
    func activation() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try ExampleBundle.make("Uppercase", in: directory)
            let hidden = try await Sharing.run(["run", bundle.path, "--host", "photos", "--file", Self.photo])
            #expect(hidden.status == 1)
            #expect(hidden.standardOutput.hasPrefix("Uppercase: not-activated: the system would not offer it for this share: item 1, attachment 1 (public.jpeg) is an image; the rule takes text\n"),
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
            let result = try await Sharing.run(["test"] + bundles + ["--hosts", "notes,photos", "--faults", "none", "--timeout", "5",
                                                "--work", directory.appending(path: "work").path,
                                                "--json", json.path, "--junit", junit.path, "--markdown", markdown.path])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            #expect(report["schema"] as? String == "opensharing-conformance/1")
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
