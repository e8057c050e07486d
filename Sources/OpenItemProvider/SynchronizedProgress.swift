package import Foundation

/// A `Progress` that may be updated, cancelled and linked from any thread, as Apple's is.
///
/// swift-corelibs-foundation's `Progress` takes no lock: when two children of one parent finish on two
/// threads, both remove themselves from the parent's set of children at once, which corrupts the set, and
/// the process crashes later, when the tree is released. Every `Progress` OpenSharing makes is this class,
/// whose changes all hold one process-wide lock — recursive, because cancelling a parent cancels its
/// children. Updates are a few per megabyte copied, so the lock is never contended for long.
// @unchecked: every change holds one process-wide lock (above).
package final class SynchronizedProgress: Progress, @unchecked Sendable {
    private static let lock = NSRecursiveLock()

    /// A progress of `totalUnitCount` units that, unlike `init(totalUnitCount:)`, does not look up the calling
    /// thread's current progress to join it: for the parts inside one operation, whose parent is its own.
    package convenience init(detachedTotal totalUnitCount: Int64) {
        self.init(parent: nil, userInfo: nil)
        self.totalUnitCount = totalUnitCount
    }

    override package var totalUnitCount: Int64 {
        get { Self.lock.withLock { super.totalUnitCount } }
        set { Self.lock.withLock { super.totalUnitCount = newValue } }
    }

    override package var completedUnitCount: Int64 {
        get { Self.lock.withLock { super.completedUnitCount } }
        set { Self.lock.withLock { super.completedUnitCount = newValue } }
    }

    override package var isCancelled: Bool {
        get { Self.lock.withLock { super.isCancelled } }
        set { Self.lock.withLock { super.isCancelled = newValue } }
    }

    override package var cancellationHandler: (@Sendable () -> Void)? {
        get { Self.lock.withLock { super.cancellationHandler } }
        set { Self.lock.withLock { super.cancellationHandler = newValue } }
    }

    override package func addChild(_ child: Progress, withPendingUnitCount inUnitCount: Int64) {
        Self.lock.withLock { super.addChild(child, withPendingUnitCount: inUnitCount) }
    }

    /// Called once the progress is cancelled, directly or through its parent, besides its
    /// `cancellationHandler`, which belongs to whoever holds the progress.
    package var cancellationObserver: (@Sendable () -> Void)? {
        get { Self.lock.withLock { observer } }
        set { Self.lock.withLock { observer = newValue } }
    }

    private var observer: (@Sendable () -> Void)?

    override package func cancel() {
        let observer = Self.lock.withLock { () -> (@Sendable () -> Void)? in
            super.cancel()
            return self.observer
        }
        observer?()
    }

    override package func pause() {
        Self.lock.withLock { super.pause() }
    }

    override package func resume() {
        Self.lock.withLock { super.resume() }
    }
}
