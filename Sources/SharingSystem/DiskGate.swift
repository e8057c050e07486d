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
        /// The process that made the access, as this process's namespace numbers it.
        package let process: Int32
        package let offset: UInt64
        package let count: UInt64
        /// The bytes the access would add to the file, were it a write: those past the file's end now.
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
            var status = stat()
            let size = fstat(event.file, &status) == 0 ? UInt64(max(0, status.st_size)) : 0
            let end = event.offset &+ event.count
            let growth = end > size ? end - max(size, event.offset) : 0
            return Access(file: event.file, process: event.pid, offset: event.offset, count: event.count, growth: Int(clamping: growth))
        }
    }

    /// Lets `access` go on, or makes it fail with ENOSPC, as a full disk fails a write.
    package func answer(_ access: Access, allow: Bool) {
        _ = csharing_disk_gate_answer(descriptor, access.file, allow ? 1 : 0)
    }

    /// Whether the process that made `access` has the file open for writing: the kernel's event does not say
    /// whether it reads or writes, and a read past the end of a file adds nothing.
    package func isWrite(_ access: Access) -> Bool {
        var file = stat()
        guard fstat(access.file, &file) == 0,
              let names = try? FileSystem.contentsOfDirectory(URL(fileURLWithPath: "/proc/\(access.process)/fd")) else { return true }
        for name in names {
            var open = stat()
            guard stat("/proc/\(access.process)/fd/\(name)", &open) == 0, open.st_dev == file.st_dev, open.st_ino == file.st_ino else { continue }
            guard let info = try? OpenFile.reading(URL(fileURLWithPath: "/proc/\(access.process)/fdinfo/\(name)"), regularOnly: false).readAll(limit: 1 << 12),
                  let line = String(decoding: info, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
                  let flags = Int(line.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) else { return true }
            if flags & Int(O_ACCMODE) != Int(O_RDONLY) { return true }
        }
        return false
    }
}
#endif
