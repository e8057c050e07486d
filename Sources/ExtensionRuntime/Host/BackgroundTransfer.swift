public import Foundation
import PackageSupport
import SharingSystem

/// An upload a background session handed to the host (`URLSessionConfiguration.background(withIdentifier:)`,
/// through the `BackgroundTransfers` module), which carries it to its end whether or not the extension's
/// process lives that long, as iOS carries an extension's background transfers; and how it ended.
public struct BackgroundTransfer: Sendable, Equatable {
    /// The session's identifier and shared container.
    public var session: String
    public var sharedContainer: String?
    public var method: String
    public var url: String
    /// The request's header fields, in order, each `name: value`.
    public var headers: [String]
    /// The body's size in bytes, as the host got its file.
    public var bytes: Int
    /// The server's HTTP status, when it answered.
    public var status: Int?
    /// What ended it otherwise.
    public var error: String?
    /// When it ended, after the extension's process ended (negative: before); `nil` when it had not ended when
    /// the host stopped waiting for it.
    public var endedAfterExtension: Duration?
}

/// Carries a background transfer for a host: the upload as the extension made it, its body's file readable at
/// `body`; returns the server's HTTP status, or throws what ended it.
public typealias BackgroundUploader = @Sendable (_ transfer: BackgroundTransfer, _ body: URL) async throws -> Int

/// The background transfers of one process: each body copied at once into a directory of the host's (as iOS
/// takes the file when the task is made: what the extension does with its own after is its own), carried on a
/// task of its own by the host's uploader, the supervisor told of each end (`ended`) to pass it on while the
/// process lives, and all of them awaited, within a bound, once the process has ended.
///
/// The copies are the extension's disk as much as its own files are: counted against the run's disk budget
/// (`stored`, which the disk meter adds), a body that would pass it failing its transfer at once; a sparse body,
/// which a copy would write out whole, refused as a returned file is; and kept beneath the containers'
/// directory, named for the host's process, so that a host killed mid-transfer leaves them to the next host's
/// sweep, as it leaves its extension's container. Every copy has ended before the directory is removed.
final class TransferCarrier: Sendable {
    /// Signalled when transfers have ended: `waiting()` has them.
    let ended: Wakeup
    /// The bytes of the bodies' copies: what the host stores for the extension.
    let stored = Locked(0)
    private let uploader: BackgroundUploader?
    /// Where the bodies' copies are, made with the first transfer and removed when all have ended.
    private let bodies = Locked<TemporaryDirectory?>(nil)
    private struct State {
        var transfers: [BackgroundTransfer] = []
        var endedAt: [ContinuousClock.Instant?] = []
        var endings: [(id: UInt32, status: Int32, error: RemoteError?)] = []
        var tasks: [Task<Void, Never>] = []
        var processEndedAt: ContinuousClock.Instant?
    }
    private let state = Locked(State())
    /// Whether the extension's program has ended, as the kernel says it now (the supervisor may see it later).
    private let programEnded = Locked<(@Sendable () -> Bool)?>(nil)
    /// The transfers not yet ended, and the copies of their bodies not yet made (never cancelled: a copy is bounded
    /// by the budget, and none runs on into a removed directory).
    private let running = DispatchGroup()
    private let copying = DispatchGroup()

    /// How long the host waits for transfers still running once the process has ended.
    static let patience: Duration = .seconds(60)
    /// The most transfers one process hands over.
    static let transferRecords = 100

    init(uploader: BackgroundUploader?) throws(SystemError) {
        ended = try Wakeup()
        self.uploader = uploader
    }

    /// How many transfers the process handed over.
    var count: Int { state.withLock { $0.transfers.count } }

