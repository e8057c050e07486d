import Foundation
import PackageSupport
import SharingSystem

/// The host's messages to an extension, sent without ever waiting: no thread of the host blocks on the socket
/// the extension controls. A message goes at once when nothing waits before it and the socket takes it (an
/// answer does not wait for the supervisor to wake); otherwise it is queued, and the supervisor's thread sends
/// the queue, in order, as the socket takes it. An extension that lets messages pile up past `capacity` or
/// `byteCapacity`, or leaves them unread for `patience`, has stopped reading: a protocol violation, which
/// `overdue` reports. Every message is checked against the largest packet before it is queued: the host sends
/// nothing the extension would be right to refuse.
final class Outbox: Sendable {
    private let queue = Locked<Queue>(Queue())
    /// Signalled when a message is queued, to wake the supervisor.
    let wakeup: Wakeup

    /// The most messages that may wait.
    static let capacity = 1024
    /// The most bytes that may wait: what the host holds for an extension that does not read.
    static let byteCapacity = 4 << 20
    /// The longest a message may wait for the extension to read.
    static let patience: Duration = .seconds(5)

    private struct Queue {
        var messages: [(bytes: [UInt8], files: [OpenFile], progressOf: UInt32?, isCenterAnswer: Bool)] = []
        var bytes = 0
        /// When the first message now waiting could not be sent.
        var stalledSince: ContinuousClock.Instant?
        var connected: PacketChannel?
    }

    init() throws(SystemError) {
        wakeup = try Wakeup()
    }

    /// Where messages go from now on: the channel the extension handed over.
    func connect(_ channel: PacketChannel) {
        queue.withLock { $0.connected = channel }
        wakeup.signal()
    }

    /// Queues a message (and the descriptors its packet carries, kept open until sent). A progress report
    /// replaces the one still waiting for the same load.
    func send(_ message: RuntimeMessage, files: [OpenFile] = []) {
        let bytes = message.encoded().bytes
        // The host's own message over the limit it holds the extension to is the host's fault, never sent.
        precondition(bytes.count <= RuntimeMessage.maximumPacket, "the host made a \(message.kindName) message of \(bytes.count) bytes")
        var progressOf: UInt32?
        if case .progress(let id, _, _) = message { progressOf = id }
        var isCenterAnswer = false
        if case .centerAnswer = message { isCenterAnswer = true }
        let queued = queue.withLock { queue -> Bool in
            // Under the lock, so that nothing queued meanwhile could go before it.
            if queue.messages.isEmpty, let channel = queue.connected {
                do {
                    if try channel.sendWithoutWaiting(bytes, files: files) { return false }
                } catch {
                    // The extension's end is gone: the message is dropped; its end shows at its process.
                    return false
                }
            }
            if let progressOf, let index = queue.messages.lastIndex(where: { $0.progressOf == progressOf }) {
                queue.bytes += bytes.count - queue.messages[index].bytes.count
                queue.messages[index] = (bytes, files, progressOf, false)
            } else {
                queue.bytes += bytes.count
                queue.messages.append((bytes, files, progressOf, isCenterAnswer))
            }
            return true
        }
        if queued { wakeup.signal() }
    }

    /// On the supervisor's thread: sends what the socket takes now, in order. Whether messages are still
    /// waiting (then the supervisor waits for the socket to be writable).
    func flush() -> Bool {
        wakeup.drain()
        return queue.withLock { queue in
            guard let channel = queue.connected else { return false }
            while let first = queue.messages.first {
                let sent: Bool
                do {
                    sent = try channel.sendWithoutWaiting(first.bytes, files: first.files)
                } catch {
                    // The extension's end is gone: what waits is dropped; its end shows at its process.
                    queue.messages.removeAll()
                    queue.bytes = 0
                    break
                }
                guard sent else {
                    if queue.stalledSince == nil { queue.stalledSince = .now }
                    return true
                }
                queue.bytes -= first.bytes.count
                queue.messages.removeFirst()
                queue.stalledSince = nil
            }
            return false
        }
    }

    /// Why the extension counts as no longer reading, if it does.
    var overdue: String? {
        queue.withLock { queue in
            if queue.messages.count > Self.capacity {
                return "the extension left more than \(Self.capacity) of the host's messages unread"
            }
            if queue.bytes > Self.byteCapacity {
                return "the extension left more than \(Self.byteCapacity) bytes of the host's messages unread"
            }
            if let since = queue.stalledSince, ContinuousClock.now - since > Self.patience {
                return "the extension read none of the host's \(queue.messages.count) waiting messages for \(Self.patience)"
            }
            return nil
        }
    }
}

extension Outbox {
    /// Whether an answer to a notification center call waits to be sent: the next call is answered only once
    /// it has gone, so that at most one answer is held for an extension that does not read.
    var holdsCenterAnswer: Bool {
        queue.withLock { queue in queue.messages.contains(where: \.isCenterAnswer) }
    }
}
