#if os(Linux)
import CSharingSystem
import Glibc

/// What this process's threads and sockets are doing, as the kernel says (`/proc/self`): an extension's
/// scripted user acts, and its process ends after its request, only once it is quiet. Read from the process's
/// own state, never from a clock: a busy machine keeps a thread waiting for a core, which is still at work.
package enum ProcessActivity {
    /// How a thread is at work.
    package enum Work: Sendable, Equatable {
        /// Running or waiting for a core (`R`).
        case running
        /// In the disk's wait (`D`), stopped (`T`, `t`: a debugger), or held in a call the host answers before it
        /// is made (a connect, a send that may carry a DNS query or open a connection).
        case waiting
    }

    /// The threads of this process, other than the calling one, that are at work, and how.
    package static func busyThreads() -> [Int32: Work] {
        let caller = currentThread
        guard let tasks = opendir("/proc/self/task") else { return [:] }
        defer { closedir(tasks) }
        var busy: [Int32: Work] = [:]
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let thread = Int32(name), thread != caller else { continue }
            busy[thread] = work(of: thread)
        }
        return busy
    }

    /// Whether this process holds a network stream socket (TCP over IPv4 or IPv6) that is not listening: a
    /// request may be on its way, or an answer.
    package static func holdsNetworkStream() -> Bool {
        guard let descriptors = opendir("/proc/self/fd") else { return false }
        defer { closedir(descriptors) }
        let own = dirfd(descriptors)
        while let entry = readdir(descriptors) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let descriptor = CInt(name), descriptor != own else { continue }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { continue }
            if option(descriptor, SO_DOMAIN).map({ $0 == AF_INET || $0 == AF_INET6 }) == true,
               option(descriptor, SO_TYPE) == CInt(SOCK_STREAM.rawValue), option(descriptor, SO_ACCEPTCONN) == 0 {
                return true
            }
        }
        return false
    }

    /// The calling thread's identifier, as /proc/self/task names it.
    package static var currentThread: Int32 { csharing_thread_id() }

    /// How long thread `thread` of this process has been on a core, in nanoseconds, or `nil` when the kernel does not
    /// say (or the thread has ended). Read from the thread's CPU clock (its kernel thread identifier as a clock,
    /// as `pthread_getcpuclockid` makes it), which counts a running thread's time up to now; `schedstat`'s figure
    /// moves only at the scheduler's ticks, a few milliseconds at a time.
    package static func timeOnCore(_ thread: Int32) -> UInt64? {
        var time = timespec()
        let clock = clockid_t(bitPattern: (~UInt32(bitPattern: thread)) << 3 | 6)
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// How thread `thread` of this process is at work, or `nil` when it is asleep (or has ended).
    package static func work(of thread: Int32) -> Work? {
        guard let stat = read("/proc/self/task/\(thread)/stat"),
              let close = stat.lastIndex(of: UInt8(ascii: ")")), stat.index(close, offsetBy: 2) < stat.endIndex else { return nil }
        switch stat[stat.index(close, offsetBy: 2)] {
        case UInt8(ascii: "R"):
            return .running
        case UInt8(ascii: "D"), UInt8(ascii: "T"), UInt8(ascii: "t"):
            return .waiting
        default:
            // Asleep, unless in a call the host holds: "NUMBER ARGUMENTS…" while in a call, "running" otherwise.
            guard let call = read("/proc/self/task/\(thread)/syscall") else { return nil }
            let number = Int(String(decoding: call.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }, as: UTF8.self))
            return number.map { csharing_is_held_call($0) != 0 } == true ? .waiting : nil
        }
    }

    /// A socket option's value, or `nil` when it cannot be read.
    private static func option(_ descriptor: CInt, _ name: CInt) -> CInt? {
        var value: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
    }

    /// The first 512 bytes of a small file of /proc, or `nil` when it cannot be read (a thread that has ended).
    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Syscall.closeDescriptor(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? Array(bytes.prefix(count)) : nil
    }
}
#endif
