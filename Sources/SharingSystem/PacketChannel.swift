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

    /// Ends the conversation both ways, for this end and every copy of it: the other end reads end of file.
    package func hangUp() {
        _ = shutdown(descriptor, CInt(SHUT_RDWR))
    }

    /// A connected pair, both ends close-on-exec, each stamping the packets queued for it (`Packet.sentAt`).
    package static func pair(name: String) throws(SystemError) -> (PacketChannel, PacketChannel) {
        var ends: [CInt] = [-1, -1]
        try Syscall.retrying(.create, name) { csharing_packet_socketpair(&ends) }
        return (PacketChannel(adopting: ends[0], name: name), PacketChannel(adopting: ends[1], name: name))
    }

    /// Takes over a socket descriptor received from another process (duplicated; `file` closes its own), and
    /// stamps what arrives on it from now on.
    package convenience init(duplicating file: OpenFile, name: String) throws(SystemError) {
        self.init(adopting: try Syscall.retrying(.open, name) { fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0) }, name: name)
        try Syscall.retrying(.open, name) { csharing_stamp_arrivals(descriptor) }
    }

    /// Sends `bytes` and the descriptors of `files` and `channels` as one packet, waiting while the peer's
    /// queue is full. They stay open here; the peer gets its own.
    package func send(_ bytes: [UInt8], files: [OpenFile] = [], channels: [PacketChannel] = []) throws(SystemError) {
        _ = try send(bytes, descriptors: files.map(\.descriptor) + channels.map(\.descriptor), waiting: true)
        withExtendedLifetime((files, channels)) {}
    }

    /// Sends one packet unless the peer's queue is full; whether it was sent. Never waits: a peer that does
    /// not read cannot hold the caller.
    package func sendWithoutWaiting(_ bytes: [UInt8], files: [OpenFile] = []) throws(SystemError) -> Bool {
        let sent = try send(bytes, descriptors: files.map(\.descriptor), waiting: false)
        withExtendedLifetime(files) {}
        return sent
    }

    private func send(_ bytes: [UInt8], descriptors: [CInt], waiting: Bool) throws(SystemError) -> Bool {
        let sent = bytes.withUnsafeBytes { buffer in
            descriptors.withUnsafeBufferPointer { list in
                Result { () throws(SystemError) -> Bool in
                    while true {
                        let result = csharing_send_packet(descriptor, buffer.baseAddress, buffer.count, list.baseAddress, CInt(list.count),
                                                          waiting ? 0 : 1)
                        if result >= 0 { return true }
                        let number = Errno.last
                        if number == .interrupted { continue }
                        if !waiting && number == .resourceTemporarilyUnavailable { return false }
                        throw SystemError(.send, .system(number), path: name)
                    }
                }
            }
        }
        return try sent.get()
    }

    /// One packet received: its bytes and the descriptors it carried, each now this process's own.
    package struct Packet: Sendable {
        package var bytes: [UInt8]
        package var files: [OpenFile]
        /// The packet or its descriptors did not fit what the receiver allows: the sender broke the protocol.
        package var truncated: Bool
        /// When the peer queued it, by `PacketChannel.clock()` as the kernel stamped it; `nil` on a channel that
        /// was not stamping arrivals then (one a peer made, before it was taken over).
        package var sentAt: Int64?
    }

    /// The clock the kernel stamps a packet with as it is queued (the real-time clock), now, in nanoseconds since
    /// 1970: what was sent later than this reading has a later `sentAt`.
    package static func clock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Receives the next packet, waiting for one; `nil` at end of file (the peer closed or died). A packet of no
    /// bytes is a packet, not the end.
    package func receive(capacity: Int) throws(SystemError) -> Packet? {
        var descriptors = [CInt](repeating: -1, count: Self.maximumDescriptors)
        var count: CInt = 0
        var truncated: CInt = 0
        var ended: CInt = 0
        var sentAt: Int64 = 0
        var failure: SystemError?
        // Uninitialized: the kernel writes what arrives, and only that much is kept.
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            initialized = 0
            let result = descriptors.withUnsafeMutableBufferPointer { list in
                Result { () throws(SystemError) in
                    try Syscall.retrying(.receive, name) {
                        csharing_receive_packet(descriptor, buffer.baseAddress, buffer.count, list.baseAddress, CInt(list.count), &count, &truncated, &ended, &sentAt)
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
        if ended != 0 { return nil }
        return Packet(bytes: bytes, files: files, truncated: truncated != 0, sentAt: sentAt == 0 ? nil : sentAt)
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
    /// What became ready within `timeout`: the descriptors readable (or at end of file, or in error) among
    /// `reading`, and writable among `writing`.
    package static func ready(reading: [CInt], writing: [CInt], timeout: Duration, name: String) throws(SystemError) -> (readable: Set<CInt>, writable: Set<CInt>) {
        var entries = reading.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + writing.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
        let milliseconds = CInt(clamping: max(0, (timeout.components.seconds * 1000) + timeout.components.attoseconds / 1_000_000_000_000_000))
        let count = entries.count
        try Syscall.retrying(.wait, name) { poll(&entries, nfds_t(count), milliseconds) }
        var readable: Set<CInt> = [], writable: Set<CInt> = []
        for (index, entry) in entries.enumerated() where entry.revents != 0 {
            if index < reading.count { readable.insert(entry.fd) } else { writable.insert(entry.fd) }
        }
        return (readable, writable)
    }

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

    /// How a pump ended.
    package enum PumpEnd: Sendable, Equatable {
        /// The source ended.
        case sourceEnded
        /// The pipe's reader went away.
        case readerLeft
        /// `limit` bytes went through and the source had more.
        case limitReached
        /// `stop` was signalled.
        case stopped
    }

    /// Copies `source` (a FIFO, socket or device, opened non-blocking or not) into `pipe`, a pipe's writing
    /// end, until the source ends, the pipe's reader goes away (then without SIGPIPE), `limit` bytes have gone
    /// through, or `stop` is signalled. It waits in poll(2) for each side: a FIFO whose writer has not come yet
    /// is waited for, not taken as ended, and a reader that holds the pipe without reading cannot hold the pump
    /// past `stop`. The bytes copied, and how it ended.
    package static func pump(from source: OpenFile, into pipe: OpenFile, limit: Int64, stop: Wakeup) throws(SystemError) -> (bytes: Int64, end: PumpEnd) {
        _ = fcntl(pipe.descriptor, F_SETFL, fcntl(pipe.descriptor, F_GETFL) | O_NONBLOCK)
        // A pipe holds far less than a chunk: a buffer of a read/write copy's size, which the allocator keeps
        // no more of after a run than it hands out.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileCopier.bufferSize, alignment: 64)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            // Wait for the source (or the reader's leaving, or the stop).
            var entries = [pollfd(fd: source.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: pipe.descriptor, events: 0, revents: 0),
                           pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)]
            try Syscall.retrying(.wait, source.path) { poll(&entries, 3, -1) }
            if entries[2].revents != 0 { return (total, .stopped) }
            if entries[1].revents != 0 { return (total, .readerLeft) }
            guard entries[0].revents != 0 else { continue }
            // One byte past the limit, to tell a source that ends there from one that has more.
            let left = limit - total
            let room = left >= Int64(buffer.count) ? buffer.count : Int(left) + 1
            let count = read(source.descriptor, buffer.baseAddress, room)
            if count < 0 {
                let number = Errno.last
                if number == .interrupted || number == .resourceTemporarilyUnavailable { continue }
                throw SystemError(.read, .system(number), path: source.path)
            }
            if count == 0 { return (total, .sourceEnded) }
            let keep = Int(min(Int64(count), limit - total))
            var written = 0
            while written < keep {
                let result = csharing_write_without_sigpipe(pipe.descriptor, buffer.baseAddress! + written, keep - written)
                if result >= 0 {
                    written += result
                    total += Int64(result)
                    continue
                }
                let number = Errno.last
                if number == .interrupted { continue }
                if number == .brokenPipe { return (total, .readerLeft) }
                guard number == .resourceTemporarilyUnavailable else { throw SystemError(.write, .system(number), path: pipe.path) }
                // The pipe is full: wait for room, or for the reader's leaving, or the stop.
                var waiting = [pollfd(fd: pipe.descriptor, events: Int16(POLLOUT), revents: 0), pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)]
                try Syscall.retrying(.wait, pipe.path) { poll(&waiting, 2, -1) }
                if waiting[1].revents != 0 { return (total, .stopped) }
                if waiting[0].revents & Int16(POLLERR | POLLHUP) != 0 { return (total, .readerLeft) }
            }
            if count > keep { return (total, .limitReached) }
        }
    }
}

/// A descriptor that becomes readable when signalled, to wake a thread waiting in poll(2): a supervisor with
/// news, a pump told to stop. It stays readable once signalled until drained.
package final class Wakeup: Sendable {
    /// The reading end, for poll.
    package let descriptor: CInt
    private let writing: CInt

    package init() throws(SystemError) {
        var ends: [CInt] = [-1, -1]
        try Syscall.retrying(.create, "a wake-up pipe") { csharing_pipe(&ends) }
        descriptor = ends[0]
        writing = ends[1]
        for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
    }

    deinit {
        Syscall.closeDescriptor(descriptor)
        Syscall.closeDescriptor(writing)
    }

    /// Makes the descriptor readable (a full pipe already is).
    package func signal() {
        var byte: UInt8 = 1
        _ = write(writing, &byte, 1)
    }

    /// Empties the pipe, so that the next poll waits for the next signal.
    package func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}
