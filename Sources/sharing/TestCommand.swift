#if canImport(ExtensionRuntime)
import ArgumentParser
import ConformanceMatrix
import ExtensionManifest
import ExtensionRuntime
import Foundation
import HostProfiles
import ShareInbox
import SharingShim
import SharingSystem
import PackageSupport

/// `sharing test`: each bundle against every host profile and fault, one `sharing run` per cell, as a grid.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run extension bundles against host profiles and faults, one process per cell, and report a grid.",
        discussion: """
            Each cell is one `sharing run` command, printed for every cell not as expected so that it can be run \
            alone. A cell is as expected when it completes, cancels, or is not activated (the system would not \
            offer the extension for that host's share); a completed cell also says what did not happen (attachments \
            never loaded, loads that failed, nothing returned or kept). Without --file, --url or --text every host \
            shares a default set, written into the work directory: a photo, a PDF, a page's URL and a note. \
            Exit status: 0 when every cell is as expected, 1 when one is not, 2 on bad input.
            """
    )

    @Argument(help: ArgumentHelp("Extension bundles (Name.appex).", valueName: "bundle"))
    var bundles: [String] = []

    @Option(help: ArgumentHelp("Host profiles: all, or names separated by commas (sharing share --list-hosts).", valueName: "all|name,…"))
    var hosts = "all"

    @Option(help: ArgumentHelp("Faults: standard (none, load-fails(nth=1), slow-host(delay=2s)), all, or specs separated by commas. Repeatable.", valueName: "standard|all|spec,…"))
    var faults: [String] = []

    @Option(name: .customLong("file"), help: ArgumentHelp("A file every host shares, in place of the default set.", valueName: "path"))
    var files: [String] = []

    @Option(name: .customLong("url"), help: ArgumentHelp("A URL every host shares, in place of the default set.", valueName: "url"))
    var urls: [String] = []

    @Option(name: .customLong("text"), help: ArgumentHelp("Text every host shares, in place of the default set.", valueName: "text"))
    var texts: [String] = []

    @Option(help: ArgumentHelp("Seconds each cell's extension has to end its request (default: its extension point's).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Cells run at a time (default: the cores).", valueName: "count"))
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Where the default share and each cell's app group go (default: opensharing-test in the temporary directory).", valueName: "directory"))
    var work: String?

    @Option(help: ArgumentHelp("Write the results as JSON (docs/conformance-schema.json).", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write the results as JUnit XML.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the results as Markdown, for a CI job's summary.", valueName: "file"))
    var markdown: String?

    func validate() throws {
        guard !bundles.isEmpty else { throw ValidationError("Give the extension bundles (Name.appex).") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be more than 0 seconds.") }
        _ = try hostProfiles()
        _ = try faultList()
        for url in urls where URL(string: url)?.scheme == nil { throw ValidationError("--url '\(url)' is not an absolute URL.") }
    }

    private func hostProfiles() throws(ValidationError) -> [HostProfile] {
        guard hosts != "all" else { return HostProfile.all }
        var profiles: [HostProfile] = []
        for name in hosts.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let profile = HostProfile.named(name) else {
                throw ValidationError("--hosts: no host profile is named '\(name)'. Hosts: \(HostProfile.all.map(\.name).joined(separator: ", ")).")
            }
            profiles.append(profile)
        }
        return profiles
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
        let started = Date()
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
        for profile in try hostProfiles() {
            do {
                let shared = given ? content : DefaultShare.content(for: profile.name, from: content)
                shares.append((profile, shared, try profile.share(shared).makeItems(relativeTo: work)))
            } catch {
                Output.line("\(profile.name): left out: \(error)")
            }
        }
        let faultList = try faultList()
        var cells: [Planned] = []
        for (path, bundle) in extensionBundles {
            guard ExtensionPoint.named(bundle.extensionPointIdentifier)?.usesActivationRule == true else {
                Output.line("\(bundle.name): left out: a \(ExtensionPoint.named(bundle.extensionPointIdentifier)?.name ?? bundle.extensionPointIdentifier) is not run on shares")
                continue
            }
            for (profile, content, items) in shares {
                let activation = try RunCommand.activation(of: bundle, for: items, path: path)
                let attachments = items.reduce(0) { $0 + ($1.attachments?.count ?? 0) }
                for fault in faultList {
                    let cell = MatrixCell(bundle: path, host: profile.name, fault: fault)
                    var arguments = ["run", path, "--host", profile.name]
                    arguments += content.files.flatMap { ["--file", $0.path] }
                    arguments += content.urls.flatMap { ["--url", $0.absoluteString] }
                    arguments += content.texts.flatMap { ["--text", $0] }
                    if let title = content.title { arguments += ["--title", title] }
                    arguments += ["--fault", fault.description]
                    if let timeout { arguments += ["--timeout", timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)] }
                    arguments += ["--app-group", work.appendingPathComponent("cells/\(cells.count)/groups").path]
                    cells.append(Planned(cell: cell, arguments: arguments, activated: activation?.matches ?? true,
                                         activationReasons: activation?.reasons ?? [], attachments: attachments))
                }
            }
        }
        Output.line("\(cells.count) cells, \(min(jobs, max(cells.count, 1))) at a time")
        let limit = (timeout ?? 60) + 60
        let results = await Self.runAll(cells, jobs: jobs, limit: limit)
        let report = MatrixReport(runInfo: runInfo(started: started, bundles: extensionBundles, hosts: shares.map(\.profile.name), faults: faultList),
                                  cells: results)
        Output.line(report.grid())
        let noted = report.cells.filter { $0.isExpected && !$0.notes.isEmpty }
        if !noted.isEmpty { Output.line("\nCompleted, but:") }
        for result in noted { Output.line("  \(result.cell.identifier): \(result.notes.joined(separator: "; "))") }
        for result in report.unexpected {
            Output.line("")
            Output.line("\(result.cell.identifier): \(result.status.rawValue)\(result.reason.map { ": \($0)" } ?? "")")
            Output.line("  \(result.reproduce)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for (path, data) in [(json, try encoder.encode(report)), (junit, Data(report.junit().utf8)), (markdown, Data(report.markdown().utf8))] {
            guard let path else { continue }
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw BadInput("\(path): cannot write the report: \((error as NSError).localizedDescription)")
            }
        }
        if !report.unexpected.isEmpty { throw ExitCode.failure }
    }

    /// A cell and the `sharing run` arguments that run it.
    struct Planned: Sendable {
        var cell: MatrixCell
        var arguments: [String]
        var activated: Bool
        var activationReasons: [String]
        var attachments: Int

        var reproduce: String { (["sharing"] + arguments).map(Self.quoted).joined(separator: " ") }

        static func quoted(_ word: String) -> String {
            let plain = word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_./=:,@%+".unicodeScalars.contains($0) }
            return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
    }

    /// Runs the cells, `jobs` at a time, each on a blocking thread; results in the cells' order.
    static func runAll(_ cells: [Planned], jobs: Int, limit: Double) async -> [CellResult] {
        let next = Locked(0)
        let done = Locked([CellResult?](repeating: nil, count: cells.count))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(jobs, max(cells.count, 1)) {
                group.addTask {
                    while true {
                        let index = next.withLock { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard index < cells.count else { return }
                        let result = await BlockingThreads.run { run(cells[index], limit: limit) }
                        done.withLock { $0[index] = result }
                    }
                }
            }
        }
        return done.withLock { $0.compactMap { $0 } }
    }

    /// Runs one cell: decided here when the extension would not be offered, else its own `sharing run`.
    static func run(_ planned: Planned, limit: Double) -> CellResult {
        guard planned.activated else {
            return CellResult(cell: planned.cell, status: .run(.notActivated), reason: planned.activationReasons.joined(separator: "; "), seconds: 0,
                              report: nil, appGroupFiles: [], attachments: planned.attachments, reproduce: planned.reproduce)
        }
        let groups = URL(fileURLWithPath: planned.arguments[planned.arguments.count - 1], isDirectory: true)
        try? FileManager.default.removeItem(at: groups)
        let clock = ContinuousClock(), start = clock.now
        let outcome = spawn(planned.arguments + ["--json"], limit: limit)
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let kept = (FileManager.default.enumerator(atPath: groups.path)?.allObjects as? [String] ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: groups.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
        switch outcome {
        case .report(let report):
            return CellResult(cell: planned.cell, status: .run(report.status), reason: report.reason, seconds: seconds, report: report,
                              appGroupFiles: kept, attachments: planned.attachments, reproduce: planned.reproduce)
        case .failed(let why, let errorOutput):
            return CellResult(cell: planned.cell, status: .harnessError, reason: why, seconds: seconds, report: nil, appGroupFiles: kept,
                              attachments: planned.attachments, logTail: errorOutput.split(separator: "\n").suffix(20).map(String.init),
                              reproduce: planned.reproduce)
        }
    }

    enum Spawned {
        case report(RunReport)
        case failed(String, errorOutput: String)
    }

    /// Runs this program with `arguments`, killed when it outlives `limit` seconds; its JSON report, or why
    /// there is none.
    static func spawn(_ arguments: [String], limit: Double) -> Spawned {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failed("cannot start sharing run: \(error)", errorOutput: "")
        }
        let ended = Locked(false)
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
            // Killed only while it has not been reaped: its number is still its own.
            ended.withLock { if !$0 { kill(pid, SIGKILL) } }
        }
        let errorData = Locked(Data())
        let readErrors = DispatchGroup()
        DispatchQueue.global().async(group: readErrors) { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        readErrors.wait()
        ended.withLock { isEnded in
            process.waitUntilExit()
            isEnded = true
        }
        let errorText = String(decoding: errorData.withLock { $0 }, as: UTF8.self)
        if process.terminationReason == .uncaughtSignal {
            return .failed("sharing run was killed by signal \(process.terminationStatus)\(process.terminationStatus == SIGKILL ? " (over the matrix's \(Int(limit)) s)" : "")", errorOutput: errorText)
        }
        do {
            return .report(try JSONDecoder().decode(RunReport.self, from: data))
        } catch {
            return .failed("sharing run exited \(process.terminationStatus) with no report", errorOutput: errorText)
        }
    }

    private func runInfo(started: Date, bundles: [(path: String, bundle: ExtensionBundle)], hosts: [String], faults: [Fault]) -> MatrixReport.RunInfo {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
            .first { $0.hasPrefix("model name") }.map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        return MatrixReport.RunInfo(
            sharingVersion: Sharing.version, started: ISO8601DateFormatter().string(from: started), host: ProcessInfo.processInfo.hostName,
            cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount, jobs: jobs, timeout: timeout, hosts: hosts,
            faults: faults.map(\.description),
            bundles: bundles.map { path, bundle in
                MatrixReport.BundleInfo(path: path, name: bundle.name, bundleIdentifier: bundle.bundleIdentifier, extensionPoint: bundle.extensionPointIdentifier,
                                        bundleHash: (try? ContentHash.of(treeAt: bundle.url).description) ?? "unreadable",
                                        activationRuleHash: bundle.manifest.activationRule.map { rule in
                                            let hasher = ContentHasher()
                                            hasher.update(rule.predicateSource)
                                            return hasher.finalize().description
                                        })
            })
    }
}
#endif
