#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSharingSystem
package import Foundation
import SystemPackage

/// One end of a connected `AF_UNIX` `SOCK_SEQPACKET` socket: packets keep their boundaries, arrive in order,
/// and may carry descriptors (`SCM_RIGHTS`). Closed when released. Sending and receiving are safe from any
/// thread; packets are whole or absent.
package final class PacketChannel: Sendable {
    package let descriptor: CInt
    /// What the channel is, for errors ("the extension ImageSaver").
    package let name: String

    /// The most descriptors one packet carries.
    package static let maximumDescriptors = 16

    package init(adopting descriptor: CInt, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    deinit {
        Syscall.closeDescriptor(descriptor)
    }

    /// A connected pair, both ends close-on-exec.
    package static func pair(name: String) throws(SystemError) -> (PacketChannel, PacketChannel) {
        var ends: [CInt] = [-1, -1]
        try Syscall.retrying(.create, name) { csharing_packet_socketpair(&ends) }
        return (PacketChannel(adopting: ends[0], name: name), PacketChannel(adopting: ends[1], name: name))
    }

    /// Takes over a socket descriptor received from another process (duplicated; `file` closes its own).
    package convenience init(duplicating file: OpenFile, name: String) throws(SystemError) {
        self.init(adopting: try Syscall.retrying(.open, name) { fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0) }, name: name)
    }

    /// Sends `bytes` and the descriptors of `files` and `channels` as one packet. They stay open here; the
    /// peer gets its own.
    package func send(_ bytes: [UInt8], files: [OpenFile] = [], channels: [PacketChannel] = []) throws(SystemError) {
        let descriptors = files.map(\.descriptor) + channels.map(\.descriptor)
        let sent = bytes.withUnsafeBytes { buffer in
            descriptors.withUnsafeBufferPointer { list in
                Result { () throws(SystemError) in
                    try Syscall.retrying(.send, name) {
                        csharing_send_packet(descriptor, buffer.baseAddress, buffer.count, list.baseAddress, CInt(list.count))
                    }
                }
            }
        }
        _ = try sent.get()
        withExtendedLifetime((files, channels)) {}
    }

    /// One packet received: its bytes and the descriptors it carried, each now this process's own.
    package struct Packet: Sendable {
        package var bytes: [UInt8]
        package var files: [OpenFile]
        /// The packet or its descriptors did not fit what the receiver allows: the sender broke the protocol.
        package var truncated: Bool
    }

    /// Receives the next packet, waiting for one; `nil` at end of file (the peer closed or died).
    package func receive(capacity: Int) throws(SystemError) -> Packet? {
        var descriptors = [CInt](repeating: -1, count: Self.maximumDescriptors)
        var count: CInt = 0
        var truncated: CInt = 0
        var failure: SystemError?
        // Uninitialized: the kernel writes what arrives, and only that much is kept.
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            initialized = 0
            let result = descriptors.withUnsafeMutableBufferPointer { list in
                Result { () throws(SystemError) in
                    try Syscall.retrying(.receive, name) {
                        csharing_receive_packet(descriptor, buffer.baseAddress, buffer.count, list.baseAddress, CInt(list.count), &count, &truncated)
                    }
                }
            }
            switch result {
            case .success(let received): initialized = received
            case .failure(let error): failure = error
            }
        }
        if let failure { throw failure }
        let files = descriptors.prefix(Int(count)).map { OpenFile.adopting($0, path: "a descriptor from \(name)") }
        if bytes.isEmpty && files.isEmpty && truncated == 0 { return nil }
        return Packet(bytes: bytes, files: files, truncated: truncated != 0)
    }

    /// Waits until a packet (or end of file) is ready to receive, at most `timeout`; whether one is.
    package func waitUntilReadable(timeout: Duration) throws(SystemError) -> Bool {
        try Poll.readable([descriptor], timeout: timeout, name: name).contains(descriptor)
    }

    /// The process at the other end, as the kernel recorded it: for a socket pair, the process that made the
    /// pair, whichever process holds the other end now.
    package func peerProcess() throws(SystemError) -> Int32 {
        var process: pid_t = 0
        var user: uid_t = 0
        try Syscall.retrying(.inspect, name) { csharing_peer_credentials(descriptor, &process, &user) }
        return process
    }
}

