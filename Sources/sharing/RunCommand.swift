#if canImport(ExtensionRuntime)
import ArgumentParser
import ConformanceMatrix
import ExtensionManifest
import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI
import PackageSupport
import SharingSystem

/// `sharing run`: one request to an extension, as its own process, under limits.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an extension bundle (Name.appex) on a share as a host would: its own process, its limits, one outcome.",
        discussion: """
            Prints each load the extension asked for, how the request ended and why, the returned items, and the \
            most memory the extension used. As the system does, it first evaluates the extension's activation rule: \
            when the extension would not be offered for the share, it says why and does not run it (status \
            not-activated) unless --ignore-activation. Exit status, as `sharing test` judges a cell: 0 when the \
            run ended as expected (completed, cancelled, or not offered, with no finding that fails it: a cancel \
            after the user posted is one), 1 when it did not (interrupted, crashed, stuck, a failing finding), 2 on \
            bad input (a missing bundle, a broken Info.plist, a fault that does not read).
            """
    )

    @Argument(help: ArgumentHelp("The extension bundle.", valueName: "bundle"))
    var bundle: String?

    /// The share: a fixture, a host profile's, or (with neither) the files, URLs and text as they are.
    @OptionGroup var source: ShareOptions

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("The memory limit (default: the extension point's, 120MB for share and action extensions).", valueName: "size"))
    var memoryLimit: ByteCount?

    @Option(name: .customLong("disk-limit"), help: ArgumentHelp("The most the extension's container may hold, streams it is sent included (default 4GB).", valueName: "size"))
    var diskLimit: ByteCount?

    @Option(help: ArgumentHelp("Seconds the extension has to end the request (default 60).", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("app-group"), help: ArgumentHelp("The directory of app group containers the extension is given (made if missing).", valueName: "directory"))
    var appGroup: String?

    @Option(help: ArgumentHelp("A delegated, writable cgroup v2 directory: the extension runs in a child cgroup of it whose memory.max is the limit.", valueName: "directory"))
    var cgroup: String?

    @Option(help: ArgumentHelp("The device to play: its screen's scale and size, and its memory limit for the extension point (default iphone-13; none for the point's own limits; --list-devices).", valueName: "name|none"))
    var device: String?

    @Option(help: ArgumentHelp("What the person using the extension does: post (tap Post once the content is valid, and an alert's preferred action), cancel, or none.", valueName: "post|cancel|none"))
    var user = ExtensionUser.post.rawValue

    @Option(help: ArgumentHelp("A fault to inject, as name(param=value): none, slow-host(delay=2s), load-fails(nth=1), load-hangs(nth=1), memory-limit(mb=24), time-limit(s=5), host-killed(after=500ms), large-share(kind=photos|file). Repeatable; a later limit wins.", valueName: "spec"))
    var fault: [String] = []

    @Flag(name: .customLong("ignore-activation"), help: "Run the extension even when its activation rule would hide it for the share.")
    var ignoreActivation = false

    @Flag(name: .customLong("list-devices"), help: "Print the devices --device plays, with each figure's source, and exit.")
    var listDevices = false

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if listDevices { return }
        _ = try cell()
    }

    /// The cell the options name, checked.
    func cell() throws(ValidationError) -> MatrixCell {
        guard let bundle else { throw ValidationError("Give the extension bundle (Name.appex).") }
        guard let user = ExtensionUser(rawValue: user) else { throw ValidationError("--user takes post, cancel or none, not \(user).") }
        let played = try DeviceOption.device(device)
        var faults: [Fault] = []
        for spec in fault {
            do { faults.append(try Fault(parsing: spec)) } catch { throw ValidationError("--fault: \(error)") }
        }
        if let hostName = source.hostName, HostProfile.named(hostName) == nil {
            throw ValidationError("Unknown host '\(hostName)'. Hosts: \(HostProfile.all.map(\.name).joined(separator: ", ")).")
        }
        let cell = MatrixCell(bundle: bundle, host: source.hostName.flatMap(HostProfile.named), fixture: source.fixturePath,
                              content: CellContent(files: source.files, urls: source.urls, texts: source.texts, title: source.title),
                              device: played, user: user, faults: faults, memoryLimit: memoryLimit?.bytes, diskLimit: diskLimit?.bytes,
                              timeout: timeout, appGroup: appGroup, ignoresActivation: ignoreActivation)
        do {
            try cell.validate()
        } catch {
            throw ValidationError(Self.message(for: error) + ".")
        }
        return cell
    }

    func run() async throws {
        if listDevices { return DeviceOption.printDevices() }
        let cell = try cell()
        HostKill.arrange(for: cell)
        let report: RunReport
        do {
            report = try await cell.runShare(cgroup: cgroup.map { URL(fileURLWithPath: $0, isDirectory: true) })
        } catch {
            throw BadInput(Self.message(for: error))
        }
        if json {
            try Output.json(report)
        } else {
            report.print()
        }
        // As the matrix judges the cell: completed, cancelled or not offered, with no finding that fails it.
        if !CellResult(report, seconds: 0, appGroupFiles: []).isExpected { throw ExitCode.failure }
    }

    /// A cell's problem in the words of the option that gave its field.
    static func message(for error: CellError) -> String {
        if error.code == .invalidCell && error.field == "content" { return "Give the share: --share FIXTURE, or --host NAME with --file, --url, --text, or those alone" }
        let options = ["fixture": "--share", "urls": "--url", "timeout": "--timeout", "memoryLimit": "--memory-limit", "diskLimit": "--disk-limit",
                       "faults": "--fault", "user": "--user", "payloads": "--payload", "appGroup": "--app-group", "dataStore": "--data-store",
                       "host": "--host"]
        guard let field = error.field else { return error.message }
        if let option = options[field] ?? (field.hasPrefix("--") ? field : nil) { return "\(option) \(error.message)" }
        return error.message
    }
}

