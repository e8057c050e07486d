import Foundation

/// How one notification was shown, as iOS would show it after its notification service extension.
public struct NotificationDelivery: Sendable {
    /// Whose content was shown.
    public enum Shown: String, Sendable, Codable {
        /// The extension's content (from `didReceive`, or from `serviceExtensionTimeWillExpire()`).
        case modified
        /// The payload's content as it is: the extension was not asked, or it failed.
        case original
        /// Nothing: the extension passed content with nothing to show, and has the filtering entitlement.
        case suppressed
    }

    /// The payload's name (its file).
    public var payload: String
    /// The request's identifier.
    public var identifier: String
    public var shown: Shown
    /// How the extension's part ended, in the runtime's vocabulary (`completed` when its handler was called);
    /// `nil` when the payload did not ask for the extension.
    public var status: ExtensionStatus?
    /// Why the content is not the extension's, or why nothing was shown.
    public var reason: String?
    /// The content came from `serviceExtensionTimeWillExpire()`: the handler's first call came after the time ran out.
    public var expired = false
    /// What is shown (for a suppressed notification, the content the extension passed).
    public var content: ShownContent
    /// The attachments the system dropped, each with its `UNError` code.
    public var rejectedAttachments: [RejectedAttachment] = []
    /// How many times the extension called its content handler for this notification (only the first counts).
    public var handlerCalls = 0
    /// The extension's peak footprint while it handled this notification, in bytes.
    public var peakFootprint = 0
    /// The run's process that served it (an index into `NotificationRuns.processes`), if one did.
    public var process: Int?

    /// The extension was asked and its content is not what is shown: it was killed, crashed, ran out of time
    /// without calling its handler, or passed content that cannot be shown.
    public var isFault: Bool { status != nil && shown == .original }
}
