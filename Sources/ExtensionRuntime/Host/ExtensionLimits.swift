import ExtensionManifest

/// The limits an extension runs under.
public struct ExtensionLimits: Sendable, Equatable {
    /// The most memory the extension may use, in bytes: the footprint of its whole process tree (private dirty
    /// memory plus swap, and the memory files it holds without mapping them).
    public var memory: Int
    /// The most its container may hold, in bytes (what it writes there, and the streams the host drains into
    /// it); also the largest file it may write anywhere.
    public var disk: Int
    /// From launch until the extension is ready for the request.
    public var startup: Duration
    /// From the request until the extension completes or cancels it.
    public var request: Duration
    /// How long the process may keep running after it ended the request.
    public var afterCompletion: Duration
    /// Between the warning that a time budget ran out and the kill.
    public var grace: Duration

    /// The disk budget when none is given: 4 GiB, room for a large share's files.
    public static let defaultDisk = 4 << 30

    public init(memory: Int, disk: Int = ExtensionLimits.defaultDisk, startup: Duration = .seconds(10), request: Duration = .seconds(60),
                afterCompletion: Duration = .seconds(5), grace: Duration = .seconds(1)) {
        self.memory = memory
        self.disk = disk
        self.startup = startup
        self.request = request
        self.afterCompletion = afterCompletion
        self.grace = grace
    }

    /// The limits of an extension point, as Apple's devices apply them: the memory limit `device` is reported to
    /// give the point, else the one developers report for the point (120 MB for share and action extensions,
    /// 24 MB for notification service extensions), 120 MB where none is reported; and the request's time, 30
    /// seconds for a notification ("only about 30 seconds", Apple's "Modifying content in newly delivered
    /// notifications"), else 60. An explicit limit set on the result afterwards wins: one rule everywhere.
    public static func defaults(forExtensionPoint identifier: String, device: DeviceClass? = nil) -> ExtensionLimits {
        let megabytes = ExtensionPoint.named(identifier)?.reportedMemoryLimit?.megabytes ?? 120
        return ExtensionLimits(memory: device?.memoryLimit(forExtensionPoint: identifier) ?? megabytes << 20,
                               request: identifier == DeviceClass.notificationService ? .seconds(30) : .seconds(60))
    }
}
