import Foundation
import PackageSupport

/// Waiting for a host app's answer to a load, which comes once, on a thread of the host's choosing — or never.
///
/// Only the host's silence is timed: once the handler is called, the work done with the answer (a copy
/// of a large file, which must happen before the handler returns) runs to the end, unless the intake is
/// cancelled, which `isCancelled` tells that work.
final class HostAnswer<Value: Sendable>: Sendable {
    /// What came first: the host's answer, or the end of the wait (a timeout, a cancellation).
    private enum Arrival: Sendable {
        case answered
        case abandoned(IntakeError)
    }

    private let arrival = ReplyBox<Arrival>()
    /// What the wait ends with: the work done with the answer, or why the wait was given up.
    private let outcome = ReplyBox<Result<Value, IntakeError>>()
    private let state = Locked<(cancelled: Bool, progress: Progress?)>((false, nil))

    /// Whether the intake was cancelled; work on an answer checks it to stop early.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    private init() {
        arrival.whenResolved { [outcome, state] arrival in
            guard case .abandoned(let error) = arrival else { return }
            outcome.resolve(.failure(error))
            state.withLock { $0.progress }?.cancel()
        }
    }

    /// Asks the host (`start` returns the load's progress, when it has one) and waits at most `timeout` for
    /// the handler, which passes the answer to `answered`.
    static func wait(timeout: Duration, what: String, _ start: (HostAnswer<Value>) -> Progress?) async throws(IntakeError) -> Value {
        let answer = HostAnswer<Value>()
        answer.arrival.resolve(with: .abandoned(IntakeError(.timedOut, "the host app did not answer within \(timeout.formattedSeconds) (\(what))")),
                               after: timeout)
        return try await withTaskCancellationHandler {
            let progress = start(answer)
            answer.state.withLock { $0.progress = progress }
            // Given up while the load was being started: its progress is cancelled now.
            if case .abandoned? = answer.arrival.current { progress?.cancel() }
            return await answer.outcome.value
        } onCancel: {
            answer.state.withLock { $0.cancelled = true }
            answer.arrival.resolve(.abandoned(IntakeError(.cancelled, "cancelled")))
        }.get()
    }

    /// The handler's side: runs `body` with the answer unless the wait was given up, and ends the wait with
    /// what it returns or throws.
    func answered(_ body: () throws(IntakeError) -> Value) {
        guard arrival.resolve(.answered) else { return }
        outcome.resolve(Result { () throws(IntakeError) in try body() })
    }
}

extension Duration {
    var formattedSeconds: String {
        let seconds = self / .seconds(1)
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
