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

    /// The process numbered `pid` now, if it is running.
    package init?(running pid: Int32) {
        guard let startTime = Self.startTime(of: pid) else { return nil }
        self.init(pid: pid, startTime: startTime)
    }

    /// Its start time, from /proc/PID/stat; `nil` when it is gone or a zombie (nothing left to end).
    static func startTime(of pid: Int32) -> UInt64? {
        // Field 3 is the state, field 22 the start time.
        guard let fields = statFields(of: pid), fields.count > 19, fields[0] != "Z" else { return nil }
        return UInt64(fields[19])
    }

    /// The fields of /proc/PID/stat after the command's closing parenthesis (the last in the line: a command may
    /// hold one): the state first, field 3 of the kernel's numbering.
    private static func statFields(of pid: Int32) -> [Substring]? {
        guard let data = try? OpenFile.reading(URL(fileURLWithPath: "/proc/\(pid)/stat"), regularOnly: false).readAll(limit: 1 << 16) else { return nil }
        let stat = String(decoding: data, as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// Every living process whose ancestry leads to `root`.
    package static func descendants(of root: Int32) -> Set<ProcessIdentity> {
        Set(Processes.descendants(of: root).compactMap { pid in startTime(of: pid).map { ProcessIdentity(pid: pid, startTime: $0) } })
    }

    /// Those of `watched` that outlived whatever should have ended them: still running, and not dying, once
    /// every one of them that was dying has ended. A process the kernel is ending (SIGKILL pending, or its exit
    /// begun) is waited for, as its end may bring others' (a PID namespace's init takes its namespace with it;
    /// a parent-death signal is sent as the parent ends), however long a busy machine keeps it from a core: the
    /// answer depends on what the processes are doing, never on how fast the machine lets them do it. Each is
    /// held by a process descriptor, which becomes readable when it ends: the wait is the kernel's, not a poll of
    /// /proc. `patience` bounds the wait for one that stays dying (stuck in the kernel): it is then a survivor.
    package static func survivors(of watched: Set<ProcessIdentity>, patience: Duration = .seconds(60)) -> [ProcessIdentity] {
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
        let deadline = ContinuousClock.now + patience
        var running = held
        while ContinuousClock.now < deadline {
            // A process that has ended but is not yet reaped is a zombie, ended all the same.
            running.removeAll { !$0.identity.isAlive }
            let dying = running.filter { $0.identity.isDying }
            if dying.isEmpty { break }
            let ended = (try? Poll.readable(dying.map(\.descriptor), timeout: deadline - ContinuousClock.now, name: "the processes watched")) ?? []
            if ended.isEmpty { break }
        }
        return running.map(\.identity).filter { $0.isAlive && !$0.isDying }.sorted { $0.pid < $1.pid }
    }

    /// The kernel is ending it: SIGKILL is pending for it (its own, or its thread group's), or its exit has begun.
    var isDying: Bool {
        guard let data = try? OpenFile.reading(URL(fileURLWithPath: "/proc/\(pid)/status"), regularOnly: false).readAll(limit: 1 << 16) else { return false }
        let kill = UInt64(1) << UInt64(SIGKILL - 1)
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let field = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard field.count == 2 else { continue }
            if field[0] == "SigPnd" || field[0] == "ShdPnd", let mask = UInt64(field[1], radix: 16), mask & kill != 0 { return true }
        }
        // PF_EXITING in the flags, field 9 of /proc/PID/stat.
        guard let fields = Self.statFields(of: pid), fields.count > 6 else { return false }
        return (UInt64(fields[6]) ?? 0) & 0x4 != 0
    }

    /// The same process is still running (not a zombie).
    package var isAlive: Bool { Self.startTime(of: pid) == startTime }

    /// Kills it, through a process descriptor, if that holds this process still.
    package func kill() {
        Processes.terminate(pid) { Self.startTime(of: $0) == startTime }
    }
}
#endif
