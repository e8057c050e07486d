#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// This machine's loopback, the only network a run reaches: 127.0.0.0/8, `::1`, and 127.0.0.0/8 mapped into IPv6
/// (`::ffff:127.…`). One rule for the connections the extension makes and the uploads the host carries for it.
package enum Loopback {
    /// Whether an address is the loopback: 4 bytes (IPv4) or 16 (IPv6), in network order.
    package static func contains(address bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 4:
            return bytes[0] == 127
        case 16:
            let unspecifiedPrefix = bytes.prefix(10).allSatisfy { $0 == 0 }
            return unspecifiedPrefix && bytes[10] == 0 && bytes[11] == 0 && bytes[12...14].allSatisfy { $0 == 0 } && bytes[15] == 1
                || unspecifiedPrefix && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        default:
            return false
        }
    }

    /// Whether a URL's host names the loopback: `localhost`, or one of its addresses (IPv6 in brackets or not).
    package static func contains(host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" { return true }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return contains(address: withUnsafeBytes(of: &v4) { Array($0) }) }
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
        return contains(address: withUnsafeBytes(of: &v6) { Array($0) })
    }
}