/// The host's own death, as a fault asks: this process killed that long after the extension starts, as a host
/// app killed mid-share, said first on standard error.
enum HostKill {
    static func arrange(for cell: MatrixCell) {
        for case .hostKilled(let after) in cell.faults {
            Output.diagnostic("the host is killed \(after) after the extension starts (fault host-killed)")
            Processes.killThisProcess(afterItsExtensionStarts: after)
        }
    }
}

/// `--device`: a device of the table, by name.
enum DeviceOption {
    static func device(_ name: String?) throws(ValidationError) -> DeviceClass? {
        guard let name else { return .default }
        if name == "none" { return nil }
        guard let device = DeviceClass.named(name) else {
            throw ValidationError("--device \(name) is not a device known here; --list-devices prints them (\(DeviceClass.all.map(\.name).joined(separator: ", "))).")
        }
        return device
    }

    /// The device table, each figure with its source.
    static func printDevices() {
        for device in DeviceClass.all {
            let limits = device.memoryLimits.sorted { $0.key < $1.key }.map { point, bytes in
                "\(ExtensionPoint.named(point)?.name.lowercased() ?? point) \(ByteCount(bytes: bytes))"
            }
            Output.line("\(device.name): \(device.model), iOS \(device.systemVersion), scale \(device.screenScale), "
                        + "\(device.screenWidth) × \(device.screenHeight) points; memory: \(limits.joined(separator: ", "))")
            for source in device.sources { Output.line("  source: \(source)") }
        }
        Output.line("Other extension points, and points a device has no figure for, take the point's limit; an explicit --memory-limit wins over both.")
        Output.line("Played when none is named: \(DeviceClass.default.name); sharing test's standard set: \(DeviceClass.standard.map(\.name).joined(separator: ", ")).")
    }
}

extension RunReport.Transfer {
    /// `METHOD URL: STATUS, SIZE, ended … after the extension`, as the text reports print it.
    var summary: String {
        let ending = endedAfterExtension.map { $0 >= 0 ? String(format: "ended %.1f s after the extension", $0)
                                                        : String(format: "ended %.1f s before the extension", -$0) } ?? "had not ended"
        return "\(method) \(url): \(status.map { "status \($0)" } ?? error ?? "no answer"), \(ByteCount(bytes: bytes)), \(ending)"
    }
}

