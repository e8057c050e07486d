import Foundation
import PackageSupport
import SharingSystem

/// One disk budget for everything the host stores or holds on disk for a run: the container the extension
/// writes in, the host's copies made for its loads, the growth of the app group containers it was given (what
/// they held before the run is not its), and the attachments the host moved into a notification data store for
/// it (counted exactly, as the host writes them: `hostStored`). Measured by walking, on a thread of the
/// platform layer's, never by the caller: as writes happen (`writes`, a watch of the places walked) and on the
/// caller's clock; `measured` is signalled when a measurement is done. A walk that reaches a limit (entries,
/// depth) counts as over budget, so nothing is hidden past it.
final class DiskMeter: Sendable {
    /// The most entries one measurement walks in each place.
    static let entryLimit = 200_000
    /// The deepest directory one measurement enters.
    static let depthLimit = 256

    private let places: [(url: URL, baseline: Int)]
    private struct State {
        var measured = 0
        var reachedLimit = false
        var measuring = false
        /// Bytes the disk gate let files grow by, in all (`grant`).
        var granted = 0
        /// What `granted` was when the walk that gave `measured` began: what was granted since may not be in it.
        var grantedAtMeasured = 0
    }

    private let state = Locked(State())
    /// How long the last walk took.
    private let lastWalk = Locked<Duration>(.zero)
    /// The longest walk a caller's thread is asked to wait for.
    static let quickWalk: Duration = .milliseconds(2)
    /// What the host has written for the extension outside the places walked (a data store's attachments).
    /// What the host stores for the extension, each source counted exactly as it writes it.
    private let stored: [Locked<Int>]

    /// Readable when something was written in the places walked: measure.
    let writes: WriteWatch
    /// Signalled when a measurement started by `measure()` is done.
    let measured: Wakeup

    /// A meter of `walked` (each as it grows from now: what it holds now is its baseline) and of what the host
    /// records in `hostStored`.
    ///
    /// - Throws: `SystemError` when the places cannot be watched.
    init(walked: [URL], hostStored: [Locked<Int>]) throws(SystemError) {
        let now = FileSystem.diskUsage(of: walked, entryLimit: Self.entryLimit, depthLimit: Self.depthLimit)
        places = zip(walked, now).map { url, usage in (url, usage.bytes) }
        stored = hostStored
        writes = try WriteWatch(walked)
        measured = try Wakeup()
    }

    private var storedByHost: Int { stored.reduce(0) { $0 + $1.withLock { $0 } } }

    /// The bytes used as last measured, with what the host has stored since.
    var used: Int {
        state.withLock { $0.measured } + storedByHost
    }

    /// The bytes used as last measured, with what the host has stored since and what the disk gate let files
    /// grow by since that measurement began (some of which it may have counted already: never less than used).
    var usedWithGranted: Int {
        state.withLock { $0.measured + $0.granted - $0.grantedAtMeasured } + storedByHost
    }

    /// Counts `bytes` the disk gate let a file grow by, before they land.
    func grant(_ bytes: Int) {
        state.withLock { $0.granted += bytes }
    }

    /// The last measurement stopped at a limit: more is there than it counted.
    var reachedLimit: Bool { state.withLock { $0.reachedLimit } }

    /// Starts a measurement on a thread of the platform layer's, unless one is running.
    func measure() {
        let start = state.withLock { state in
            defer { state.measuring = true }
            return state.measuring ? nil : state.granted
        }
        guard let tag = start else { return }
        BlockingThreads.submit { [self] in
            let (total, limited) = walk()
            state.withLock { state in
                state.measured = total
                state.reachedLimit = limited
                state.measuring = false
                state.grantedAtMeasured = tag
            }
            measured.signal()
        }
    }

    /// Measures on this thread, now; the bytes used, with what the host has stored, as the walk found them. When
    /// a verdict is about to be given (the request ends, the process has ended), `keepingPeak`, so that nothing
    /// written since the last measurement escapes it and a removal since does not hide what was there; for the
    /// disk gate, as they are (less than before, when the extension removed files). What was granted before now
    /// is counted in the result but for writes still on their way.
    @discardableResult
    func measureHere(keepingPeak: Bool) -> Int {
        let tag = state.withLock { $0.granted }
        let (total, limited) = walk()
        state.withLock { state in
            if !keepingPeak || total >= state.measured {
                state.measured = total
                state.grantedAtMeasured = tag
            }
            state.reachedLimit = state.reachedLimit || limited
        }
        return total + storedByHost
    }

    /// Whether the last walk was quick enough to make on a caller's thread.
    var isQuick: Bool { lastWalk.withLock { $0 } <= Self.quickWalk }

    private func walk() -> (bytes: Int, reachedLimit: Bool) {
        let start = ContinuousClock.now
        defer { lastWalk.withLock { $0 = ContinuousClock.now - start } }
        var total = 0
        var limited = false
        let usages = FileSystem.diskUsage(of: places.map(\.url), entryLimit: Self.entryLimit, depthLimit: Self.depthLimit)
        for (place, usage) in zip(places, usages) {
            total += max(0, usage.bytes - place.baseline)
            limited = limited || usage.reachedLimit
        }
        return (total, limited)
    }
}
