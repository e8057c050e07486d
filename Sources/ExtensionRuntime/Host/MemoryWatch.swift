import Foundation
import PackageSupport
import SharingSystem

/// The extension's memory, read on a thread of its own whatever the supervisor is doing — a disk walk of a
/// hundred thousand links, a slow message — so that no limit is judged late by more than one reading: the
/// resident memory every few milliseconds (longer as the tree grows: its reading stays under a tenth of the time),
/// and the footprint when the resident memory passes the peak seen so far by a step, or nears the limit, and so
/// before any kill, or every 50 ms for what only the footprint sees. Over the limit, the watch ends the tree at
/// once and says so (`exceeded`); the supervisor then reads what the extension had sent before and gives the
/// outcome: a completion counts when a reading begun after it was sent found the tree within (`wasOver`).
final class MemoryWatch: Sendable {
    /// Signalled once the tree went over the limit and was ended.
    let exceeded: Wakeup
    private let tree: ProcessTree
    private let limit: Int
    /// What an empty extension already uses on the device played, added to every reading of the footprint.
    private let baseline: Int
    /// The memory files the host gave the extension (by inode), which its footprint counts once it maps them.
    private let given: @Sendable () -> Set<UInt64>
    private let state: Locked<State>

    private struct State {
        var peak = 0
        /// The peak since `resetRequestPeak()`: a notification's.
        var requestPeak = 0
        var over = false
        /// When the latest reading that found the tree within the limit began, by `PacketChannel.clock()`.
        var withinAt: Int64 = 0
        var stopped = false
        /// When the footprint was last walked, and how often the resident memory is read.
        var walkedAt: ContinuousClock.Instant
        var interval: Duration
    }

    /// How often the resident memory is read: at 500 MB/s an allocation grows 2.5 MB in that time.
    static let interval: Duration = .milliseconds(5)
    /// How often the footprint is walked when the resident memory does not call for it: what only the footprint
    /// sees (dirty pages of shared file mappings, memory files nobody maps) is caught this late.
    static let footprintInterval: Duration = .milliseconds(50)
    /// Programs whose memory is not the extension's: Swift's crash reporter, which a crashing Swift program
    /// starts, as iOS reports crashes from outside the extension.
    static let systemPrograms: Set<String> = ["swift-backtrace"]

    init(_ tree: ProcessTree, limit: Int, baseline: Int, given: @escaping @Sendable () -> Set<UInt64>) throws(SystemError) {
        exceeded = try Wakeup()
        self.tree = tree
        self.limit = limit
        self.baseline = baseline
        self.given = given
        state = Locked(State(walkedAt: ContinuousClock.now - .seconds(1), interval: Self.interval))
        Thread { [self] in
            while !state.withLock({ $0.stopped || $0.over }) {
                measure()
                Thread.sleep(forTimeInterval: state.withLock { $0.interval }.inSeconds)
            }
        }.start()
    }

    /// The most the tree was seen using, in bytes, and since the last `resetRequestPeak()`.
    var peak: Int { state.withLock { $0.peak } }
    var requestPeak: Int { state.withLock { $0.requestPeak } }
    /// Whether the tree went over the limit (and was ended).
    var isOver: Bool { state.withLock { $0.over } }

    /// Whether the tree was over the limit as it sent a message the kernel stamped `sentAt`: over, and no reading
    /// begun since the message was sent found it within. Right within a reading either way, however late the
    /// message is read: memory taken after a completion was sent does not undo the completion.
    func wasOver(whenSent sentAt: Int64) -> Bool {
        state.withLock { $0.over && $0.withinAt < sentAt }
    }

    func resetRequestPeak() {
        state.withLock { $0.requestPeak = 0 }
    }

    /// Stops the watch's thread (the tree has ended).
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Reads the memory now (`exactly`: the footprint, whatever the resident memory says: as the extension ends
    /// its request), and ends the tree if it is over the limit. One reading at a time.
    func measure(exactly: Bool = false) {
        let start = ContinuousClock.now
        let resident = tree.residentMemory(ignoring: Self.systemPrograms)
        let (peak, walkedAt) = state.withLock { state in
            state.interval = min(max(Self.interval, (ContinuousClock.now - start) * 10), Self.footprintInterval)
            return (state.peak, state.walkedAt)
        }
        // The walk when the resident memory has grown a step past the peak, or nears the limit, so that a process
        // starting up (growing all the time) is not walked at every reading.
        let step = max(1 << 20, limit / 64)
        guard exactly || resident >= peak + step || resident > limit - limit / 4 || start - walkedAt >= Self.footprintInterval else { return }
        // When this reading of the footprint begins, as packets are stamped: what it finds within, it found after this.
        let stamp = PacketChannel.clock()
        // As the device counts it: what an empty extension already uses there is charged too.
        let footprint = tree.footprint(excluding: given(), ignoring: Self.systemPrograms) + baseline
        let over = state.withLock { state -> Bool in
            state.walkedAt = start
            state.peak = max(state.peak, footprint)
            state.requestPeak = max(state.requestPeak, footprint)
            if footprint <= limit { state.withinAt = max(state.withinAt, stamp) }
            guard footprint > limit, !state.over else { return false }
            state.over = true
            return true
        }
        if over {
            tree.kill()
            exceeded.signal()
        }
    }
}
