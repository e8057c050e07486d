import Foundation
import PackageSupport
import SharingSystem

/// Receives the connect calls of an extension's tree (`ConnectionWatch`) on a thread of its own, where waiting
/// for the next one holds nobody, and hands each to the supervisor (`arrived`), which answers it
/// (`letGo(_:)`) once it has read what the extension sent before: each call waits until then, so whether it came
/// before or after the request ended is decided by the extension's order, not by a thread's luck. The thread
/// ends when no process of the tree is left to call.
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

    /// The calls received since the last time, each to be let go.
    func waiting() -> [ConnectionWatch.Connection] {
        arrived.drain()
        return queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }

    /// Lets `connection`'s call go on.
    func letGo(_ connection: ConnectionWatch.Connection) {
        watch.letGo(connection)
    }
}
