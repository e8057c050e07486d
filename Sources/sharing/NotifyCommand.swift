#if canImport(ExtensionRuntime)
import ArgumentParser
import ConformanceMatrix
import ExtensionRuntime
import Foundation
import PackageSupport

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

    @Option(help: ArgumentHelp("The device to play (default iphone-13; none for the point's own limits; sharing run --list-devices).", valueName: "name|none"))
    var device: String?

    @Option(name: .customLong("app-group"), help: ArgumentHelp("The directory of app group containers the extension is given (made if missing).", valueName: "directory"))
    var appGroup: String?

    @Option(help: ArgumentHelp("A fault to inject: memory-limit(mb=24), time-limit(s=5), host-killed(after=500ms) (a notification service loads nothing from its host, so the load faults do not apply). Repeatable.", valueName: "spec"))
    var fault: [String] = []

    @Flag(help: "Print JSON: the cell run, and an object per payload.")
    var json = false

    func validate() throws {
        _ = try cell()
    }

    /// The cell the options name, checked.
    func cell() throws(ValidationError) -> MatrixCell {
        if payloads.isEmpty { throw ValidationError("Give at least one --payload FILE.") }
        var faults: [Fault] = []
        for spec in fault {
            let parsed: Fault
            do { parsed = try Fault(parsing: spec) } catch { throw ValidationError("--fault: \(error)") }
            guard parsed.appliesToNotifications else {
                throw ValidationError("--fault \(spec): a fault of a share's loads; a notification service loads nothing from its host.")
            }
            faults.append(parsed)
        }
        let cell = MatrixCell(bundle: bundle, payloads: payloads, dataStore: dataStore, allowsFiltering: allowFiltering,
                              device: try DeviceOption.device(device), faults: faults, memoryLimit: memoryLimit?.bytes, timeout: timeout,
                              appGroup: appGroup)
        do {
            try cell.validate()
        } catch {
            throw ValidationError(RunCommand.message(for: error) + ".")
        }
        return cell
    }

    func run() async throws {
        let cell = try cell()
        HostKill.arrange(for: cell)
        let report: NotificationRunReport
        do {
            report = try await cell.runNotifications()
        } catch {
            throw BadInput(RunCommand.message(for: error))
        }
        if json {
            try Output.json(report)
        } else {
            Output.line("device: \(report.cell.device.map(\.played) ?? "none (the point's own limits)")")
            for (number, notification) in report.notifications.enumerated() { notification.print(number: number + 1, limit: report.memoryLimit) }
            Output.line("attachments in: \(report.dataStore)")
        }
        if report.hasFault { throw ExitCode.failure }
    }
}

extension NotificationReport {
    /// The notification for a person: every text from the payload or the extension escaped for the terminal.
    func print(number: Int, limit: Int) {
        let shown = { (text: String) in Escaped.terminal(text) }
        let whose = switch delivered {
        case .modified: expired ? "the extension's, given from serviceExtensionTimeWillExpire()" : "the extension's"
        case .suppressed: "suppressed"
        case .original: "the original"
        }
        Output.line("notification \(number) (\(shown(payload))): \(whose)\(status.map { ", \($0.rawValue)" } ?? "")\(reason.map { ": \(shown($0))" } ?? "")")
        if delivered != .suppressed {
            for (label, value) in [("title", content.title), ("subtitle", content.subtitle), ("body", content.body)] where !value.isEmpty {
                Output.line("  \(label): \(shown(value))")
            }
            var details: [String] = []
            if let badge = content.badge { details.append("badge \(badge)") }
            if let sound = content.sound { details.append("sound \(shown(sound))") }
            if !content.threadIdentifier.isEmpty { details.append("thread \(shown(content.threadIdentifier))") }
            if !content.categoryIdentifier.isEmpty { details.append("category \(shown(content.categoryIdentifier))") }
            details.append("interruption level \(content.interruptionLevel)")
            Output.line("  " + details.joined(separator: ", "))
            if let message = content.communication {
                var from = "  from \(shown(message.sender))" + (message.senderHandle.map { " (\(shown($0)))" } ?? "")
                from += message.avatar.map { ", avatar: \(shown($0))" } ?? ", no avatar"
                if let group = message.group { from += ", in \(shown(group))" + (message.groupImage.map { " (\(shown($0)))" } ?? "") }
                if let conversation = message.conversationIdentifier { from += ", conversation \(shown(conversation))" }
                Output.line(from)
            }
            for attachment in content.attachments {
                Output.line("  attachment \(shown(attachment.identifier)): \(shown(attachment.type)), \(ByteCount(bytes: attachment.size)), at \(shown(attachment.url.path))")
            }
        }
        for rejected in rejectedAttachments {
            Output.line("  attachment \(shown(rejected.identifier)) dropped: UNErrorDomain \(rejected.code): \(shown(rejected.message))")
        }
        for name in posted { Output.line("  posted \(shown(name))") }
        for interaction in donated { Output.line("  donated \(shown(interaction))") }
        for name in lookups { Output.line("  looked up \(shown(name)): refused (an extension's network here is this machine's loopback)") }
        for address in connections { Output.line("  connected \(shown(address))") }
        for transfer in backgroundTransfers { Output.line("  background transfer: \(shown(transfer.summary))") }
        for finding in findings { Output.line("  finding: \(shown(finding.description))") }
        if status != nil { Output.line("  peak memory: \(ByteCount(bytes: peakFootprint)) (limit \(ByteCount(bytes: limit)))") }
        if let log {
            Output.line(log.isEmpty ? "  its log: (empty)" : "  its log, last words:")
            for line in log { Output.line("    \(shown(line))") }
        }
    }
}
#endif
