/// What held the extension, as the kernel allowed it.
public struct ExtensionSandbox: Sendable, Equatable, CustomStringConvertible {
    /// Whether the process tree had a PID namespace of its own (else its init was a subreaper: descendants are
    /// found and killed, but one that outlives a killed host may escape).
    public var pidNamespace: Bool
    /// The kernel's Landlock ABI: 0 none; from 1 the extension writes only in its container and app groups and
    /// executes only its bundle's and the system's programs; from 6 it signals and reaches abstract sockets only
    /// among its own processes.
    public var landlock: Int
    /// Whether the kernel held each access of a file's content where the extension writes until the host let it
    /// go (fanotify's pre-content events, kernel 6.14 and later), so that the disk budget is kept before a byte
    /// lands; else the budget is measured after the writes.
    public var diskGate: Bool
    /// Whether the host saw each connection the extension opened before it was made (seccomp's user
    /// notifications): what it sent over the network counts as kept, and a connection opened after the request
    /// ended is work lost. Else neither is found.
    public var connectionsSeen: Bool

    public init(pidNamespace: Bool, landlock: Int, diskGate: Bool, connectionsSeen: Bool) {
        self.pidNamespace = pidNamespace
        self.landlock = landlock
        self.diskGate = diskGate
        self.connectionsSeen = connectionsSeen
    }

    public var description: String {
        var parts = [pidNamespace ? "a PID namespace of its own" : "a subreaper (no PID namespace allowed)"]
        if landlock >= 1 {
            parts.append("Landlock ABI \(landlock): writes in its container and app groups only"
                         + (landlock >= 6 ? ", signals and abstract sockets among its own processes only" : ""))
        } else {
            parts.append("no Landlock (the kernel has none)")
        }
        parts.append(diskGate ? "writes held to the disk budget by the kernel before they land"
                     : "the disk budget measured after the writes (the kernel has no pre-content events)")
        parts.append(connectionsSeen ? "each connection seen by the host before it is made"
                     : "connections unseen (the kernel has no seccomp user notifications)")
        parts.append("no capabilities")
        return parts.joined(separator: "; ")
    }
}
