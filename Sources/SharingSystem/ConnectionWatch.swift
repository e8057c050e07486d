#if os(Linux)
import Glibc
import CSharingSystem
import PackageSupport

/// Every connect(2) a process tree makes, each small send (where a DNS query goes) and each send that opens a
/// connection itself (MSG_FASTOPEN), seen before it is made (seccomp's user notifications, kernel 5.5 and
/// later): the tree's init installs the filter, and only this process holds the listener. Each call waits until
/// `letGo(_:)` or `refuse(_:with:)`; when the listener closes, the kernel fails the calls still to come with
/// ENOSYS, so whoever holds a watch answers every call it receives for as long as the tree runs.
package final class ConnectionWatch: Sendable {
    /// One held call, as the host saw it.
    package struct Connection: Sendable {
        fileprivate let id: UInt64
        /// The caller, as this process's namespace numbers it.
        package let process: Int32
        /// Whether the call opens a connection: a connect(2), or a send with MSG_FASTOPEN.
        package let connects: Bool
        /// An internet socket's (IPv4 or IPv6), as the socket itself says.
        package let isInternet: Bool
        /// A stream socket's (TCP, for an internet socket): what carries an upload or a request. Datagram sockets
        /// (a DNS lookup's) and local ones are not.
        package let isStream: Bool
        /// Where it goes, `host:port` (`[host]:port` for IPv6), when it could be read: the address the call
        /// names, else the connected socket's peer.
        package let address: String?
        /// The port it goes to, when the address could be read.
        package let port: UInt16?
        /// It goes to this machine's loopback (127.0.0.0/8, ::1, or ::ffff:127.0.0.0/104).
        package let isLoopback: Bool
        /// What a datagram send carries (its first message's first 512 bytes), as read from the caller's memory.
        package let payload: [UInt8]

        /// A network socket's stream (TCP) connection being opened.
        package var isNetworkStream: Bool { isInternet && isStream && connects }
    }

    let descriptor: CInt

    init(adopting descriptor: CInt) {
        self.descriptor = descriptor
    }

    deinit {
        Syscall.closeDescriptor(descriptor)
    }

    /// Waits for the next call (on the caller's thread: the wait ends only when a call comes or no process of
    /// the tree is left); `nil` once none can come.
    package func next() -> Connection? {
        while true {
            var call = csharing_connection()
            if csharing_connection_receive(descriptor, &call) == 0 {
                let family = call.family
                let internet = family == AF_INET || family == AF_INET6
                let bytes = withUnsafeBytes(of: call.address) { Array($0.prefix(Int(call.address_length))) }
                let payload = withUnsafeBytes(of: call.payload) { Array($0.prefix(Int(call.payload_length))) }
                let parsed = Self.parse(bytes)
                return Connection(id: call.id, process: call.pid, connects: call.call == CSHARING_CALL_CONNECT || call.fast_open != 0,
                                  isInternet: internet, isStream: call.type == CInt(SOCK_STREAM.rawValue), address: parsed?.text,
                                  port: parsed?.port, isLoopback: parsed?.loopback ?? false, payload: payload)
            }
            if errno != EINTR { return nil }
        }
    }

    /// Lets `connection`'s call go on as the program made it.
    package func letGo(_ connection: Connection) {
        _ = csharing_connection_continue(descriptor, connection.id)
    }

    /// How a refused call fails.
    package enum Refusal: Sendable {
        /// ECONNREFUSED: nothing answers there.
        case connectionRefused
        /// ENETUNREACH: no route there.
        case networkUnreachable
    }

    /// Fails `connection`'s call as `refusal` says, without making it.
    package func refuse(_ connection: Connection, as refusal: Refusal) {
        _ = csharing_connection_refuse(descriptor, connection.id, refusal == .connectionRefused ? ECONNREFUSED : ENETUNREACH)
    }

    /// An internet socket address as `host:port`, its port, and whether it is this machine's loopback; `nil` for
    /// another family or too few bytes.
    static func parse(_ address: [UInt8]) -> (text: String, port: UInt16, loopback: Bool)? {
        guard let text = describe(address) else { return nil }
        let port = UInt16(address[2]) << 8 | UInt16(address[3])
        let family = CInt(address.withUnsafeBytes { $0.loadUnaligned(as: sa_family_t.self) })
        let loopback = Loopback.contains(address: family == AF_INET ? Array(address[4..<8]) : Array(address[8..<24]))
        return (text, port, loopback)
    }

    /// An internet socket address as `host:port`; `nil` for another family or too few bytes.
    static func describe(_ address: [UInt8]) -> String? {
        guard address.count >= 2 else { return nil }
        let family = CInt(address.withUnsafeBytes { $0.loadUnaligned(as: sa_family_t.self) })
        let (start, length, textLength): (Int, Int, Int) = switch family {
        case AF_INET: (4, 4, Int(INET_ADDRSTRLEN))
        case AF_INET6: (8, 16, Int(INET6_ADDRSTRLEN))
        default: (0, 0, 0)
        }
        guard length > 0, address.count >= start + length else { return nil }
        let port = UInt16(address[2]) << 8 | UInt16(address[3])
        var text = [CChar](repeating: 0, count: textLength)
        let written = Array(address[start..<(start + length)]).withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &text, socklen_t(textLength))
        }
        guard written != nil else { return nil }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
#endif
