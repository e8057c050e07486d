/// What `ExtensionHost.deliver` did: each payload's notification, in order, and the processes that served them.
public struct NotificationRuns: Sendable {
    public var deliveries: [NotificationDelivery]
    /// Each process started, in order: its log, its end, its peak.
    public var processes: [ExtensionRun]
}
