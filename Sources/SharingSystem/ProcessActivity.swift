#if os(Linux)
import CSharingSystem
import Glibc

/// What this process's threads and sockets are doing, as the kernel says (`/proc/self`): an extension's
/// scripted user acts, and its process ends after its request, only once it is quiet. Read from the process's
/// own state, never from a clock: a busy machine keeps a thread waiting for a core, which is still at work.
package enum ProcessActivity {
    /// The threads of this process, other than the calling one, that are at work: running or waiting for a core
    /// (`R`), in the disk's wait (`D`), stopped (`T`, `t`: a debugger), or held in a call the host answers
    /// before it is made (a connect, a send that may carry a DNS query or open a connection).
    package static func busyThreads() -> Int {
        let caller = currentThread
        guard let tasks = opendir("/proc/self/task") else { return 0 }
        defer { closedir(tasks) }
        var busy = 0
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let thread = Int32(name), thread != caller else { continue }
            if isBusy(thread) { busy += 1 }
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

    /// Whether thread `thread` of this process is at work, as `busyThreads()` counts it.
    package static func isBusy(_ thread: Int32) -> Bool {
        guard let stat = read("/proc/self/task/\(thread)/stat"),
              let close = stat.lastIndex(of: UInt8(ascii: ")")), stat.index(close, offsetBy: 2) < stat.endIndex else { return false }
        switch stat[stat.index(close, offsetBy: 2)] {
        case UInt8(ascii: "R"), UInt8(ascii: "D"), UInt8(ascii: "T"), UInt8(ascii: "t"):
            return true
        default:
            // Asleep, unless in a call the host holds: "NUMBER ARGUMENTS…" while in a call, "running" otherwise.
            guard let call = read("/proc/self/task/\(thread)/syscall") else { return false }
            let number = Int(String(decoding: call.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }, as: UTF8.self))
            return number.map { csharing_is_held_call($0) != 0 } ?? false
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
