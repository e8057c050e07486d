import Foundation

/// Why the runtime could not run an extension at all: what went wrong (`code`, to decide by), with which bundle,
/// in words a person can act on, and the error underneath. Everything that happens once an extension runs is
/// in its outcome instead.
///
/// ```
/// /apps/Share.appex: CFBundleExecutable "Share" is not an executable file in the bundle
/// ```
public struct ExtensionRuntimeError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Equatable {
        /// No file or directory at the bundle's path.
        case noSuchBundle
        /// Something is there, but not a `Name.appex` directory.
        case notABundle
        /// The bundle has no Info.plist, or one that does not read.
        case unreadableInfoPlist
        /// The Info.plist lacks a key the runtime needs (`CFBundleIdentifier`, `CFBundleExecutable`,
        /// `NSExtension` with `NSExtensionPointIdentifier`).
        case missingKey
        /// `CFBundleExecutable` names no executable file in the bundle.
        case notExecutable
        /// The bundle's list of code left out of this build (`LeftOutCode.json`) does not read.
        case unreadableLeftOutList
        /// The bundle's entitlements (`archived-expanded-entitlements.xcent`) do not read, or name an app group no
        /// directory can be called.
        case unreadableEntitlements
        /// A directory of bundles cannot be listed.
        case unreadableDirectory
        /// The extension's container (or the app groups' directory) cannot be made.
        case containerFailed
        /// The cgroup the host was given cannot be used.
        case cgroupUnusable
        /// The process cannot be started.
        case spawnFailed
        /// The request's items do not fit in a message.
        case requestTooLarge
    }

    public var code: Code
    /// The bundle (or directory) it concerns.
    public var bundle: String
    /// What is wrong, in words.
    public var message: String
    /// The error underneath, when there is one (a `SystemError`, a manifest's error).
    public var underlying: (any Error & Sendable)?

    public init(_ code: Code, bundle: String, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.bundle = bundle
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        "\(bundle): \(message)" + (underlying.map { ": \($0)" } ?? "")
    }
}
