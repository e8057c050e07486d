#if canImport(ExtensionRuntime)
import ArgumentParser
import ConformanceMatrix
import ExtensionRuntime
import Foundation
import SharingShim

/// `sharing notify`: push payloads through a notification service extension, as iOS delivers them.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Deliver push payloads through a notification service extension (Name.appex) as iOS would, and print each notification as shown.",
        discussion: """
            One extension process serves the payloads in order, as iOS reuses it; after a kill or a crash the next \
            payload starts a new one. A payload that does not ask for the extension (mutable-content 1 and an alert \
            with a title, subtitle or body) is shown as it is. Attachments move into the data store. Exit status: 0 \
            when every notification was shown with no fault of the extension, 1 when any fell back to its original \
            because the extension failed (killed, crashed, out of time, its handler never called, or content that \
            cannot be shown), 2 on bad input (a payload Apple's push service would refuse, a bundle that is no \
            notification service).
            """
    )

    @Argument(help: ArgumentHelp("The notification service extension bundle.", valueName: "bundle"))
    var bundle: String

    @Option(name: .customLong("payload"), help: ArgumentHelp("A push payload, a JSON file as sent to Apple's push service (repeatable; in order).", valueName: "file"))
    var payloads: [String] = []

    @Option(name: .customLong("data-store"), help: ArgumentHelp("Where attachments are moved (made if missing; default: a new temporary directory, printed).", valueName: "directory"))
    var dataStore: String?

    @Flag(name: .customLong("allow-filtering"), help: "The extension has the filtering entitlement: content with no title, subtitle or body suppresses the notification.")
    var allowFiltering = false

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("The memory limit (default: the device's, else 24MB).", valueName: "size"))
    var memoryLimit: ByteCount?

    @Option(help: ArgumentHelp("Seconds each notification has before serviceExtensionTimeWillExpire() (default 30).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("The device to play (sharing run --list-devices).", valueName: "name"))
    var device: String?

    @Option(name: .customLong("app-group"), help: ArgumentHelp("The directory of app group containers the extension is given (made if missing).", valueName: "directory"))
    var appGroup: String?

    @Option(help: ArgumentHelp("A fault to inject: memory-limit(mb=24), time-limit(s=5), host-killed(after=500ms) (a notification service loads nothing from its host, so the load faults do not apply). Repeatable.", valueName: "spec"))
    var fault: [String] = []

    @Flag(help: "Print JSON: an array with one object per payload.")
    var json = false

    func validate() throws {
        if payloads.isEmpty { throw ValidationError("Give at least one --payload FILE.") }
        if let device, DeviceClass.named(device) == nil {
            throw ValidationError("--device \(device) is not a device known here (\(DeviceClass.all.map(\.name).joined(separator: ", "))).")
        }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be more than 0 seconds.") }
        if let memoryLimit, memoryLimit.bytes < 1 << 20 { throw ValidationError("--memory-limit must be at least 1MB.") }
        for spec in fault {
            let parsed: Fault
            do { parsed = try Fault(parsing: spec) } catch { throw ValidationError("--fault: \(error)") }
            guard parsed.appliesToNotifications else {
                throw ValidationError("--fault \(spec): a fault of a share's loads; a notification service loads nothing from its host.")
            }
        }
    }

    func run() async throws {
        let extensionBundle: ExtensionBundle
        do {
            extensionBundle = try ExtensionBundle(url: URL(fileURLWithPath: bundle, isDirectory: true))
        } catch {
            throw BadInput("\(error)")
        }
        let point = DeviceClass.notificationService
        guard extensionBundle.extensionPointIdentifier == point else {
            throw BadInput("\(bundle) is a \(extensionBundle.extensionPointIdentifier) extension, not a notification service (\(point))")
        }
        let pushes = try payloads.map { path in
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw BadInput("--payload \(path): cannot read it: \((error as NSError).localizedDescription)")
            }
            do {
                return try PushPayload(json: data, name: path)
            } catch {
                throw BadInput("--payload \(error)")
            }
        }
        let store = try Self.directory(dataStore, option: "--data-store") ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("opensharing-data-store-\(UUID().uuidString)")
        let groups = try Self.directory(appGroup, option: "--app-group")
        let played = device.flatMap(DeviceClass.named)
        var limits = ExtensionLimits.defaults(forExtensionPoint: point, device: played)
        if let memoryLimit { limits.memory = memoryLimit.bytes }
        if let timeout { limits.request = .milliseconds(Int(timeout * 1000)) }
        let faults = fault.compactMap { try? Fault(parsing: $0) }
        var unused = HostFaults()
        for fault in faults { fault.apply(to: &limits, &unused) }
        RunCommand.killHost(for: faults)
        let host = ExtensionHost(limits: limits, device: played, appGroupContainers: groups)
        let runs: NotificationRuns
        do {
            runs = try await host.deliver(pushes, to: extensionBundle, dataStore: store, allowsFiltering: allowFiltering)
        } catch {
            throw BadInput("\(error)")
        }
        let reports = runs.deliveries.map { Report($0, processes: runs.processes) }
        if json {
            try Output.json(reports)
        } else {
            for (number, report) in reports.enumerated() { report.print(number: number + 1, limit: limits.memory) }
            Output.line("attachments in: \(store.path)")
        }
        if runs.deliveries.contains(where: \.isFault) { throw ExitCode.failure }
    }

    /// The directory `path` names, made if missing; `nil` when none was given.
    static func directory(_ path: String?, option: String) throws -> URL? {
        guard let path else { return nil }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw BadInput("\(option) \(path): not a directory") }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw BadInput("\(option) \(path): cannot make the directory: \((error as NSError).localizedDescription)")
            }
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// One notification as printed, and as `--json` gives it (and the matrix reads it back).
    struct Report: Codable {
        struct Rejected: Codable {
            var identifier: String
            var code: Int
            var message: String
        }
        var payload: String
        var identifier: String
        /// `modified`, `original` or `suppressed`.
        var delivered: String
        var status: String?
        var reason: String?
        var expired: Bool
        var content: ShownContent
        var rejectedAttachments: [Rejected]
        var handlerCalls: Int
        var peakFootprint: Int
        /// The extension's last words, when it failed.
        var log: [String]?

        init(_ delivery: NotificationDelivery, processes: [ExtensionRun]) {
            payload = delivery.payload
            identifier = delivery.identifier
            delivered = delivery.shown.rawValue
            status = delivery.status?.rawValue
            reason = delivery.reason
            expired = delivery.expired
            content = delivery.content
            rejectedAttachments = delivery.rejectedAttachments.map { Rejected(identifier: $0.identifier, code: $0.code.rawValue, message: $0.message) }
            handlerCalls = delivery.handlerCalls
            peakFootprint = delivery.peakFootprint
            if delivery.isFault, let process = delivery.process { log = processes[process].lastWords() }
        }

        func print(number: Int, limit: Int) {
            let whose = switch delivered {
            case "modified": expired ? "the extension's, given from serviceExtensionTimeWillExpire()" : "the extension's"
            case "suppressed": "suppressed"
            default: "the original"
            }
            Output.line("notification \(number) (\(payload)): \(whose)\(status.map { ", \($0)" } ?? "")\(reason.map { ": \($0)" } ?? "")")
            if delivered != "suppressed" {
                for (label, value) in [("title", content.title), ("subtitle", content.subtitle), ("body", content.body)] where !value.isEmpty {
                    Output.line("  \(label): \(value)")
                }
                var details: [String] = []
                if let badge = content.badge { details.append("badge \(badge)") }
                if let sound = content.sound { details.append("sound \(sound)") }
                if !content.threadIdentifier.isEmpty { details.append("thread \(content.threadIdentifier)") }
                if !content.categoryIdentifier.isEmpty { details.append("category \(content.categoryIdentifier)") }
                details.append("interruption level \(content.interruptionLevel)")
                Output.line("  " + details.joined(separator: ", "))
                for attachment in content.attachments {
                    Output.line("  attachment \(attachment.identifier): \(attachment.type), \(ByteCount(bytes: attachment.size)), at \(attachment.url.path)")
                }
            }
            for rejected in rejectedAttachments {
                Output.line("  attachment \(rejected.identifier) dropped: UNErrorDomain \(rejected.code): \(rejected.message)")
            }
            if handlerCalls > 1 { Output.line("  the content handler was called \(handlerCalls) times; only the first counts") }
            if status != nil { Output.line("  peak memory: \(ByteCount(bytes: peakFootprint)) (limit \(ByteCount(bytes: limit)))") }
            if let log {
                Output.line(log.isEmpty ? "  its log: (empty)" : "  its log, last words:")
                for line in log { Output.line("    \(line)") }
            }
        }
    }
}
#endif
