#if !canImport(Darwin)
public import Foundation
import OpenItemProvider

extension ProcessInfo {
    /// Runs `block` on another thread with `false`, and keeps the process alive until it returns: in an
    /// extension, past the end of its request, until the time after completion runs out; then `block` is
    /// called again, on another thread, with `true`, and should stop its work quickly.
    ///
    /// Stands in for `ProcessInfo.performExpiringActivity(withReason:using:)`, which Foundation on Linux lacks.
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        let activity = ProcessActivities.begin { block(true) }
        Thread.detachNewThread {
            block(false)
            ProcessActivities.end(activity)
        }
    }
}
#endif
