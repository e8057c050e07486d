import Foundation

/// A value behind an `NSLock`: a pthread mutex, which the thread sanitizer understands (it does not see the
/// futex under Synchronization's `Mutex` on Linux, and reports races that are not there).
// @unchecked: its mutable state is only touched under its lock.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
