import ExtensionRuntime
import Foundation
import OpenUserNotifications

/// What a notification service's run came to, as `sharing notify --json` prints it and the conformance matrix
/// records it: the cell that was run, each payload's notification as shown, and where the attachments went.
public struct NotificationRunReport: Codable, Sendable {
    /// The cell that was run.
    public var cell: MatrixCell
    /// One per payload, in order.
    public var notifications: [NotificationReport]
    /// The directory attachments were moved into.
    public var dataStore: String
    /// The memory limit each notification was handled under, in bytes.
    public var memoryLimit: Int

    init(cell: MatrixCell, runs: NotificationRuns, dataStore: URL, limit: Int) {
        self.cell = cell
        notifications = runs.deliveries.map { NotificationReport($0, processes: runs.processes) }
        self.dataStore = dataStore.path
        memoryLimit = limit
    }

    /// A notification fell back to its original because the extension failed, or had a `fail` finding.
    public var hasFault: Bool { notifications.contains { $0.isFault || $0.findings.contains { $0.severity == .fail } } }
}
