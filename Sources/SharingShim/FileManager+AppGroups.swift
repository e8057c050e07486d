#if !canImport(Darwin)
public import Foundation

extension FileManager {
    /// The container directory an app shares with its extensions in the app group `groupIdentifier`,
    /// created if need be; `nil` when the process was given no app groups, or the identifier cannot name a
    /// directory.
    ///
    /// Stands in for Foundation's `containerURL(forSecurityApplicationGroupIdentifier:)`. There are no
    /// entitlements here: the host assigns the directory that holds the containers, one subdirectory per
    /// group, in the environment variable `OPENSHARING_APP_GROUP_CONTAINERS`.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        guard let root = ProcessInfo.processInfo.environment["OPENSHARING_APP_GROUP_CONTAINERS"], !root.isEmpty,
              !groupIdentifier.isEmpty, groupIdentifier != ".", groupIdentifier != "..",
              !groupIdentifier.contains("/"), !groupIdentifier.contains("\0")
        else { return nil }
        let container = URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent(groupIdentifier, isDirectory: true)
        guard (try? createDirectory(at: container, withIntermediateDirectories: true)) != nil else { return nil }
        return container
    }
}
#endif
