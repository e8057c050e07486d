package import Foundation

/// A `Progress` that may be updated, cancelled and linked from any thread, as Apple's is.
///
/// swift-corelibs-foundation's `Progress` takes no lock: when two children of one parent finish on two
/// threads, both remove themselves from the parent's set of children at once, which corrupts the set, and
/// the process crashes later, when the tree is released. Every `Progress` OpenSharing makes is this class,
/// whose changes all hold one process-wide lock — recursive, because cancelling a parent cancels its
/// children. Updates are a few per megabyte copied, so the lock is never contended for long.
package final class SynchronizedProgress: Progress, @unchecked Sendable {
    private static let lock = NSRecursiveLock()

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

    override package func cancel() {
        Self.lock.withLock { super.cancel() }
    }

    override package func pause() {
        Self.lock.withLock { super.pause() }
    }

    override package func resume() {
        Self.lock.withLock { super.resume() }
    }
}
