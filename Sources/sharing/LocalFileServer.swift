#if canImport(ExtensionRuntime)
import Foundation
import CSharingSystem
import PackageSupport
#if canImport(Glibc)
import Glibc
#endif

/// A web server on 127.0.0.1, on a port the system chooses, serving the files of one directory by name (GET
/// only, one request per connection): what `sharing test` downloads a notification's image from. It stops,
/// and its thread ends, at `stop()`.
final class LocalFileServer: @unchecked Sendable {
    let base: URL
    private let directory: URL
    private let listener: Int32
    private let done = DispatchGroup()

    init(serving directory: URL) throws {
        self.directory = directory
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 16) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Failure("cannot listen on 127.0.0.1: \(reason)")
        }
        listener = socket
        base = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        Thread.detachNewThread { [self] in
            done.enter()
            defer { done.leave() }
            while true {
                let connection = csharing_accept(listener)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                answer(connection)
                close(connection)
            }
        }
    }

    /// Ends the server: its socket shut down, its thread ended.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Reads one request's head (at most 8 KiB, two seconds) and sends the file it names, or 404.
    private func answer(_ connection: Int32) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 8192 && !head.ends(with: Array("\r\n\r\n".utf8)) {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            head += buffer[..<count]
        }
        let requestLine = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self).split(separator: " ")
        // Only a name in the directory: no path, no way out of it.
        let name = requestLine.count >= 2 ? String(requestLine[1].dropFirst()) : ""
        let body = requestLine.first == "GET" && !name.isEmpty && !name.contains("/") && !name.hasPrefix(".")
            ? try? Data(contentsOf: directory.appendingPathComponent(name)) : nil
        let status = body == nil ? "404 Not Found" : "200 OK"
        let payload = body ?? Data("not found\n".utf8)
        let type = name.hasSuffix(".jpg") ? "image/jpeg" : "application/octet-stream"
        var response = Data("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(payload.count)\r\nConnection: close\r\n\r\n".utf8)
        response += payload
        response.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return }
                sent += count
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = "the matrix's web server: \(description)" }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
#endif
