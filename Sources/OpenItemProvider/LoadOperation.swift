import Foundation
import SharingSystem

/// What a load produced, before the consumer sees it.
enum LoadedValue: @unchecked Sendable {
    case data(Data)
    /// A file; `temporary` is the directory made for a copy, removed once the consumer's handler returns.
    case file(URL, openedInPlace: Bool, temporary: TemporaryDirectory?)
    /// An object from a legacy item or an object representation, as registered.
    case item(any NSSecureCoding)
}

/// One load: delivers exactly once — the value, an error, or the cancellation error, whichever comes
/// first — and accounts its progress in stages (the provider's loader, then any copying OpenSharing does).
final class LoadOperation: @unchecked Sendable {
    let progress = SynchronizedProgress(totalUnitCount: 100)
    private let lock = NSLock()
    private var finished = false
    private let deliver: @Sendable (Result<LoadedValue, NSError>) -> Void
    /// A child that exists only to hear about cancellation (the consumer may set the progress's own
    /// `cancellationHandler`; this one stays ours).
    private let watcher = SynchronizedProgress(totalUnitCount: 1)
    private var loaderStage: Progress?
    private var loaderProgress: Progress?
    private var loaderEnded = false

    init(deliver: @escaping @Sendable (Result<LoadedValue, NSError>) -> Void) {
        self.deliver = deliver
        progress.addChild(watcher, withPendingUnitCount: 0)
        watcher.cancellationHandler = { self.finish(.failure(NSItemProvider.cancellationError)) }
    }

    var isCancelled: Bool { progress.isCancelled }

    /// Delivers `result` unless something was delivered already; a file made for the consumer is removed
    /// after its handler returns, or at once when the load already ended.
    @discardableResult
    func finish(_ result: Result<LoadedValue, NSError>) -> Bool {
        lock.lock()
        let first = !finished
        finished = true
        lock.unlock()
        if first {
            watcher.cancellationHandler = nil
            deliver(result)
        }
        if case .success(.file(_, _, let temporary?)) = result { temporary.remove() }
        return first
    }

    func fail(_ error: NSError) {
        finish(.failure(error))
    }

    /// Starts the stage of the provider's loader, worth `share` of the 100 units.
    func beginLoaderStage(share: Int64) {
        let stage = SynchronizedProgress(totalUnitCount: 1)
        progress.addChild(stage, withPendingUnitCount: share)
        lock.lock()
        loaderStage = stage
        lock.unlock()
    }

    /// Links the progress a loader returned into the loader stage: its fraction shows, and cancelling the
    /// load cancels it.
    func attachLoaderProgress(_ returned: Progress?) {
        guard let returned, let stage = lock.withLock({ loaderStage }) else { return }
        // A loader that called back before returning has had its stage counted already.
        let ended = lock.withLock { () -> Bool in
            loaderProgress = returned
            return loaderEnded
        }
        stage.addChild(returned, withPendingUnitCount: ended ? 0 : 1)
    }

    /// The loader called back: its stage is complete, whatever its own progress says. Without a progress
    /// of its own, the synthesized stage goes from 0 to done here.
    func endLoaderStage() {
        guard let stage = lock.withLock({ loaderStage }) else { return }
        let attached = lock.withLock { () -> Progress? in
            loaderEnded = true
            return loaderProgress
        }
        if let returned = attached {
            if returned.totalUnitCount <= 0 { returned.totalUnitCount = 1 }
            if returned.completedUnitCount < returned.totalUnitCount { returned.completedUnitCount = returned.totalUnitCount }
        } else {
            stage.completedUnitCount = stage.totalUnitCount
        }
    }

    /// A stage of `total` bytes of OpenSharing's own work (copying, writing, reading), worth `share` units.
    func beginStage(share: Int64, total: Int64) -> Progress {
        let stage = SynchronizedProgress(totalUnitCount: max(total, 1))
        progress.addChild(stage, withPendingUnitCount: share)
        return stage
    }
}
