import Foundation

/// Waiting for a host app's answer to a load, which comes once, on a thread of the host's choosing — or never.
///
/// Only the host's silence is timed: once the handler is called, the work done with the answer (a copy
/// of a large file, which must happen before the handler returns) runs to the end, unless the intake is
/// cancelled, which `isCancelled` tells that work.
final class HostAnswer<Value: Sendable>: @unchecked Sendable {
    private enum State {
        case waiting(CheckedContinuation<Result<Value, IntakeError>, Never>?)
        case answering
        case ended
    }

    private let lock = NSLock()
    private var state = State.waiting(nil)
    private var cancelled = false
    /// Why the wait was given up (a timeout, a cancellation), once it was.
    private var abandonment: IntakeError?
    private var progress: Progress?

    /// Whether the intake was cancelled; work on an answer checks it to stop early.
    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Asks the host (`start` returns the load's progress, when it has one) and waits at most `timeout` for
    /// the handler, which passes the answer to `answered`.
    static func wait(timeout: Duration, what: String, _ start: (HostAnswer<Value>) -> Progress?) async throws(IntakeError) -> Value {
        let answer = HostAnswer<Value>()
        let timer = Task {
            try await Task.sleep(for: timeout)
            answer.abandon(with: IntakeError(.timedOut, "the host app did not answer within \(timeout.formattedSeconds) (\(what))"))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let abandoned = answer.lock.withLock { () -> IntakeError? in
                    if let abandonment = answer.abandonment {
                        answer.state = .ended
                        return abandonment
                    }
                    answer.state = .waiting(continuation)
                    return nil
                }
                if let abandoned { return continuation.resume(returning: .failure(abandoned)) }
                let progress = start(answer)
                let cancelNow = answer.lock.withLock { () -> Bool in
                    answer.progress = progress
                    return answer.abandonment != nil
                }
                if cancelNow { progress?.cancel() }
            }
        } onCancel: {
            answer.lock.withLock { answer.cancelled = true }
            answer.abandon(with: IntakeError(.cancelled, "cancelled"))
        }.get()
    }

    /// The handler's side: runs `body` with the answer unless the wait was given up, and ends the wait with
    /// what it returns or throws.
    func answered(_ body: () throws(IntakeError) -> Value) {
        let continuation: CheckedContinuation<Result<Value, IntakeError>, Never>? = lock.withLock {
            guard case .waiting(let continuation?) = state else { return nil }
            state = .answering
            return continuation
        }
        guard let continuation else { return }
        let result = Result { () throws(IntakeError) in try body() }
        lock.withLock { state = .ended }
        continuation.resume(returning: result)
    }

    private func abandon(with error: IntakeError) {
        let (continuation, progress) = lock.withLock { () -> (CheckedContinuation<Result<Value, IntakeError>, Never>?, Progress?) in
            guard case .waiting(let continuation) = state else { return (nil, nil) }
            if abandonment == nil { abandonment = error }
            if continuation != nil { state = .ended }
            return (continuation, self.progress)
        }
        progress?.cancel()
        continuation?.resume(returning: .failure(error))
    }
}

extension Duration {
    var formattedSeconds: String {
        let seconds = self / .seconds(1)
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
