#if os(Linux)
import Glibc
import CSharingSystem
import PackageSupport

/// Every connect(2) a process tree makes, seen before it is made (seccomp's user notifications, kernel 5.5 and
/// later): the tree's init installs the filter, and only this process holds the listener. Each call waits until
/// `letGo(_:)`; when the listener closes, the kernel fails the calls still to come with ENOSYS, so whoever holds
/// a watch answers every call it receives for as long as the tree runs.
package final class ConnectionWatch: Sendable {
    /// One call to connect, as the host saw it.
    package struct Connection: Sendable {
        fileprivate let id: UInt64
        /// The caller, as this process's namespace numbers it.
        package let process: Int32
        /// A network socket's stream (TCP) connection, as the socket itself says: what carries an upload or a
        /// request. Datagram sockets (a DNS lookup's) and local ones are not.
        package let isNetworkStream: Bool
        /// The address asked for, `host:port` (`[host]:port` for IPv6), when it could be read.
        package let address: String?
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
                let stream = (family == AF_INET || family == AF_INET6) && call.type == CInt(SOCK_STREAM.rawValue)
                let bytes = withUnsafeBytes(of: call.address) { Array($0.prefix(Int(call.address_length))) }
                return Connection(id: call.id, process: call.pid, isNetworkStream: stream, address: Self.describe(bytes))
            }
            if errno != EINTR { return nil }
        }
    }

    /// Lets `connection`'s call go on as the program made it.
    package func letGo(_ connection: Connection) {
        _ = csharing_connection_continue(descriptor, connection.id)
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