extension RunReport {
    /// The report for a person: every text that came from the extension or its share escaped for the terminal.
    func print() {
        let shown = { (text: String) in Escaped.terminal(text) }
        if let host = cell.host {
            Output.line("host: \(host.name) (\(shown(host.host)))")
        } else if let fixture = cell.fixture {
            Output.line("share: \(shown(fixture))")
        } else {
            Output.line("host: none: the content as it is, as no app in particular shares it (--host NAME shares it as that app does; sharing share --help lists them)")
        }
        for load in loads {
            let size = load.size.map { " " + ByteCount(bytes: $0).description } ?? ""
            Output.line("load: \(shown(load.type)) as \(load.form.rawValue)\(size)\(load.failure.map { " failed: \(shown($0))" } ?? "")")
        }
        for url in openedURLs { Output.line("open: \(shown(url))") }
        for name in posted { Output.line("posted \(shown(name))") }
        for interaction in donated { Output.line("donated \(shown(interaction))") }
        for name in lookups { Output.line("looked up \(shown(name)): refused (an extension's network here is this machine's loopback)") }
        for address in connections { Output.line("connected \(shown(address))") }
        if !taps.isEmpty { Output.line("the user tapped \(taps.map(shown).joined(separator: ", "))") }
        for transfer in backgroundTransfers { Output.line("background transfer: \(shown(transfer.summary))") }
        for alert in alerts {
            let said = [alert.title, alert.message].compactMap { $0 }.map { "\"\(shown($0))\"" }.joined(separator: " ")
            Output.line("alert: \(said) [\(alert.actions.map(shown).joined(separator: ", "))]: the user \(alert.chosen.map { "chose \"\(shown($0))\"" } ?? "chose nothing")")
        }
        switch status {
        case .notActivated: Output.line("\(shown(bundle)): not-activated: the system would not offer it for this share: \(shown(reason ?? ""))")
        case .completed: Output.line("\(shown(bundle)): completed, \(returned.count) item\(returned.count == 1 ? "" : "s") returned")
        default: Output.line("\(shown(bundle)): \(status.rawValue): \(shown(reason ?? ""))")
        }
        for item in returned {
            if let failure = item.failure {
                Output.line("  \(shown(item.type)): failed: \(shown(failure))")
            } else if let text = item.text {
                Output.line("  \(shown(item.type)): \(shown(text))")
            } else {
                Output.line("  \(shown(item.type)): \(item.size.map { ByteCount(bytes: $0).description } ?? "")")
            }
        }
        for finding in findings { Output.line("finding: \(shown(finding.description))") }
        if let log {
            Output.line(log.isEmpty ? "its log: (empty)" : "its log, last words:")
            for line in log { Output.line("  \(shown(line))") }
        }
        if let livedAfterCompletion, livedAfterCompletion >= 0.1 || afterCompletionExpired {
            Output.line(String(format: "after completion: lived %.2f s%@", livedAfterCompletion,
                               afterCompletionExpired ? ", until its time ran out (its expiring work was told so)" : ""))
        }
        if let waitedForCore, let requestTime, waitedForCore >= max(0.5, requestTime / 10) {
            Output.line(String(format: "the machine kept it waiting %.1f s of %.1f s (its time budget was not charged for that)",
                               waitedForCore, requestTime))
        }
        // Nothing ran: no memory to tell of, no sandbox.
        guard status != .notActivated else { return }
        Output.line("peak memory: \(ByteCount(bytes: peakFootprint)) (limit \(ByteCount(bytes: memoryLimit)) on \(cell.device.map(\.played) ?? "no device: the point's own"))")
        Output.line("sandbox: \(sandbox)")
        if cell.appGroup == nil { Output.line("app groups: a directory of the run's own, removed after it (--app-group DIR keeps what it writes)") }
    }
}
#endif
