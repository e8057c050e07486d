package import Foundation

/// A directory of its own under the system's temporary directory, removed with everything in it by `remove()`.
package struct TemporaryDirectory: Sendable {
    package let path: String

    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Creates a new, empty directory readable only by this user, in `parent` (the system's temporary
    /// directory by default).
    package init(in parent: String? = nil, prefix: String = "OpenSharing-") throws(FileSystemError) {
        path = try Syscall.makeUniqueDirectory(in: parent ?? NSTemporaryDirectory(), prefix: prefix)
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
