#if canImport(ExtensionRuntime)
import ArgumentParser
import ConformanceMatrix
import ExtensionManifest
import ExtensionRuntime
import Foundation
import OpenItemProvider
import PackageSupport
import SharingShim

/// `sharing run`: one request to an extension, as its own process, under limits.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an extension bundle (Name.appex) on a share as a host would: its own process, its limits, one outcome.",
        discussion: """
            Prints each load the extension asked for, how the request ended and why, the returned items, and the \
            most memory the extension used. As the system does, it first evaluates the extension's activation rule: \
            when the extension would not be offered for the share, it says why and does not run it (status \
            not-activated) unless --ignore-activation. Exit status: 0 when the extension completed the request, 1 \
            when it cancelled it, was interrupted or was not activated, 2 on bad input (a missing bundle, a broken \
            Info.plist, a fault that does not read).
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

    @Option(help: ArgumentHelp("The device to play: its screen's scale and size, and its memory limit for the extension point (--list-devices).", valueName: "name"))
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
        guard bundle != nil else { throw ValidationError("Give the extension bundle (Name.appex).") }
        if ExtensionUser(rawValue: user) == nil { throw ValidationError("--user takes post, cancel or none, not \(user).") }
        if let device, DeviceClass.named(device) == nil {
            throw ValidationError("--device \(device) is not a device known here; --list-devices prints them (\(DeviceClass.all.map(\.name).joined(separator: ", "))).")
        }
        if !source.isGiven && source.files.isEmpty && source.urls.isEmpty && source.texts.isEmpty {
            throw ValidationError("Give the share: --share FIXTURE, or --host NAME with --file, --url, --text, or those alone.")
        }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be more than 0 seconds.") }
        if let memoryLimit, memoryLimit.bytes < 1 << 20 { throw ValidationError("--memory-limit must be at least 1MB.") }
        if let diskLimit, diskLimit.bytes < 1 << 20 { throw ValidationError("--disk-limit must be at least 1MB.") }
        for spec in fault {
            do { _ = try Fault(parsing: spec) } catch { throw ValidationError("--fault: \(error)") }
        }
    }

    /// The faults, read (`validate()` checked them).
    private var faults: [Fault] { fault.compactMap { try? Fault(parsing: $0) } }

    func run() async throws {
        if listDevices { return Self.printDevices() }
        guard let bundle else { return }
        let extensionBundle: ExtensionBundle
        do {
            extensionBundle = try ExtensionBundle(url: URL(fileURLWithPath: bundle, isDirectory: true))
        } catch {
            throw BadInput("\(error)")
        }
        // Made when missing, as `receive --inbox` makes its inbox.
        if let appGroup {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: appGroup, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw BadInput("--app-group \(appGroup): not a directory") }
            } else {
                do {
                    try FileManager.default.createDirectory(atPath: appGroup, withIntermediateDirectories: true)
                } catch {
                    throw BadInput("--app-group \(appGroup): cannot make the directory: \((error as NSError).localizedDescription)")
                }
            }
        }
        // The host's own faults: a large share adds its files; a host killed kills this process.
        var source = self.source
        for case .largeShare(let kind) in faults {
            do {
                source.files += try DefaultShare.writeLarge(kind).map(\.path)
            } catch {
                throw BadInput("--fault large-share(kind=\(kind.rawValue)): \(error)")
            }
        }
        let items = try source.items()
        // One rule: an explicit limit wins over the device's, which wins over the extension point's; a fault's
        // limit wins over all three, as the cell of the matrix it reproduces.
        let played = device.flatMap(DeviceClass.named)
        var limits = ExtensionLimits.defaults(forExtensionPoint: extensionBundle.extensionPointIdentifier, device: played)
        if let memoryLimit { limits.memory = memoryLimit.bytes }
        if let diskLimit { limits.disk = diskLimit.bytes }
        if let timeout { limits.request = .milliseconds(Int(timeout * 1000)) }
        Self.killHost(for: faults)
        let report: RunReport
        do {
            report = try await RunReport.run(extensionBundle, items: items, faults: faults, limits: limits, device: played,
                                             user: ExtensionUser(rawValue: user) ?? .post, appGroupContainers: appGroup.map { URL(fileURLWithPath: $0, isDirectory: true) },
                                             cgroup: cgroup.map { URL(fileURLWithPath: $0, isDirectory: true) }, ignoringActivation: ignoreActivation)
        } catch let error as PredicateSyntaxError {
            throw BadInput("\(bundle): NSExtensionActivationRule does not parse: \(error)")
        } catch {
            throw BadInput("\(error)")
        }
        if json {
            try Output.json(report)
        } else {
            report.print()
        }
        if report.status != .completed { throw ExitCode.failure }
    }

    /// Under `host-killed(after=…)`, kills this process (the host) that long from now, as a host app killed
    /// mid-share, saying so first.
    static func killHost(for faults: [Fault]) {
        for case .hostKilled(let after) in faults {
            FileHandle.standardError.write(Data("sharing: the host is killed \(after) after the run starts (fault host-killed)\n".utf8))
            DispatchQueue.global().asyncAfter(deadline: .now() + after.inSeconds) {
                kill(getpid(), SIGKILL)
            }
        }
    }

    /// The device table, each figure with its source.
    static func printDevices() {
        for device in DeviceClass.all {
            let limits = device.memoryLimits.sorted { $0.key < $1.key }.map { point, bytes in
                "\(ExtensionPoint.named(point)?.name.lowercased() ?? point) \(ByteCount(bytes: bytes))"
            }
            Output.line("\(device.name): \(device.model), scale \(device.screenScale), \(device.screenWidth) × \(device.screenHeight) points; "
                        + "memory: \(limits.joined(separator: ", "))")
            for source in device.sources { Output.line("  source: \(source)") }
        }
        Output.line("Other extension points, and points a device has no figure for, take the point's limit; an explicit --memory-limit wins over both.")
    }

}

extension RunReport {
    func print() {
        for load in loads {
            let size = load.size.map { " " + ByteCount(bytes: $0).description } ?? ""
            Output.line("load: \(load.type) as \(load.form)\(size)\(load.failure.map { " failed: \($0)" } ?? "")")
        }
        for url in openedURLs { Output.line("open: \(url)") }
        for alert in alerts {
            let said = [alert.title, alert.message].compactMap { $0 }.map { "\"\($0)\"" }.joined(separator: " ")
            Output.line("alert: \(said) [\(alert.actions.joined(separator: ", "))]: the user \(alert.chosen.map { "chose \"\($0)\"" } ?? "chose nothing")")
        }
        switch status {
        case .notActivated: Output.line("\(bundle): not-activated: the system would not offer it for this share: \(reason ?? "")")
        case .completed: Output.line("\(bundle): completed, \(returned.count) item\(returned.count == 1 ? "" : "s") returned")
        default: Output.line("\(bundle): \(status.rawValue): \(reason ?? "")")
        }
        for item in returned {
            if let failure = item.failure {
                Output.line("  \(item.type): failed: \(failure)")
            } else if let text = item.text {
                Output.line("  \(item.type): \(text)")
            } else {
                Output.line("  \(item.type): \(item.size.map { ByteCount(bytes: $0).description } ?? "")")
            }
        }
        if let log {
            Output.line(log.isEmpty ? "its log: (empty)" : "its log, last words:")
            for line in log { Output.line("  \(line)") }
        }
        if let livedAfterCompletion, livedAfterCompletion >= 0.1 || afterCompletionExpired {
            Output.line(String(format: "after completion: lived %.2f s%@", livedAfterCompletion,
                               afterCompletionExpired ? ", until its time ran out (its expiring work was told so)" : ""))
        }
        // Nothing ran: no memory to tell of, no sandbox.
        guard status != .notActivated else { return }
        Output.line("peak memory: \(ByteCount(bytes: peakFootprint))\(device.map { " (limit \(ByteCount(bytes: memoryLimit)) on \($0))" } ?? "")")
        Output.line("sandbox: \(sandbox)")
    }
}
#endif
