#if os(Linux)
import Glibc
import CSharingSystem
import Foundation

/// A process as /proc shows it, told apart from a later one with its number by its start time: how a process
/// another one started is watched, and found when it outlived it.
package struct ProcessIdentity: Hashable, Sendable {
    package var pid: Int32
    package var startTime: UInt64

    package init(pid: Int32, startTime: UInt64) {
        self.pid = pid
        self.startTime = startTime
    }

    /// Its start time, from /proc/PID/stat; `nil` when it is gone or a zombie (nothing left to end).
    static func startTime(of pid: Int32) -> UInt64? {
        guard let data = try? OpenFile.reading(URL(fileURLWithPath: "/proc/\(pid)/stat"), regularOnly: false).readAll(limit: 1 << 16) else { return nil }
        let stat = String(decoding: data, as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's closing parenthesis: state, parent, …; the start time is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z" else { return nil }
        return UInt64(fields[19])
    }

    /// Every living process whose ancestry leads to `root`.
    package static func descendants(of root: Int32) -> Set<ProcessIdentity> {
        Set(Processes.descendants(of: root).compactMap { pid in startTime(of: pid).map { ProcessIdentity(pid: pid, startTime: $0) } })
    }

    /// Those of `watched` still running once `time` has passed, or sooner when none is: what outlived whatever
    /// should have ended them. Each is held by a process descriptor, which becomes readable when it ends: the
    /// wait is the kernel's, not a poll of /proc.
    package static func survivors(of watched: Set<ProcessIdentity>, within time: Duration) -> [ProcessIdentity] {
        var held: [(identity: ProcessIdentity, descriptor: CInt)] = []
        defer { for entry in held { Syscall.closeDescriptor(entry.descriptor) } }
        for identity in watched {
            let descriptor = csharing_pidfd_open(identity.pid)
            guard descriptor >= 0 else { continue }
            // Held now: the number still names the process watched, or it ended and the number was reused.
            guard identity.isAlive else {
                Syscall.closeDescriptor(descriptor)
                continue
            }
            held.append((identity, descriptor))
        }
        let deadline = ContinuousClock.now + time
        var running = held
        while !running.isEmpty, ContinuousClock.now < deadline {
            let ended = Set((try? Poll.readable(running.map(\.descriptor), timeout: deadline - ContinuousClock.now, name: "the processes watched")) ?? [])
            running.removeAll { ended.contains($0.descriptor) }
            if ended.isEmpty { break }
        }
        // A process that has ended but is not yet reaped is a zombie, ended all the same.
        return running.map(\.identity).filter(\.isAlive).sorted { $0.pid < $1.pid }
    }

    /// The same process is still running (not a zombie).
    package var isAlive: Bool { Self.startTime(of: pid) == startTime }

    /// Kills it, through a process descriptor, if that holds this process still.
    package func kill() {
        Processes.terminate(pid) { Self.startTime(of: $0) == startTime }
    }
}
#endif
