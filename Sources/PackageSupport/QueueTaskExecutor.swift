import Dispatch

/// Runs tasks' jobs on a concurrent dispatch queue of its own rather than on Swift concurrency's cooperative pool:
/// for work a loader must finish whatever else holds the pool's few threads (two on the project's machines), as
/// Apple's item providers run their loaders on queues of their own.
///
/// ```swift
/// Task(executorPreference: QueueTaskExecutor.loaders) { try await exporter(value) }
/// ```
package final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: a dispatch queue is thread-safe; it is the executor's only state.
    private let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    /// The executor item providers' load handlers run their asynchronous work on.
    package static let loaders = QueueTaskExecutor(label: "org.opensharing.loaders")

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