    /// Starts carrying transfer `id` with its body, `room` the bytes the run's disk budget has left: the host owns
    /// the file from now on. A body that is not a readable regular file, or is sparse, or a process that hands over
    /// more than `transferRecords`, breaks the protocol; a body larger than `room` fails its transfer at once.
    func start(id: UInt32, _ wire: WireTransfer, body: OpenFile, room: Int) throws(ProtocolViolation) {
        let status = try ProviderMirror.incomingFile(body, "a background transfer's body")
        guard status.size <= status.allocatedSize + ProviderMirror.sparseAllowance else {
            throw ProtocolViolation("a background transfer's body claims \(status.size) bytes but stores \(status.allocatedSize); the host takes no sparse file from an extension")
        }
        let bytes = Int(status.size)
        var transfer = BackgroundTransfer(session: wire.session, sharedContainer: wire.sharedContainer, method: wire.method, url: wire.url,
                                          headers: wire.headers.map { "\($0.name): \($0.value)" }, bytes: bytes)
        let refusal = bytes > room ? RemoteError(domain: NSURLErrorDomain, code: Int64(NSURLErrorDataLengthExceedsMaximum),
                                                 message: "its body (\(bytes) bytes) would pass the run's disk budget, \(max(0, room)) bytes left") : nil
        if let refusal { transfer.error = refusal.description }
        let index: Int? = state.withLock { state in
            guard state.transfers.count < Self.transferRecords else { return nil }
            state.transfers.append(transfer)
            state.endedAt.append(refusal == nil ? nil : ContinuousClock.now)
            if let refusal { state.endings.append((id, 0, refusal)) }
            return state.transfers.count - 1
        }
        guard let index else { throw ProtocolViolation("more than \(Self.transferRecords) background transfers") }
        if refusal != nil { return ended.signal() }
        stored.withLock { $0 += bytes }
        let (uploader, state, ended, running, copying, bodies, programEnded) = (uploader, state, ended, running, copying, bodies, programEnded)
        running.enter()
        copying.enter()
        let task = Task.detached {
            var status: Int?
            var failure: RemoteError?
            if let uploader {
                do {
                    let copy = try await BlockingThreads.run { () throws(SystemError) -> URL in
                        defer { copying.leave() }
                        let directory = try bodies.withLock { directory throws(SystemError) -> URL in
                            if let directory { return directory.url }
                            let made = try TemporaryDirectory(in: Container.root, prefix: "\(Processes.current)-transfers-")
                            directory = made
                            return made.url
                        }
                        let copy = directory.appending(component: "\(index)")
                        try FileCopier.copy(from: body, to: copy)
                        return copy
                    }
                    status = try await uploader(transfer, copy)
                } catch {
                    let cocoa = error as NSError
                    failure = Task.isCancelled
                        ? RemoteError(domain: NSURLErrorDomain, code: Int64(NSURLErrorTimedOut),
                                      message: "still running when the host stopped waiting, \(Self.patience) after the extension ended")
                        : RemoteError(domain: cocoa.domain, code: Int64(cocoa.code), message: "\(error)")
                }
            } else {
                copying.leave()
                failure = RemoteError(domain: NSURLErrorDomain, code: Int64(NSURLErrorNotConnectedToInternet), message: "this host carries no background transfers")
            }
            let programGone = programEnded.withLock { $0 }?() ?? false
            state.withLock { state in
                if programGone { state.processEndedAt = state.processEndedAt ?? ContinuousClock.now }
                state.transfers[index].status = status
                state.transfers[index].error = failure?.description
                state.endedAt[index] = ContinuousClock.now
                state.endings.append((id, Int32(clamping: status ?? 0), failure))
            }
            ended.signal()
            running.leave()
        }
        state.withLock { $0.tasks.append(task) }
    }

    /// Asks `ended` when a transfer ends whether the program has already ended: a transfer that ends after the
    /// process is reported so, however late the supervisor's thread sees the process go.
    func watch(programEnded ended: @escaping @Sendable () -> Bool) {
        programEnded.withLock { $0 = ended }
    }

    /// The transfers that ended since the last time, to tell the process.
    func waiting() -> [(id: UInt32, status: Int32, error: RemoteError?)] {
        ended.drain()
        return state.withLock { state in
            defer { state.endings.removeAll() }
            return state.endings
        }
    }

    /// The process has ended, now.
    func processEnded() {
        state.withLock { $0.processEndedAt = $0.processEndedAt ?? ContinuousClock.now }
    }

    /// Waits up to `patience` for the transfers still running, cancels what is left, and gives each as it ended.
    func finish() async -> [BackgroundTransfer] {
        let running = running
        let whole = await BlockingThreads.run { running.wait(timeout: .now() + .seconds(Int(Self.patience.components.seconds))) == .success }
        if !whole {
            state.withLock { $0.tasks }.forEach { $0.cancel() }
            _ = await BlockingThreads.run { running.wait(timeout: .now() + 5) }
        }
        // No copy runs on into a removed directory.
        let copying = copying
        await BlockingThreads.run { copying.wait() }
        bodies.withLock { $0?.remove() }
        return state.withLock { state in
            zip(state.transfers, state.endedAt).map { transfer, end in
                var transfer = transfer
                if let end, let process = state.processEndedAt { transfer.endedAfterExtension = end - process }
                return transfer
            }
        }
    }
}
