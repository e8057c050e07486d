#if canImport(ExtensionRuntime)
import ArgumentParser
import ExtensionManifest
import ExtensionRuntime
import Foundation
import OpenItemProvider
import SharingShim

/// `sharing run`: one request to an extension, as its own process, under limits.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an extension bundle (Name.appex) on a share as a host would: its own process, its limits, one outcome.",
        discussion: """
            Prints each load the extension asked for, how the request ended and why, the returned items, and the \
            most memory the extension used. Exit status: 0 when the extension completed the request, 1 when it \
            cancelled it or was interrupted, 2 on bad input (a missing bundle, a broken Info.plist).
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
    }

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
        let items = try source.items()
        // One rule: an explicit limit wins over the device's, which wins over the extension point's.
        let played = device.flatMap(DeviceClass.named)
        var limits = ExtensionLimits.defaults(forExtensionPoint: extensionBundle.extensionPointIdentifier, device: played)
        if let memoryLimit { limits.memory = memoryLimit.bytes }
        if let diskLimit { limits.disk = diskLimit.bytes }
        if let timeout { limits.request = .milliseconds(Int(timeout * 1000)) }
        let host = ExtensionHost(limits: limits, device: played, user: ExtensionUser(rawValue: user) ?? .post, appGroupContainers: appGroup.map { URL(fileURLWithPath: $0, isDirectory: true) },
                                 cgroup: cgroup.map { URL(fileURLWithPath: $0, isDirectory: true) }, openURL: { _ in true })
        let run: ExtensionRun
        do {
            run = try await host.run(extensionBundle, items: items)
        } catch {
            throw BadInput("\(error)")
        }
        let report = await Report(run, bundle: extensionBundle, user: ExtensionUser(rawValue: user) ?? .post, device: played, limit: limits.memory)
        if json {
            try Output.json(report)
        } else {
            report.print()
        }
        if report.status != .completed { throw ExitCode.failure }
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

    /// What a run printed: the loads, the one status and why, the returned items, the extension's last log
    /// lines when it did not end the request itself, the footprint and the sandbox.
    struct Report: Encodable {
        struct Load: Encodable {
            var type: String
            var form: String
            var size: Int?
            var failure: String?
        }
        struct Returned: Encodable {
            var type: String
            var text: String?
            var size: Int?
            var failure: String?
        }
        var bundle: String
        var status: ExtensionStatus
        var reason: String?
        var error: [String: String]?
        var loads: [Load]
        var returned: [Returned]
        var openedURLs: [String]
        var peakFootprint: Int
        var exitStatus: String?
        var sandbox: String
        /// The extension's last words, when it crashed, was interrupted or broke the protocol.
        var log: [String]?
        var user: String
        var device: String?
        var memoryLimit: Int
        struct Alert: Encodable {
            var title: String?
            var message: String?
            var actions: [String]
            var chosen: String?
        }
        var alerts: [Alert]
        /// Seconds the process lived after it ended the request, and whether the time after completion ran out.
        var livedAfterCompletion: Double?
        var afterCompletionExpired: Bool

        init(_ run: ExtensionRun, bundle: ExtensionBundle, user: ExtensionUser, device: DeviceClass?, limit: Int) async {
            self.bundle = bundle.name
            self.user = user.rawValue
            self.device = device?.name
            memoryLimit = limit
            alerts = run.alerts.map { alert in
                Alert(title: alert.title, message: alert.message, actions: alert.actions.map { "\($0.title ?? "") (\($0.style))" },
                      chosen: alert.chosen.flatMap { alert.actions[$0].title })
            }
            livedAfterCompletion = run.livedAfterCompletion.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
            afterCompletionExpired = run.afterCompletionExpired
            status = run.status
            reason = run.reason
            loads = run.loads.map { Load(type: $0.typeIdentifier, form: $0.form, size: $0.size, failure: $0.failure) }
            returned = []
            switch run.outcome {
            case .completed(let items):
                // One line per attachment: its first representation, its size as the runtime recorded it, and
                // for text its words, loaded only when they are few.
                var records = run.returned[...]
                for provider in items.flatMap({ $0.attachments ?? [] }) {
                    let forms = provider.registeredForms
                    let taken = records.prefix(forms.count)
                    records = records.dropFirst(forms.count)
                    guard let (type, form) = forms.first, let record = taken.first else { continue }
                    returned.append(await Self.describe(provider, type: type, form: form, record: record))
                }
            case .cancelled(let error):
                self.error = ["domain": error.domain, "code": String(error.code), "description": error.localizedDescription]
            case .interrupted:
                log = run.lastWords()
            }
            openedURLs = run.openedURLs.map(\.absoluteString)
            peakFootprint = run.peakFootprint
            exitStatus = run.exitStatus?.description
            sandbox = run.sandbox.description
        }

        /// What a returned representation holds: its size as recorded, and for a text type of at most 64 KiB (or
        /// an item, which is small) its words.
        private static func describe(_ provider: NSItemProvider, type: String, form: NSItemProvider.RepresentationForm,
                                     record: ExtensionLoad) async -> Returned {
            var returned = Returned(type: type, size: record.size, failure: record.failure)
            let isText = UTType(type)?.conforms(to: .text) == true
            guard record.failure == nil, form == .item || (isText && (record.size ?? .max) <= 64 << 10) else { return returned }
            let text: String? = await withCheckedContinuation { continuation in
                guard form == .item else {
                    provider.loadDataRepresentation(forTypeIdentifier: type) { data, _ in
                        continuation.resume(returning: data.map { String(decoding: $0, as: UTF8.self) })
                    }
                    return
                }
                provider.loadItem(forTypeIdentifier: type, options: nil) { item, _ in
                    switch item {
                    case let string as NSString: continuation.resume(returning: string as String)
                    case let url as NSURL: continuation.resume(returning: (url as URL).absoluteString)
                    case let data as NSData where isText: continuation.resume(returning: String(decoding: data as Data, as: UTF8.self))
                    case let item?: continuation.resume(returning: isText ? nil : "\(Swift.type(of: item))")
                    case nil: continuation.resume(returning: nil)
                    }
                }
            }
            returned.text = text
            return returned
        }

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
            Output.line("peak memory: \(ByteCount(bytes: peakFootprint))\(device.map { " (limit \(ByteCount(bytes: memoryLimit)) on \($0))" } ?? "")")
            Output.line("sandbox: \(sandbox)")
        }
    }
}
#endif
