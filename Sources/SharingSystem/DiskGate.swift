#if os(Linux)
import Glibc
import CSharingSystem
package import Foundation

/// A gate on the places an extension writes: each access of a file's content beneath them (a read or a write,
/// the kernel does not say which) waits until this process answers, so that a disk budget is kept before the
/// bytes land, however long a busy machine keeps this process from a core — the writer waits as long. Built on
/// fanotify's pre-content events (kernel 6.14 and later); the extension's init binds the places onto themselves
/// in its mount namespace and marks those mounts (`ProcessTree.Specification.diskGate`), so nothing this
/// process or another writes elsewhere waits on it. When the gate closes, the kernel lets every held access go.
package final class DiskGate: Sendable {
    /// One access held until `answer(_:allow:)`: whoever reads an access must answer it, or its process waits
    /// until the gate closes.
    package struct Access: Sendable {
        /// A descriptor of the file, the gate's, closed by the answer.
        let file: CInt
        /// The thread that made the access, as this process's namespace numbers it.
        package let process: Int32
        package let offset: UInt64
        package let count: UInt64
        /// Whether it may write: the thread that made it holds the file open for writing, or holds it in no
        /// descriptor the host can find (a mapping), which is taken as writing.
        package let mayWrite: Bool
        /// The bytes of storage the access may take, were it a write: the whole length where it appends or where
        /// its descriptor cannot be found, else the bytes of its range the file has not allocated (holes and
        /// what lies past the end) — judged by allocation, not by size, so a file made long with ftruncate and
        /// then filled, or allocated with fallocate, is counted as it takes the disk.
        package let growth: Int
    }

    package let descriptor: CInt

    /// A gate, where the kernel has pre-content events.
    ///
    /// - Throws: `SystemError` where it has none or refuses one.
    package init() throws(SystemError) {
        descriptor = try Syscall.retrying(.create, "a disk gate") { csharing_disk_gate_create() }
    }

    deinit {
        Syscall.closeDescriptor(descriptor)
    }

    /// The accesses waiting now (one read's worth), each to be answered.
    package func waiting() -> [Access] {
        var events = [csharing_gate_event](repeating: csharing_gate_event(), count: 256)
        let count = csharing_disk_gate_read(descriptor, &events, CInt(events.count))
        guard count > 0 else { return [] }
        return events.prefix(Int(count)).map { event in
            let opened = Self.openings(by: event.pid, of: event.file)
            let mayWrite = opened.map { $0.contains { $0 & Int(O_ACCMODE) != Int(O_RDONLY) } } ?? true
            let growth: UInt64
            if !mayWrite {
                growth = 0
            } else if opened == nil || opened!.contains(where: { $0 & Int(O_APPEND) != 0 }) {
                // Where it lands is the file's end, not the offset the event says, or nothing says where.
                growth = event.count
            } else {
                growth = Self.unallocated(event.file, from: event.offset, count: event.count)
            }
            return Access(file: event.file, process: event.pid, offset: event.offset, count: event.count, mayWrite: mayWrite,
                          growth: Int(clamping: growth))
        }
    }

    /// Lets `access` go on, or makes it fail with ENOSPC, as a full disk fails a write.
    package func answer(_ access: Access, allow: Bool) {
        _ = csharing_disk_gate_answer(descriptor, access.file, allow ? 1 : 0)
    }

    /// The open flags of each descriptor thread `thread` holds on the file `file` is open on, from its own
    /// descriptor table (/proc/TID/fd: a thread that unshared its table has its own); `nil` when none is found.
    private static func openings(by thread: Int32, of file: CInt) -> [Int]? {
        var status = stat()
        guard fstat(file, &status) == 0, let names = try? FileSystem.contentsOfDirectory(URL(fileURLWithPath: "/proc/\(thread)/fd")) else { return nil }
        var flags: [Int] = []
        for name in names {
            var open = stat()
            guard stat("/proc/\(thread)/fd/\(name)", &open) == 0, open.st_dev == status.st_dev, open.st_ino == status.st_ino else { continue }
            guard let info = try? OpenFile.reading(URL(fileURLWithPath: "/proc/\(thread)/fdinfo/\(name)"), regularOnly: false).readAll(limit: 1 << 12),
                  let line = String(decoding: info, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
                  let value = Int(line.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) else { return nil }
            flags.append(value)
        }
        return flags.isEmpty ? nil : flags
    }

    /// The bytes of `count` from `offset` that `file` has not allocated: its holes there (SEEK_DATA, SEEK_HOLE),
    /// and whatever lies past its end.
    private static func unallocated(_ file: CInt, from offset: UInt64, count: UInt64) -> UInt64 {
        var status = stat()
        guard fstat(file, &status) == 0 else { return count }
        let size = UInt64(max(0, status.st_size))
        let end = offset &+ count
        var allocated: UInt64 = 0
        var at = offset
        while at < min(end, size) {
            let data = lseek(file, off_t(clamping: at), Self.SEEK_DATA)
            guard data >= 0, UInt64(data) < min(end, size) else { break }
            let hole = lseek(file, data, Self.SEEK_HOLE)
            guard hole > data else { break }
            allocated += min(UInt64(hole), min(end, size)) - UInt64(data)
            at = UInt64(hole)
        }
        return count - min(count, allocated)
    }

    /// lseek(2)'s whences for data and holes (Linux 3.1 and later; glibc names them only with _GNU_SOURCE).
    private static let SEEK_DATA: Int32 = 3
    private static let SEEK_HOLE: Int32 = 4
}
#endif
