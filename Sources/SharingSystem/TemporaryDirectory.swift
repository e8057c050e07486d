package import Foundation

/// A directory of its own, removed with everything in it by `remove()`.
package struct TemporaryDirectory: Sendable {
    package let url: URL

    /// Creates a new, empty directory readable only by this user, in `parent` (the system's temporary
    /// directory by default).
    package init(in parent: URL? = nil, prefix: String = "OpenSharing-") throws(SystemError) {
        url = try FileSystem.createUniqueDirectory(in: parent ?? FileSystem.temporaryDirectory, prefix: prefix)
    }

    package func remove() {
        try? FileSystem.removeTree(url)
    }
}
