import Foundation

/// What an extension set in `UserDefaults`, written to disk before its process ends.
///
/// On iOS each change goes to the preferences daemon as it is made, so it outlives the extension's process; Foundation
/// on Linux keeps changes in memory until `synchronize()`, which extensions written for iOS do not call. So the
/// runtime synchronises, before it tells the host a request ended and before the process exits, the standard
/// defaults and those of each app group whose container exists (`OPENSHARING_APP_GROUP_CONTAINERS`, one directory
/// per group). A group's defaults whose container the extension never asked for are not found: Foundation names no
/// suites it holds.
enum KeptPreferences {
    static func write() {
        UserDefaults.standard.synchronize()
        guard let root = ProcessInfo.processInfo.environment["OPENSHARING_APP_GROUP_CONTAINERS"], !root.isEmpty,
              let groups = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
        for group in groups.prefix(64) where !group.hasPrefix(".") {
            UserDefaults(suiteName: group)?.synchronize()
        }
    }
}
