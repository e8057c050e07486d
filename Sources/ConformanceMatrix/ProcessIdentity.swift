import Foundation
import SharingSystem
#if canImport(Glibc)
import Glibc
#endif

/// A process as /proc shows it, told apart from a later one with its number by its start time: how the matrix
/// watches what a host started, and finds what outlived it.
package struct ProcessIdentity: Hashable, Sendable {
    package var pid: Int32
    package var startTime: UInt64

    /// Its start time, from /proc/PID/stat; `nil` when it is gone or a zombie (nothing left to end).
    static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's closing parenthesis: state, parent, …; the start time is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z" else { return nil }
        return UInt64(fields[19])
    }

    /// Every living process whose ancestry leads to `root`.
    package static func descendants(of root: Int32) -> Set<ProcessIdentity> {
        Set(Processes.descendants(of: root).compactMap { pid in startTime(of: pid).map { ProcessIdentity(pid: pid, startTime: $0) } })
    }

    /// Those of `watched` still alive once `time` has passed, or sooner when none is: what outlived its host.
    package static func survivors(of watched: Set<ProcessIdentity>, within time: Duration) -> [ProcessIdentity] {
        let deadline = ContinuousClock.now + time
        var alive = watched.filter(\.isAlive)
        while !alive.isEmpty && ContinuousClock.now < deadline {
            usleep(20_000)
            alive = alive.filter(\.isAlive)
        }
        return alive.sorted { $0.pid < $1.pid }
    }

    /// The same process is still running (not a zombie).
    package var isAlive: Bool { Self.startTime(of: pid) == startTime }

    /// Kills it, through a process descriptor, if that holds this process still.
    package func kill() {
        Processes.terminate(pid) { Self.startTime(of: $0) == startTime }
    }
}
