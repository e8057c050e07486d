import Foundation

/// The `sharing` tool built from this package's dependency, run as an extension's author runs it.
public enum SharingCommand {
    /// What a run said: its JSON report, its exit status, and the files the extension left in its app group.
    public struct Result {
        public var report: [String: Any]
        public var status: Int32
        public var kept: [String]

        /// The report's findings, each `code`, `severity`, `message`.
        public var findings: [[String: String]] {
            ((report["findings"] as? [[String: Any]]) ?? []).map { $0.compactMapValues { $0 as? String } }
        }
    }

    /// `sharing run BUNDLE.appex ARGUMENTS --json` with an app group directory of its own, which `prepare` is given
    /// first as the app does (the container of `group`); what it said and what the extension left in `group`.
    public static func run(_ bundle: String, _ arguments: [String], group: String,
                           prepare: (URL) throws -> Void = { _ in }) throws -> Result {
        let groups = FileManager.default.temporaryDirectory.appendingPathComponent("sharing-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: groups) }
        let container = groups.appendingPathComponent(group)
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        try prepare(container)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: container.path))
        let (data, status) = try execute(["run", path(of: bundle), "--app-group", groups.path, "--json"] + arguments)
        guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw UnreadableReport(said: String(decoding: data, as: UTF8.self))
        }
        let after = (try? FileManager.default.contentsOfDirectory(atPath: container.path)) ?? []
        return Result(report: report, status: status, kept: after.filter { !before.contains($0) }.sorted())
    }

    /// `sharing test BUNDLE.appex ARGUMENTS` in a work directory of its own: what it printed and its exit status.
    public static func test(_ bundle: String, _ arguments: [String]) throws -> (output: String, status: Int32) {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sharing-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let (data, status) = try execute(["test", path(of: bundle), "--work", work.path] + arguments)
        return (String(decoding: data, as: UTF8.self), status)
    }

    private static func path(of bundle: String) -> String {
        ExtensionHarness.bundles.appendingPathComponent("\(bundle).appex").path
    }

    /// Runs the tool with `arguments`: its standard output and exit status.
    private static func execute(_ arguments: [String]) throws -> (Data, Int32) {
        let sharing = ExtensionHarness.bundles.deletingLastPathComponent().appendingPathComponent("debug/sharing")
        guard FileManager.default.isExecutableFile(atPath: sharing.path) else { throw MissingTool(path: sharing.path) }
        let process = Process()
        process.executableURL = sharing
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, process.terminationStatus)
    }
}

/// The `sharing` tool has not been built.
struct MissingTool: Error, CustomStringConvertible {
    var path: String
    var description: String { "\(path) is missing: build it first with swift build --product sharing (make test does)" }
}

/// `sharing run --json` printed something that is not a JSON object.
struct UnreadableReport: Error, CustomStringConvertible {
    var said: String
    var description: String { "sharing run --json printed no report: \(said)" }
}