/// Waiting on several descriptors at once.
package enum Poll {
    /// The descriptors among `descriptors` that are readable (or at end of file, or in error) within
    /// `timeout`; empty when none became so.
    package static func readable(_ descriptors: [CInt], timeout: Duration, name: String) throws(SystemError) -> [CInt] {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let milliseconds = CInt(clamping: max(0, (timeout.components.seconds * 1000) + timeout.components.attoseconds / 1_000_000_000_000_000))
        let count = entries.count
        try Syscall.retrying(.wait, name) { poll(&entries, nfds_t(count), milliseconds) }
        return entries.filter { $0.revents != 0 }.map(\.fd)
    }
}

/// Anonymous memory files: bytes handed to another process as a descriptor, sealed so that neither side can
/// change them after.
package enum MemoryFile {
    /// A sealed memory file holding `bytes`, at offset 0.
    package static func sealed(_ bytes: some DataProtocol, name: String) throws(SystemError) -> OpenFile {
        let file = OpenFile.adopting(try Syscall.retrying(.create, name) { csharing_memfd_create(name) }, path: name)
        try file.write(Data(bytes))
        try Syscall.retrying(.write, name) { csharing_memfd_seal(file.descriptor) }
        _ = lseek(file.descriptor, 0, SEEK_SET)
        return file
    }

    /// Whether `file` is a memory file sealed against every change.
    package static func isSealed(_ file: OpenFile) -> Bool {
        csharing_memfd_is_sealed(file.descriptor) == 1
    }
}

/// Streams of unknown length between processes: the reading end of a pipe crosses, and the side that has
/// the stream pumps it in.
package enum StreamPipe {
    /// A pipe, both ends close-on-exec.
    package static func make(name: String) throws(SystemError) -> (reading: OpenFile, writing: OpenFile) {
        var descriptors: [CInt] = [-1, -1]
        try Syscall.retrying(.create, name) { csharing_pipe(&descriptors) }
        return (OpenFile.adopting(descriptors[0], path: "the pipe of \(name)"), OpenFile.adopting(descriptors[1], path: "the pipe of \(name)"))
    }

    /// Copies `source` (a FIFO, socket or device, opened non-blocking or not) into `pipe`, a pipe's writing
    /// end, until the source ends, or until the pipe's reader goes away (then without SIGPIPE). The source is
    /// awaited in poll(2): a FIFO whose writer has not come yet is waited for, not taken as ended, and a
    /// reader that goes away meanwhile ends the wait. The bytes copied, and whether the source ended.
    package static func pump(from source: OpenFile, into pipe: OpenFile) throws(SystemError) -> (bytes: Int64, ended: Bool) {
        var entries = [pollfd(fd: source.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: pipe.descriptor, events: 0, revents: 0)]
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileCopier.chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            try Syscall.retrying(.wait, source.path) { poll(&entries, 2, -1) }
            if entries[1].revents != 0 { return (total, false) }
            guard entries[0].revents != 0 else { continue }
            let count = read(source.descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                let number = Errno.last
                if number == .interrupted || number == .resourceTemporarilyUnavailable { continue }
                throw SystemError(.read, .system(number), path: source.path)
            }
            if count == 0 { return (total, true) }
            var written = 0
            while written < count {
                let result = csharing_write_without_sigpipe(pipe.descriptor, buffer.baseAddress! + written, count - written)
                if result >= 0 {
                    written += result
                    total += Int64(result)
                    continue
                }
                let number = Errno.last
                if number == .interrupted { continue }
                if number == .brokenPipe { return (total, false) }
                throw SystemError(.write, .system(number), path: pipe.path)
            }
        }
    }
}
