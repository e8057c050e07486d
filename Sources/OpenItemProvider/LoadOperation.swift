import Foundation
import PackageSupport
import SharingSystem

/// What a load produced, before the consumer sees it.
// @unchecked: it holds a loaded Foundation object, handed to one consumer.
enum LoadedValue: @unchecked Sendable {
    case data(Data)
    /// A file; `temporary` is the directory made for a copy, removed once the consumer's handler returns.
    case file(URL, openedInPlace: Bool, temporary: TemporaryDirectory?)
    /// An object from a legacy item or an object representation, as registered.
    case item(any NSSecureCoding)
}

/// One load: delivers exactly once — the value, an error, or the cancellation error, whichever comes
/// first — and accounts its progress in stages (the provider's loader, then any copying OpenSharing does).
///
/// A load of a few bytes is as cheap as it can be: one progress object, and the loader's own if it returns
/// one, which becomes the load's child for the loader's share of the units.
// @unchecked: its mutable state is only touched under its lock; its one result is a ReplyBox.
final class LoadOperation: @unchecked Sendable {
    let progress = SynchronizedProgress(totalUnitCount: 100)
    /// The one result: the loader's, or the cancellation's, whichever comes first.
    private let result = ReplyBox<Result<LoadedValue, NSError>>()
    private let lock = NSLock()
    /// The loader's share of the units, and what it returned and whether it called back, in either order.
    private var loaderShare: Int64 = 0
    private var loaderProgress: Progress?
    private var loaderEnded = false

    init(deliver: @escaping @Sendable (Result<LoadedValue, NSError>) -> Void) {
        result.whenResolved { [progress] _ in progress.cancellationObserver = nil }
        result.whenResolved(deliver)
        // Not the progress's cancellationHandler: the consumer may set that one. The cancellation error is
        // delivered on another thread, as every answer is: never inside the consumer's call to cancel(), where
        // its completion handler could need a lock the consumer holds.
        progress.cancellationObserver = { [result] in
            BlockingThreads.submit { result.resolve(.failure(NSItemProvider.cancellationError)) }
        }
    }

    var isCancelled: Bool { progress.isCancelled }

    /// Delivers `result` unless something was delivered already; a file made for the consumer is removed
    /// after its handler returns, or at once when the load already ended.
    @discardableResult
    func finish(_ result: Result<LoadedValue, NSError>) -> Bool {
        let first = self.result.resolve(result)
        if case .success(.file(_, _, let temporary?)) = result { temporary.remove() }
        return first
    }

    func fail(_ error: NSError) {
        finish(.failure(error))
    }

    /// Starts the stage of the provider's loader, worth `share` of the 100 units.
    func beginLoaderStage(share: Int64) {
        lock.withLock { loaderShare = share }
    }

    /// Links the progress a loader returned into the load for the loader's share: its fraction shows, and
    /// cancelling the load cancels it.
    func attachLoaderProgress(_ returned: Progress?) {
        guard let returned else { return }
        // A loader that called back before returning has had its share counted already.
        let (ended, share) = lock.withLock { () -> (Bool, Int64) in
            loaderProgress = returned
            return (loaderEnded, loaderShare)
        }
        progress.addChild(returned, withPendingUnitCount: ended ? 0 : share)
    }

    /// The loader called back: its share is complete, whatever its own progress says; without a progress of
    /// its own, its share goes from 0 to done here.
    func endLoaderStage() {
        let (attached, share) = lock.withLock { () -> (Progress?, Int64) in
            loaderEnded = true
            return (loaderProgress, loaderShare)
        }
        if let returned = attached {
            if returned.totalUnitCount <= 0 { returned.totalUnitCount = 1 }
            if returned.completedUnitCount < returned.totalUnitCount { returned.completedUnitCount = returned.totalUnitCount }
        } else {
            progress.completedUnitCount += share
        }
    }

    /// A stage of `total` bytes of OpenSharing's own work (copying, writing, reading), worth `share` units.
    func beginStage(share: Int64, total: Int64) -> Progress {
        let stage = SynchronizedProgress(detachedTotal: max(total, 1))
        progress.addChild(stage, withPendingUnitCount: share)
        return stage
    }
}
