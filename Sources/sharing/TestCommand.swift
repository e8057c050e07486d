#if canImport(ExtensionRuntime)
import ArgumentParser
import ConformanceMatrix
import ExtensionManifest
import ExtensionRuntime
import Foundation
import HostProfiles
import PackageSupport
import ShareInbox
import SharingShim
import SharingSystem

/// `sharing test`: each bundle against every host profile, device, user and fault, one `sharing run` per cell,
/// as a grid.
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
            of a default set written into the work directory: a photo, a 48 MP photo (Photos'), a PDF, a page's URL and a note. A notification \
            service is sent payloads instead (--payload, or a default set: an alert only, a mutable notification with \
            an image served from 127.0.0.1 while the matrix runs, the same not mutable, one over 4 KB). \
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

    @Option(help: ArgumentHelp("Devices to play: none (the extension point's limits), all, or names separated by commas (sharing run --list-devices).", valueName: "none|all|name,…"))
    var devices = "none"

    @Option(help: ArgumentHelp("What the person does: post, cancel, none, separated by commas.", valueName: "post,cancel,none"))
    var users = "post"

    @Option(name: .customLong("file"), help: ArgumentHelp("A file every host shares, in place of the default set.", valueName: "path"))
    var files: [String] = []

    @Option(name: .customLong("url"), help: ArgumentHelp("A URL every host shares, in place of the default set.", valueName: "url"))
    var urls: [String] = []

    @Option(name: .customLong("text"), help: ArgumentHelp("Text every host shares, in place of the default set.", valueName: "text"))
    var texts: [String] = []

    @Option(name: .customLong("payload"), help: ArgumentHelp("A push payload every notification service is sent, in place of the default set (repeatable).", valueName: "file"))
    var payloads: [String] = []

    @Option(help: ArgumentHelp("Seconds each cell's extension has to end its request (default: its extension point's).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Cells run at a time (default: the cores).", valueName: "count"))
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Where the default share and each cell's app group go (default: opensharing-test in the temporary directory).", valueName: "directory"))
    var work: String?

    @Option(help: ArgumentHelp("Expected statuses per cell or glob (JSON); cells it does not name expect the default.", valueName: "file"))
    var expect: String?

    @Flag(name: .customLong("update-expectations"), help: "Write this run's results to the --expect file as the new expectations, and exit 0.")
    var updateExpectations = false

    @Option(help: ArgumentHelp("Run only the cells a report (--json) shows not as expected or flaky, with the same arguments.", valueName: "report"))
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
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be more than 0 seconds.") }
        if let shard, Self.shard(shard) == nil { throw ValidationError("--shard \(shard) is not I/N with 1 ≤ I ≤ N.") }
        _ = try hostProfiles()
        _ = try faultList()
        _ = try deviceList()
        _ = try userList()
        for url in urls where URL(string: url)?.scheme == nil { throw ValidationError("--url '\(url)' is not an absolute URL.") }
    }

    static func shard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else { return nil }
        return (index, count)
    }

    private func hostProfiles() throws(ValidationError) -> [HostProfile] {
        guard hosts != "all" else { return HostProfile.all }
        return try names(hosts, "--hosts", "host profile", HostProfile.named, all: HostProfile.all.map(\.name))
    }

    private func deviceList() throws(ValidationError) -> [DeviceClass?] {
        switch devices {
        case "none": return [nil]
        case "all": return DeviceClass.all
        default: return try names(devices, "--devices", "device", DeviceClass.named, all: DeviceClass.all.map(\.name))
        }
    }

    private func userList() throws(ValidationError) -> [ExtensionUser] {
        try names(users, "--users", "user", ExtensionUser.init(rawValue:), all: ["post", "cancel", "none"])
    }

    private func names<T>(_ list: String, _ option: String, _ kind: String, _ lookup: (String) -> T?, all: [String]) throws(ValidationError) -> [T] {
        var found: [T] = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let value = lookup(name) else { throw ValidationError("\(option): no \(kind) is named '\(name)'. They are: \(all.joined(separator: ", ")).") }
            found.append(value)
        }
        return found
    }

    private func faultList() throws(ValidationError) -> [Fault] {
        var list: [Fault] = []
        for text in faults.isEmpty ? ["standard"] : faults {
            do {
                for fault in try Fault.list(parsing: text) where !list.contains(fault) { list.append(fault) }
            } catch {
                throw ValidationError("--faults: \(error)")
            }
        }
        return list
    }

    func run() async throws {
        // A report that cannot be written is found before the matrix runs, not after its minutes are spent.
        for (option, path) in [("--json", json), ("--junit", junit), ("--markdown", markdown), ("--html", html),
                               ("--expect", updateExpectations ? expect : nil)] {
            guard let path else { continue }
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard FileManager.default.isWritableFile(atPath: directory) else {
                throw BadInput("\(option) \(path): \(FileManager.default.fileExists(atPath: directory) ? "its directory is not writable" : "no such directory")")
            }
        }
        if merge { return try mergeReports() }
        let expectations = try expect.map { path throws(BadInput) -> Expectations? in
            // Updating writes the file; it need not exist yet.
            if updateExpectations && !FileManager.default.fileExists(atPath: path) { return nil }
            do { return try Expectations.read(from: URL(fileURLWithPath: path)) } catch { throw BadInput("--expect \(error)") }
        } ?? nil
        var (cells, info, server) = try retry.map(retried) ?? plan()
        defer { server?.stop() }
        if let shard, let (index, count) = Self.shard(shard) {
            cells = cells.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
            info.shard = shard
        }
        let seed = self.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        info.seed = seed
        info.repeats = repeats
        info.expectations = expect
        var generator = SeededGenerator(seed: seed)
        let order = Array(cells.indices).shuffled(using: &generator)
        Output.line("\(cells.count) cells\(repeats > 1 ? " × \(repeats)" : ""), \(min(jobs, max(cells.count, 1))) at a time, seed \(seed)")
        var results = await MatrixRunner.runAll(cells, order: order, repeats: repeats, jobs: jobs, limit: (timeout ?? 60) + 60)
        for index in results.indices { results[index].expect(expectations?.entry(for: results[index].cell)) }
        let report = MatrixReport(runInfo: info, cells: results)
        try present(report)
        if updateExpectations, let expect {
            let updated = Expectations(results: results, previous: expectations)
            try write(try Self.encoder.encode(updated), to: expect)
            Output.line("\nwrote \(updated.expectations.count) expectation\(updated.expectations.count == 1 ? "" : "s") to \(expect)")
            return
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// The cells of bundles × hosts (or payloads) × devices × users × faults, the run info they are run with,
    /// and the web server a default payload's image is downloaded from, while the cells run.
    private func plan() throws -> ([MatrixRunner.Planned], MatrixReport.RunInfo, LocalFileServer?) {
        let work = URL(fileURLWithPath: self.work ?? FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-test").path, isDirectory: true)
        var extensionBundles: [(path: String, bundle: ExtensionBundle)] = []
        for path in bundles {
            do {
                extensionBundles.append((path, try ExtensionBundle(url: URL(fileURLWithPath: path, isDirectory: true))))
            } catch {
                throw BadInput("\(error)")
            }
        }
        // Without content given, each host shares the part of the default set it shares (a photo from Photos, the
        // note from Notes); content given is shared by every host whole.
        let given = !(files.isEmpty && urls.isEmpty && texts.isEmpty)
        let content: SharedContent
        if given {
            for path in files where !FileManager.default.fileExists(atPath: path) { throw BadInput("--file \(path): no such file or directory") }
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            content = SharedContent(files: files.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL },
                                    urls: urls.compactMap(URL.init(string:)), texts: texts)
        } else {
            do {
                content = try DefaultShare.write(into: work.appendingPathComponent("share"))
            } catch {
                throw BadInput("\(work.path): cannot write the default share: \(error)")
            }
        }
        // Each host's share as that host makes it; a host that cannot share the content is left out, and said so.
        var shares: [(profile: HostProfile, content: SharedContent, items: [NSExtensionItem])] = []
        let sharesAsked = extensionBundles.contains { ExtensionPoint.named($0.bundle.extensionPointIdentifier)?.usesActivationRule == true }
        for profile in try hostProfiles() where sharesAsked {
            do {
                let shared = given ? content : DefaultShare.content(for: profile.name, from: content)
                shares.append((profile, shared, try profile.share(shared).makeItems(relativeTo: work)))
            } catch {
                Output.line("\(profile.name): left out: \(error)")
            }
        }
        let faultList = try faultList(), deviceList = try deviceList(), userList = try userList()
        // A notification service's payloads: given, or the default set, whose image this process serves.
        var server: LocalFileServer?
        var payloadFiles = payloads.map { URL(fileURLWithPath: $0) }
        if payloads.isEmpty && extensionBundles.contains(where: { $0.bundle.extensionPointIdentifier == DeviceClass.notificationService }) {
            do {
                let serving = try LocalFileServer(serving: work.appendingPathComponent("share"))
                server = serving
                payloadFiles = try DefaultShare.writePayloads(into: work.appendingPathComponent("payloads"), image: serving.base.appendingPathComponent("photo.jpg"))
                Output.line("serving the payloads' image at \(serving.base.absoluteString)/photo.jpg while the matrix runs")
            } catch {
                throw BadInput("\(work.path): cannot make the default payloads: \(error)")
            }
        }
        for file in payloadFiles where !FileManager.default.fileExists(atPath: file.path) { throw BadInput("--payload \(file.path): no such file") }
        var cells: [MatrixRunner.Planned] = []
        func options(_ device: DeviceClass?, _ fault: Fault, _ number: Int) -> [String] {
            var arguments = device.map { ["--device", $0.name] } ?? []
            arguments += ["--fault", fault.description]
            if let timeout { arguments += ["--timeout", timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)] }
            return arguments + ["--app-group", work.appendingPathComponent("cells/\(number)/groups").path]
        }
        for (path, bundle) in extensionBundles {
            if bundle.extensionPointIdentifier == DeviceClass.notificationService {
                for file in payloadFiles {
                    for device in deviceList {
                        for fault in faultList where fault.appliesToNotifications {
                            let cell = MatrixCell(bundle: path, payload: file.deletingPathExtension().lastPathComponent, device: device?.name, fault: fault)
                            let arguments = ["notify", path, "--payload", file.path, "--data-store", work.appendingPathComponent("cells/\(cells.count)/store").path]
                                + options(device, fault, cells.count)
                            cells.append(MatrixRunner.Planned(cell: cell, arguments: arguments, notActivated: nil, attachments: 0))
                        }
                    }
                }
                continue
            }
            guard ExtensionPoint.named(bundle.extensionPointIdentifier)?.usesActivationRule == true else {
                Output.line("\(bundle.name): left out: a \(ExtensionPoint.named(bundle.extensionPointIdentifier)?.name ?? bundle.extensionPointIdentifier) is run neither on shares nor on payloads")
                continue
            }
            for (profile, content, items) in shares {
                let activation: ActivationResult?
                do {
                    activation = try bundle.activation(for: items)
                } catch {
                    throw BadInput("\(path): NSExtensionActivationRule does not parse: \(error)")
                }
                let attachments = items.reduce(0) { $0 + ($1.attachments?.count ?? 0) }
                for device in deviceList {
                    for user in userList {
                        for fault in faultList {
                            let cell = MatrixCell(bundle: path, host: profile.name, device: device?.name, user: user.rawValue, fault: fault)
                            var arguments = ["run", path, "--host", profile.name]
                            arguments += content.files.flatMap { ["--file", $0.path] }
                            arguments += content.urls.flatMap { ["--url", $0.absoluteString] }
                            arguments += content.texts.flatMap { ["--text", $0] }
                            if let title = content.title { arguments += ["--title", title] }
                            if user != .post { arguments += ["--user", user.rawValue] }
                            arguments += options(device, fault, cells.count)
                            // A large share changes what is shared: the activation rule decides again in the run.
                            let decided: [String]? = if case .largeShare = fault { nil } else if activation?.matches == false { activation?.reasons ?? [] } else { nil }
                            cells.append(MatrixRunner.Planned(cell: cell, arguments: arguments, notActivated: decided, attachments: attachments))
                        }
                    }
                }
            }
        }
        let info = MatrixReport.RunInfo(
            sharingVersion: Sharing.version, started: ISO8601DateFormatter().string(from: Date()), host: ProcessInfo.processInfo.hostName,
            cpu: Self.cpuModel, cores: ProcessInfo.processInfo.activeProcessorCount, jobs: jobs, timeout: timeout,
            hosts: shares.map(\.profile.name), payloads: payloadFiles.map { $0.deletingPathExtension().lastPathComponent }, faults: faultList.map(\.description), devices: deviceList.map { $0?.name ?? "none" },
            users: userList.map(\.rawValue), bundles: extensionBundles.map { Self.bundleInfo(path: $0.path, bundle: $0.bundle) },
            seed: 0, repeats: 1, shard: nil, expectations: nil)
        return (cells, info, server)
    }

    /// The cells a report shows not as expected or flaky, with their arguments, and the report's run info.
    private func retried(_ path: String) throws(BadInput) -> ([MatrixRunner.Planned], MatrixReport.RunInfo, LocalFileServer?) {
        let previous = try Self.readReport(path)
        var info = previous.runInfo
        info.started = ISO8601DateFormatter().string(from: Date())
        info.jobs = jobs
        let cells = previous.cells.filter { !$0.isExpected || $0.isFlaky }.map { result in
            MatrixRunner.Planned(cell: result.cell, arguments: result.arguments, notActivated: nil, attachments: result.attachments)
        }
        return (cells, info, nil)
    }

    /// Prints the grid and what to look at, and writes the reports asked for.
    private func present(_ report: MatrixReport) throws {
        Output.line(report.grid())
        let noted = report.cells.filter { $0.isExpected && !$0.notes.isEmpty }
        if !noted.isEmpty { Output.line("\nCompleted, but:") }
        for result in noted { Output.line("  \(result.cell.identifier): \(result.notes.joined(separator: "; "))") }
        for result in report.flaky {
            Output.line("\n\(result.cell.identifier): flaky: \(result.statuses.map(\.rawValue).joined(separator: ", "))\(result.bug.map { " (\($0))" } ?? "")")
            Output.line("  \(result.reproduce)")
        }
        for result in report.unexpected {
            Output.line("\n\(result.cell.identifier): \(result.status.rawValue)\(result.reason.map { ": \($0)" } ?? "")")
            Output.line("  \(result.reproduce)")
        }
        for (path, data) in [(json, try Self.encoder.encode(report)), (junit, Data(report.junit().utf8)), (markdown, Data(report.markdown().utf8)),
                             (html, Data(report.html().utf8))] {
            if let path { try write(data, to: path) }
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
        let report: MatrixReport
        do {
            report = try JSONDecoder().decode(MatrixReport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw BadInput("\(path): not a report of sharing test --json: \(error)")
        }
        guard report.schema == MatrixReport.schemaName else { throw BadInput("\(path): its schema is '\(report.schema)', not \(MatrixReport.schemaName)") }
        return report
    }

    private func write(_ data: Data, to path: String) throws(BadInput) {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw BadInput("\(path): cannot write: \((error as NSError).localizedDescription)")
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static var cpuModel: String {
        let line = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }

    static func bundleInfo(path: String, bundle: ExtensionBundle) -> MatrixReport.BundleInfo {
        MatrixReport.BundleInfo(path: path, name: bundle.name, bundleIdentifier: bundle.bundleIdentifier, extensionPoint: bundle.extensionPointIdentifier,
                                bundleHash: (try? ContentHash.of(treeAt: bundle.url).description) ?? "unreadable",
                                activationRuleHash: bundle.manifest.activationRule.map { rule in
                                    let hasher = ContentHasher()
                                    hasher.update(rule.predicateSource)
                                    return hasher.finalize().description
                                })
    }
}
#endif
