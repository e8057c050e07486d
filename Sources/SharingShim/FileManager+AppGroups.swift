#if !canImport(Darwin)
public import Foundation

extension FileManager {
    /// The container directory an app shares with its extensions in the app group `groupIdentifier`,
    /// created if need be; `nil`, as on a device, for a group the extension's entitlements do not list.
    ///
    /// Stands in for Foundation's `containerURL(forSecurityApplicationGroupIdentifier:)`. The host assigns the
    /// directory that holds the containers, one subdirectory per group (`OPENSHARING_APP_GROUP_CONTAINERS`), and
    /// the groups the bundle's entitlements list (`com.apple.security.application-groups`, passed in
    /// `OPENSHARING_APP_GROUPS`, separated by `/`). A group they do not list gives `nil`, and says so on
    /// standard error, once: the share an extension would write there is lost on a phone. A process the host did
    /// not start (no `OPENSHARING_APP_GROUPS`: a test calling this in its own process) has no entitlements to
    /// judge by, and gets any group's container.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        let environment = ProcessInfo.processInfo.environment
        guard let root = environment["OPENSHARING_APP_GROUP_CONTAINERS"], !root.isEmpty,
              !groupIdentifier.isEmpty, groupIdentifier != ".", groupIdentifier != "..",
              !groupIdentifier.contains("/"), !groupIdentifier.contains("\0")
        else { return nil }
        if let entitled = environment["OPENSHARING_APP_GROUPS"] {
            let groups = entitled.split(separator: "/").map(String.init)
            guard groups.contains(groupIdentifier) else {
                AppGroupRefusals.report(groupIdentifier, entitled: groups)
                return nil
            }
        }
        let container = URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent(groupIdentifier, isDirectory: true)
        guard (try? createDirectory(at: container, withIntermediateDirectories: true)) != nil else { return nil }
        return container
    }
}

/// The groups asked for that the entitlements do not list, each said once on standard error.
private enum AppGroupRefusals {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var said: Set<String> = []

    static func report(_ group: String, entitled: [String]) {
        let first = lock.withLock { said.count < 64 && said.insert(group).inserted }
        guard first else { return }
        let listed = entitled.isEmpty ? "lists no app groups" : "lists " + entitled.map { "\"\($0)\"" }.joined(separator: ", ")
        let line = "containerURL(forSecurityApplicationGroupIdentifier: \"\(group)\") is nil, as on a device: the extension's "
            + "entitlements (com.apple.security.application-groups) \(listed); add the group to the extension target's "
            + ".entitlements, or correct the identifier\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
#endif
