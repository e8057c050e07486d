#if os(Linux)
import Glibc
import CSharingSystem
package import Foundation
import PackageSupport

/// A web server on 127.0.0.1, on a port the system chooses, serving the regular files of one directory by
/// name (GET only, one request per connection): what the conformance matrix downloads a notification's image
/// from. Connections are served at once, each on its own thread, and each has `connectionDeadline` in all to
/// send its request and take the answer: a client that reads a byte now and then holds only its own
/// connection, and only that long. At most `maximumConnections` are served together; more are closed at once.
package final class LoopbackFileServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    package let base: URL
    private let directory: URL
    private let listener: OpenFile
    private let stopping: Wakeup
    private let connectionDeadline: Duration
    private let maximumConnections: Int
    private let state = Locked<(serving: Int, stopped: Bool)>((0, false))
    private let ended = DispatchSemaphore(value: 0)

    /// Starts serving `directory`.
    ///
    /// - Throws: `SystemError` when no socket can listen on 127.0.0.1.
    package init(serving directory: URL, connectionDeadline: Duration = .seconds(10), maximumConnections: Int = 32) throws(SystemError) {
        self.directory = directory
        self.connectionDeadline = connectionDeadline
        self.maximumConnections = maximumConnections
        let name = "a socket on 127.0.0.1"
        let listening = try Syscall.retrying(.create, name) { socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0) }
        listener = OpenFile.adopting(listening, path: name)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                try Syscall.retrying(.create, name) { bind(listening, address, length) }
                try Syscall.retrying(.create, name) { listen(listening, 64) }
                try Syscall.retrying(.inspect, name) { getsockname(listening, address, &length) }
            }
        }
        base = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        stopping = try Wakeup()
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Stops accepting; connections being served end at their deadline or sooner. Returns once the accepting
    /// thread has ended.
    package func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        stopping.signal()
        ended.wait()
    }

    private func acceptConnections() {
        defer { ended.signal() }
        while true {
            let ready = (try? Poll.readable([listener.descriptor, stopping.descriptor], timeout: .seconds(3600), name: "the file server")) ?? []
            if ready.contains(stopping.descriptor) { return }
            guard ready.contains(listener.descriptor) else { continue }
            let descriptor = csharing_accept(listener.descriptor)
            guard descriptor >= 0 else { continue }
            let connection = OpenFile.adopting(descriptor, path: "a connection to the file server")
            let admitted = state.withLock { state in
                guard state.serving < maximumConnections else { return false }
                state.serving += 1
                return true
            }
            guard admitted else { continue }
            BlockingThreads.submit { [self] in
                answer(connection, until: ContinuousClock.now + connectionDeadline)
                state.withLock { $0.serving -= 1 }
            }
        }
    }

    /// Reads one request's head (at most 8 KiB) and sends the file it names, or 404, within `deadline`.
    private func answer(_ connection: OpenFile, until deadline: ContinuousClock.Instant) {
        _ = fcntl(connection.descriptor, F_SETFL, fcntl(connection.descriptor, F_GETFL) | O_NONBLOCK)
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while head.count < 8192 && !(head.count >= 4 && Array(head.suffix(4)) == end) {
            guard wait(for: connection, writing: false, until: deadline) else { return }
            let count = read(connection.descriptor, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return }
            if count > 0 { head += buffer[..<count] }
        }
        let requestLine = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self).split(separator: " ")
        // Only a name in the directory: no path, no way out of it, and never a link.
        let name = requestLine.count >= 2 ? String(requestLine[1].dropFirst()) : ""
        let file = requestLine.first == "GET" && !name.isEmpty && !name.contains("/") && !name.hasPrefix(".")
            ? try? OpenFile.reading(directory.appending(component: name), followingLinks: false) : nil
        let size = (try? file?.status().size).map { Int($0) }
        let status = file == nil ? "404 Not Found" : "200 OK"
        let type = name.hasSuffix(".jpg") ? "image/jpeg" : file == nil ? "text/plain" : "application/octet-stream"
        let body = file == nil ? Array("not found\n".utf8) : []
        let header = Array("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(size ?? body.count)\r\nConnection: close\r\n\r\n".utf8)
        guard deliver(header + body, on: connection, until: deadline), let file else { return }
        var offset: Int64 = 0
        while let chunk = try? file.bytes(at: offset, count: 64 << 10), !chunk.isEmpty {
            guard deliver(chunk, on: connection, until: deadline) else { return }
            offset += Int64(chunk.count)
        }
    }

    /// Sends all of `bytes` before `deadline`; whether it did.
    private func deliver(_ bytes: [UInt8], on connection: OpenFile, until deadline: ContinuousClock.Instant) -> Bool {
        var sent = 0
        while sent < bytes.count {
            guard wait(for: connection, writing: true, until: deadline) else { return false }
            let count = bytes.withUnsafeBytes { send(connection.descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno != EAGAIN && errno != EINTR { return false }
            if count > 0 { sent += count }
        }
        return true
    }

    /// Waits until the connection can be read (or written), or the server stops, or the deadline passes;
    /// whether it can.
    private func wait(for connection: OpenFile, writing: Bool, until deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return false }
        let ready = try? Poll.ready(reading: writing ? [stopping.descriptor] : [connection.descriptor, stopping.descriptor],
                                    writing: writing ? [connection.descriptor] : [], timeout: left, name: "the file server")
        guard let ready, !ready.readable.contains(stopping.descriptor) else { return false }
        return ready.readable.contains(connection.descriptor) || ready.writable.contains(connection.descriptor)
    }
}
#endif
