import Foundation
import PackageSupport
import SharingSystem

/// Receives the calls of an extension's tree that open or use a connection (`ConnectionWatch`) on a thread of
/// its own, where waiting for the next one holds nobody, and hands each to the supervisor (`arrived`), which
/// answers it (`answer(_:)`) once it has read what the extension sent before: each call waits until then, so
/// whether it came before or after the request ended is decided by the extension's order, not by a thread's
/// luck. The thread ends when no process of the tree is left to call.
final class ConnectionWatcher: Sendable {
    /// Signalled when calls wait in `waiting()`.
    let arrived: Wakeup
    private let watch: ConnectionWatch
    private let queue = Locked<[ConnectionWatch.Connection]>([])

    init(_ watch: ConnectionWatch) throws(SystemError) {
        arrived = try Wakeup()
        self.watch = watch
        let (arrived, queue) = (arrived, queue)
        Thread {
            while let connection = watch.next() {
                queue.withLock { $0.append(connection) }
                arrived.signal()
            }
        }.start()
    }

    /// The calls received since the last time, each to be answered.
    func waiting() -> [ConnectionWatch.Connection] {
        arrived.drain()
        return queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }

    /// Answers `connection`'s call as the extension's network allows it (`NetworkPolicy`), and says what network
    /// work it was, if any.
    func answer(_ connection: ConnectionWatch.Connection) -> NetworkWork? {
        let (work, refusal) = NetworkPolicy.judge(connection)
        if let refusal { watch.refuse(connection, as: refusal) } else { watch.letGo(connection) }
        return work
    }
}

/// Network work an extension began, as the host saw it.
enum NetworkWork: Equatable {
    /// It looked a host name up (a DNS query): the first step of any request to a named server.
    case lookup(String)
    /// It opened a stream (TCP) connection to this address (`nil`: not read); `refused` when the host refused it.
    case connection(String?, refused: Bool)
}

/// What an extension's network may do: reach this machine's loopback, and nothing beyond it. Every DNS query is
/// refused at once (ECONNREFUSED, as a resolver that cannot be reached fails), its name kept; every connection
/// beyond loopback is refused at once. So a run's verdict never depends on the machine's network — a CI runner
/// with the internet and one without see the same lookups, the same refusals and the same findings — and no
/// extension reaches a real server from a test. Servers a test needs listen on 127.0.0.1.
enum NetworkPolicy {
    /// The port DNS queries go to.
    static let dnsPort: UInt16 = 53
    /// What a refused connection's address is marked with in a run's `connections`.
    static let refusedMark = " (refused: not this machine's loopback)"

    /// What `connection` is, and the error it fails with (`nil`: it goes on).
    static func judge(_ connection: ConnectionWatch.Connection) -> (work: NetworkWork?, refusal: ConnectionWatch.Refusal?) {
        // Local sockets (the extension's own, the host's channel) are not the network.
        guard connection.isInternet else { return (nil, nil) }
        if !connection.isStream {
            if connection.port == dnsPort {
                // Connecting a resolver's socket sends nothing: its query is what is judged.
                if connection.connects { return (nil, nil) }
                return (.lookup(queriedName(connection.payload) ?? "a name not read"), .connectionRefused)
            }
            return (nil, connection.isLoopback ? nil : .networkUnreachable)
        }
        // A send on a connection already made goes on: the connect was judged.
        guard connection.connects else { return (nil, nil) }
        let loopback = connection.isLoopback && connection.address != nil
        return (.connection(connection.address, refused: !loopback), loopback ? nil : .connectionRefused)
    }

    /// The name a DNS query (RFC 1035, section 4.1) asks about: its first question's labels joined by dots, each
    /// label's bytes as they are (a report escapes them where it prints them); `nil` when the bytes are not a
    /// query with a question.
    static func queriedName(_ message: [UInt8]) -> String? {
        // The header: 12 bytes, the question count at 4, the QR bit (a response) at the top of byte 2.
        guard message.count > 12, message[2] & 0x80 == 0, (UInt16(message[4]) << 8 | UInt16(message[5])) > 0 else { return nil }
        var labels: [String] = []
        var at = 12
        var length = 0
        while at < message.count {
            let size = Int(message[at])
            if size == 0 { return labels.isEmpty ? "." : labels.joined(separator: ".") }
            // A query's name is never compressed, no label is longer than 63 bytes, no name longer than 255.
            guard size <= 63, at + 1 + size <= message.count else { return nil }
            length += size + 1
            guard length <= 255 else { return nil }
            labels.append(String(decoding: message[(at + 1)...(at + size)], as: UTF8.self))
            at += 1 + size
        }
        return nil
    }
}
