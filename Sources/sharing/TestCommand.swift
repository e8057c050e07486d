#if canImport(ExtensionRuntime)
import ArgumentParser
import ConformanceMatrix
import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI
import PackageSupport
import SharingSystem

/// `sharing test`: each bundle against every host profile, device, user and fault, one `sharing run` per cell,
/// as a grid. The matrix is `ConformanceMatrix`'s; this is its options and its printing.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run extension bundles against host profiles, devices, users and faults, one process per cell, and report a grid.",
        discussion: """
            Each cell is one `sharing run` command, printed for every cell not as expected so that it can be run \
            alone. By default a cell is as expected when it completes, cancels, is not activated (the system would \
            not offer the extension for that host's share), or goes with its host (host-killed); --expect FILE says \
            otherwise per cell or glob. A completed cell also says what did not happen (attachments never loaded, \
            loads that failed, nothing returned or kept). Without --file, --url or --text every host shares its part \
            of a default set written into the work directory: a photo, a 48 MP photo (Photos'), a PDF, a page's URL and a note; \
            with --share FIXTURE share extensions run on the fixtures instead of the hosts. A notification \
            service is sent payloads instead (--payload, or a default set: an alert only, a mutable notification with \
            an image served from 127.0.0.1 while the matrix runs, the same not mutable, one over 4 KB). A report read \
            back (--retry, --merge) is data: its cells are checked against its run and planned again here. \
            Exit status: 0 when every cell is as expected, 1 when one is not, 2 on bad input, 3 when cells were \
            flaky and none failed.
            """
    )

    @Argument(help: ArgumentHelp("Extension bundles (Name.appex); with --merge, the reports to join.", valueName: "bundle"))
    var bundles: [String] = []

    @Option(help: ArgumentHelp("Host profiles: all, or names separated by commas (sharing share --list-hosts).", valueName: "all|name,…"))
    var hosts = "all"

    @Option(help: ArgumentHelp("Faults: standard (none, load-fails(nth=1), slow-host(delay=2s)), all, or specs separated by commas. Repeatable.", valueName: "standard|all|spec,…"))
    var faults: [String] = []

    @Option(help: ArgumentHelp("Devices to play: standard (iphone-se-2 and iphone-13: the smallest share limit and the smallest at 3×), all, or names separated by commas, none among them for the extension point's own limits (sharing run --list-devices).", valueName: "standard|all|name,…"))
    var devices = "standard"

    @Option(help: ArgumentHelp("What the person does: post, cancel, none, separated by commas.", valueName: "post,cancel,none"))
    var users = "post"

    @Option(name: .customLong("file"), help: ArgumentHelp("A file every host shares, in place of the default set.", valueName: "path"))
    var files: [String] = []

    @Option(name: .customLong("url"), help: ArgumentHelp("A URL every host shares, in place of the default set.", valueName: "url"))
    var urls: [String] = []

    @Option(name: .customLong("text"), help: ArgumentHelp("Text every host shares, in place of the default set.", valueName: "text"))
    var texts: [String] = []

    @Option(name: .customLong("share"), help: ArgumentHelp("A share fixture (sharing share --write, or one an app wrote of what it shares) to run share extensions on, in place of the hosts (repeatable).", valueName: "file"))
    var shares: [String] = []

    @Option(name: .customLong("payload"), help: ArgumentHelp("A push payload every notification service is sent, in place of the default set (repeatable).", valueName: "file"))
    var payloads: [String] = []

    @Option(help: ArgumentHelp("Seconds each cell's extension has to end its request (default: its extension point's).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Cells run at a time (default: three per core; most of a cell is waiting, and its budgets charge only its own time).", valueName: "count"))
    var jobs = 3 * ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Where the default share and each cell's app group go (default: opensharing-test in the temporary directory).", valueName: "directory"))
    var work: String?

    @Option(help: ArgumentHelp("Expected statuses per cell or glob (JSON); cells it does not name expect the default.", valueName: "file"))
    var expect: String?

    @Flag(name: .customLong("update-expectations"), help: "Write this run's results to the --expect file as the new expectations, and exit 0.")
    var updateExpectations = false

    @Option(help: ArgumentHelp("Run again the cells a report (--json) shows not as expected or flaky, planned here as that report's run planned them. Content or payloads its run was given must be given again.", valueName: "report"))
    var retry: String?

    @Option(help: ArgumentHelp("Fixes the order the cells run in (default: a new seed, printed and recorded).", valueName: "number"))
    var seed: UInt64?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Runs each cell this many times; a cell whose status varies is flaky.", valueName: "count"))
    var repeats = 1

    @Option(help: ArgumentHelp("Runs shard I of N: a fixed 1/N of the cells, the same split for the same inputs (1/4, 2/4, …).", valueName: "I/N"))
    var shard: String?

    @Flag(help: "Join shards' JSON reports (the arguments) into one: the grid, and --json, --junit, --markdown, --html.")
    var merge = false

    @Option(help: ArgumentHelp("Write the results as JSON (docs/conformance-schema.json).", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write the results as JUnit XML.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the results as Markdown, for a CI job's summary.", valueName: "file"))
    var markdown: String?

    @Option(help: ArgumentHelp("Write the results as one self-contained HTML page.", valueName: "file"))
    var html: String?

    func validate() throws {
        if merge {
            guard !bundles.isEmpty else { throw ValidationError("Give the reports to merge (--json files of sharing test).") }
            return
        }
        guard !bundles.isEmpty || retry != nil else { throw ValidationError("Give the extension bundles (Name.appex), or --retry REPORT.") }
        guard bundles.isEmpty || retry == nil else { throw ValidationError("--retry takes its cells from the report: give no bundles with it.") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        guard repeats >= 1 else { throw ValidationError("--repeat must be at least 1.") }
        if updateExpectations && expect == nil { throw ValidationError("--update-expectations writes to the --expect file: give --expect FILE.") }
        if let timeout, !(timeout > 0 && timeout <= 86_400) { throw ValidationError("--timeout must be more than 0 seconds and at most a day.") }
        if let shard, Self.shard(shard) == nil { throw ValidationError("--shard \(shard) is not I/N with 1 ≤ I ≤ N.") }
        if !shares.isEmpty && givenContent != nil {
            throw ValidationError("--share runs on fixtures as they were written: give it without --file, --url or --text.")
        }
        if !shares.isEmpty && hosts != "all" { throw ValidationError("--share runs on fixtures in place of the hosts: give it without --hosts.") }
        _ = try matrix()
        for url in urls where URL(string: url)?.scheme == nil { throw ValidationError("--url '\(url)' is not an absolute URL.") }
    }

    static func shard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else { return nil }
        return (index, count)
    }

    /// The work directory: given, or `opensharing-test` in the temporary directory.
    private var workDirectory: URL {
        URL(fileURLWithPath: work ?? FileSystem.temporaryDirectory.appending(component: "opensharing-test").path, isDirectory: true)
    }

    /// The content and payloads given, if any.
    private var givenContent: CellContent? {
        files.isEmpty && urls.isEmpty && texts.isEmpty ? nil : CellContent(files: files, urls: urls, texts: texts)
    }

    /// The matrix the options name.
    /// The values a list of names separated by commas names (`--hosts safari,notes`), each looked up; an unknown
    /// name is refused with the names there are.
    static func names<T>(_ list: String, _ option: String, _ kind: String, _ lookup: (String) -> T?, all: [String]) throws(ValidationError) -> [T] {
        var found: [T] = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let value = lookup(name) else { throw ValidationError("\(option): no \(kind) is named '\(name)'. They are: \(all.joined(separator: ", ")).") }
            found.append(value)
        }
        return found
    }

    private func matrix() throws(ValidationError) -> Matrix {
        let hostList = hosts == "all" ? HostProfile.all : try Self.names(hosts, "--hosts", "host profile", HostProfile.named, all: HostProfile.all.map(\.name))
        let deviceList: [DeviceClass?] = switch devices {
        case "standard": DeviceClass.standard
        case "all": DeviceClass.all
        default: try Self.names(devices, "--devices", "device", { $0 == "none" ? .some(nil) : DeviceClass.named($0) }, all: DeviceClass.all.map(\.name) + ["none"])
        }
        let userList = try Self.names(users, "--users", "user", ExtensionUser.init(rawValue:), all: ExtensionUser.allCases.map(\.rawValue))
        var faultList: [Fault] = []
        for text in faults.isEmpty ? ["standard"] : faults {
            do {
                for fault in try Fault.list(parsing: text) where !faultList.contains(fault) { faultList.append(fault) }
            } catch {
                throw ValidationError("--faults: \(error)")
            }
        }
        return Matrix(bundles: bundles, hosts: hostList, content: givenContent, shares: shares.isEmpty ? nil : shares,
                      payloads: payloads.isEmpty ? nil : payloads, devices: deviceList,
                      users: userList, faults: faultList, timeout: timeout, work: workDirectory)
    }

    func run() async throws {
        // A report that cannot be written is found before the matrix runs, not after its minutes are spent.
        try Output.checkWritable([("--json", json), ("--junit", junit), ("--markdown", markdown), ("--html", html),
                                  ("--expect", updateExpectations ? expect : nil)])
        if merge { return try mergeReports() }
        let expectations = try expect.map { path throws(BadInput) -> Expectations? in
            // Updating writes the file; it need not exist yet.
            if updateExpectations && !FileManager.default.fileExists(atPath: path) { return nil }
            do { return try Expectations.read(from: URL(fileURLWithPath: path)) } catch { throw BadInput("--expect \(error)") }
        } ?? nil

        // The previous report, when rerunning: read as data, its axes planned again here.
        let previous = try retry.map { path throws(BadInput) in (report: try Self.readReport(path), file: path) }
        let matrix: Matrix
        do {
            matrix = try previous.map { previous throws(ReportError) in
                try Matrix(rerunning: previous.report.runInfo, content: givenContent, shares: shares.isEmpty ? nil : shares,
                           payloads: payloads.isEmpty ? nil : payloads, work: workDirectory,
                           file: previous.file)
            } ?? self.matrix()
        } catch let error as ReportError {
            throw BadInput("--retry \(error)")
        }
        let options = MatrixRunOptions(program: Processes.currentExecutable, jobs: jobs, repeats: repeats, seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)),
                                       shard: shard.flatMap(Self.shard), expectations: expectations, expectationsFile: expect, rerunning: previous,
                                       version: Sharing.version)
        let report: MatrixReport
        // A line per run for a log (a CI job's), a line redrawn on a terminal.
        let logged = !Terminal.standardOutputIsInteractive, drawn = !logged && Terminal.standardErrorIsInteractive
        do {
            report = try await matrix.run(options, said: { Output.line($0) }) { progress in
                let result = progress.result
                if logged {
                    Output.line("[\(progress.finished)/\(progress.total)] \(result.cell.identifier): \(result.status.rawValue) (\(String(format: "%.1f", result.seconds)) s)")
                } else if drawn {
                    Output.redraw("\(progress.finished) of \(progress.total) runs ended")
                }
            }
            if drawn { Output.redraw("") }
        } catch let error as ReportError {
            throw BadInput("--retry \(error)")
        } catch {
            throw BadInput("\(error)")
        }
        try present(report)
        if updateExpectations, let expect {
            let updated = Expectations(results: report.cells, previous: expectations)
            try Output.write(try Self.encoder.encode(updated), to: expect)
            Output.line("\nwrote \(updated.expectations.count) expectation\(updated.expectations.count == 1 ? "" : "s") to \(expect)")
            return
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// How many of a failing cell's last log lines the summary prints (its report keeps more).
    static let lastWords = 6

    /// Prints the grid and what to look at, and writes the reports asked for.
    private func present(_ report: MatrixReport) throws {
        // Each command as it runs here: this program as it was invoked when by a path (`swift run` gives one),
        // else by name, as the report keeps it.
        let invoked = CommandLine.arguments[0]
        let program = invoked.contains("/") ? invoked : "sharing"
        Output.line(report.grid())
        // A warning once for all the cells that have it: a debug build's is every cell's.
        for code in Finding.Code.allCases where code.severity == .warn {
            let having = report.cells.compactMap { result in result.findings.first { $0.code == code } }
            guard let first = having.first else { continue }
            Output.line("\nfinding in \(having.count) of \(report.cells.count) cells: \(Escaped.terminal(first.description))")
        }
        let noted = report.cells.filter { $0.isExpected && !$0.notes.isEmpty }
        if !noted.isEmpty { Output.line("\nCompleted, but:") }
        for result in noted { Output.line("  \(Escaped.terminal(result.cell.identifier)): \(result.notes.joined(separator: "; "))") }
        for result in report.flaky {
            Output.line("\n\(Escaped.terminal(result.cell.identifier)): flaky: \(result.statuses.map(\.rawValue).joined(separator: ", "))\(result.varied.isEmpty ? "" : " (varied: \(result.varied.map(\.rawValue).joined(separator: ", ")))")\(result.bug.map { " (\(Escaped.terminal($0)))" } ?? "")")
            Output.line("  \(Escaped.terminal(result.cell.reproduce(program: program)))")
        }
        for result in report.unexpected {
            Output.line("\n\(Escaped.terminal(result.cell.identifier)): \(result.status.rawValue)\(result.reason.map { ": \(Escaped.terminal($0))" } ?? "")")
            for finding in result.failingFindings { Output.line("  finding: \(Escaped.terminal(finding.description))") }
            let words = result.logTail.filter { !$0.isEmpty }.suffix(Self.lastWords)
            if !words.isEmpty { Output.line("  its last words:") }
            for line in words { Output.line("    \(Escaped.terminal(line))") }
            Output.line("  \(Escaped.terminal(result.cell.reproduce(program: program)))")
        }
        for (path, data) in [(json, try Self.encoder.encode(report)), (junit, Data(report.junit().utf8)), (markdown, Data(report.markdown().utf8)),
                             (html, Data(report.html().utf8))] {
            if let path { try Output.write(data, to: path) }
        }
    }

    private func mergeReports() throws {
        var reports: [MatrixReport] = []
        for path in bundles { reports.append(try Self.readReport(path)) }
        guard let report = MatrixReport.merged(reports) else { return }
        try present(report)
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    static func readReport(_ path: String) throws(BadInput) -> MatrixReport {
        do {
            return try MatrixReport.read(from: URL(fileURLWithPath: path))
        } catch {
            throw BadInput("\(error)")
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
#endif
