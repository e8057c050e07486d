import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A process as /proc shows it, told apart from a later one with its number by its start time: how the matrix
/// watches what a host started, and finds what outlived it.
public struct ProcessIdentity: Hashable, Sendable {
    public var pid: Int32
    public var startTime: UInt64

    /// Its parent and start time, from /proc/PID/stat; `nil` when it is gone or a zombie (nothing left to end).
    static func read(_ pid: pid_t) -> (parent: pid_t, startTime: UInt64)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's closing parenthesis: state, parent, …; the start time is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z", let parent = pid_t(fields[1]), let start = UInt64(fields[19]) else { return nil }
        return (parent, start)
    }

    /// Every living process whose ancestry leads to `root`.
    public static func descendants(of root: Int32) -> Set<ProcessIdentity> {
        var parents: [pid_t: [ProcessIdentity]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(name), let (parent, start) = read(pid) else { continue }
            parents[parent, default: []].append(ProcessIdentity(pid: pid, startTime: start))
        }
        var found: Set<ProcessIdentity> = [], frontier = [root]
        while let parent = frontier.popLast() {
            for child in parents[parent] ?? [] where found.insert(child).inserted { frontier.append(child.pid) }
        }
        return found
    }

    /// Those of `watched` still alive once `time` has passed, or sooner when none is: what outlived its host.
    public static func survivors(of watched: Set<ProcessIdentity>, within time: Duration) -> [ProcessIdentity] {
        let deadline = ContinuousClock.now + time
        var alive = watched.filter(\.isAlive)
        while !alive.isEmpty && ContinuousClock.now < deadline {
            usleep(20_000)
            alive = alive.filter(\.isAlive)
        }
        return alive.sorted { $0.pid < $1.pid }
    }

    /// The same process is still running (not a zombie).
    public var isAlive: Bool { Self.read(pid)?.startTime == startTime }

    /// Kills it, if it is still this process.
    public func kill() {
        if isAlive { _ = Glibc.kill(pid, SIGKILL) }
    }
}
