public import ExtensionRuntime
import Foundation
import OpenUserNotifications

/// One notification as shown, and why.
public struct NotificationReport: Codable, Sendable {
    /// An attachment the system dropped, with its `UNError` code.
    public struct Rejected: Codable, Sendable, Equatable {
        public var identifier: String
        public var code: Int
        public var message: String
    }

    /// The payload's file.
    public var payload: String
    public var identifier: String
    /// Whose content is shown: the extension's, the original, or nothing.
    public var delivered: NotificationDelivery.Shown
    /// How the extension's part ended; `nil` when the payload did not ask for the extension.
    public var status: ExtensionStatus?
    public var reason: String?
    /// The content came from `serviceExtensionTimeWillExpire()`.
    public var expired: Bool
    public var content: ShownContent
    public var rejectedAttachments: [Rejected]
    /// How many times the extension called its content handler (only the first counts).
    public var handlerCalls: Int
    /// What the runtime found beside the status: the handler called again, the process's own findings.
    public var findings: [Finding]
    /// The names the notification's process posted to the Darwin notify center, in order.
    public var posted: [String]
    /// The interactions the notification's process donated, in order (`ExtensionRun.donated`).
    public var donated: [String]
    /// The network connections the notification's process opened, in order, each `host:port`.
    public var connections: [String]
    /// The host names the notification's process looked up, in order (`ExtensionRun.lookups`).
    public var lookups: [String]
    /// The uploads the notification's process handed to the host through background sessions, as they ended.
    public var backgroundTransfers: [RunReport.Transfer]
    public var peakFootprint: Int
    /// The extension's last words, when it failed.
    public var log: [String]?

    init(_ delivery: NotificationDelivery, processes: [ExtensionRun]) {
        payload = delivery.payload
        identifier = delivery.identifier
        delivered = delivery.shown
        status = delivery.status
        reason = delivery.reason
        expired = delivery.expired
        content = delivery.content
        rejectedAttachments = delivery.rejectedAttachments.map { Rejected(identifier: $0.identifier, code: $0.code.rawValue, message: $0.message) }
        handlerCalls = delivery.handlerCalls
        peakFootprint = delivery.peakFootprint
        let process = delivery.process.flatMap { processes.indices.contains($0) ? processes[$0] : nil }
        findings = process?.findings ?? []
        posted = process?.posted ?? []
        donated = process?.donated ?? []
        connections = process?.connections ?? []
        lookups = process?.lookups ?? []
        backgroundTransfers = process?.backgroundTransfers.map(RunReport.Transfer.init) ?? []
        if handlerCalls > 1 {
            findings.insert(Finding(.handlerCalledTwice, "the content handler was called \(handlerCalls) times for this notification; iOS shows the "
                                    + "first content, and apps report crashes from calling it again"), at: 0)
        }
        if delivery.isFault, let process { log = process.lastWords() }
    }

    /// The extension was asked and its content is not what is shown.
    public var isFault: Bool { status != nil && delivered == .original }
}
