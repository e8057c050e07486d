public import Foundation
public import OpenCombine
import PackageSupport

extension RunLoop {
    /// Options a run loop schedules with; it has none to set. Stands in for Foundation's `RunLoop.SchedulerOptions`.
    public struct SchedulerOptions: Sendable {}
}

extension Timer {
    /// A publisher of the date every `interval` seconds on `runLoop` in `mode`, once connected.
    ///
    /// Stands in for Foundation's `Timer.publish(every:tolerance:on:in:options:)`, this module's over OpenCombine
    /// as `NotificationCenter.publisher(for:object:)` is.
    public static func publish(every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
                               options: RunLoop.SchedulerOptions? = nil) -> Timer.TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// A timer that publishes once connected (`connect()`, or `autoconnect()` at the first subscriber), to every
    /// subscriber with demand; a tick a subscriber has no demand for is dropped.
    ///
    /// Stands in for Foundation's `Timer.TimerPublisher`.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        public typealias Output = Date
        public typealias Failure = Never

        /// Stands in for `Timer.TimerPublisher.interval`.
        public let interval: TimeInterval
        /// Stands in for `Timer.TimerPublisher.tolerance`.
        public let tolerance: TimeInterval?
        /// Stands in for `Timer.TimerPublisher.runLoop`.
        public let runLoop: RunLoop
        /// Stands in for `Timer.TimerPublisher.mode`.
        public let mode: RunLoop.Mode
        /// Stands in for `Timer.TimerPublisher.options`.
        public let options: RunLoop.SchedulerOptions?

        private struct State {
            var subscriptions: [DroppingSubscription<Date>] = []
            var timer: Timer?
        }
        private let state = Locked(State())

        /// Stands in for `Timer.TimerPublisher.init(interval:tolerance:runLoop:mode:options:)`.
        public init(interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
                    options: RunLoop.SchedulerOptions? = nil) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            let subscription = DroppingSubscription<Date>(AnySubscriber(subscriber))
            subscription.whenCancelled { [weak self, weak subscription] in
                self?.state.withLock { $0.subscriptions.removeAll { $0 === subscription } }
            }
            state.withLock { $0.subscriptions.append(subscription) }
            subscriber.receive(subscription: subscription)
        }

        /// Starts the timer on its run loop; cancelling what this returns stops it. Stands in for
        /// `Timer.TimerPublisher.connect()`.
        public func connect() -> any Cancellable {
            let timer = Timer(timeInterval: interval, repeats: true) { [weak self] _ in self?.tick() }
            if let tolerance { timer.tolerance = tolerance }
            let started = state.withLock { state in
                guard state.timer == nil else { return false }
                state.timer = timer
                return true
            }
            if started { runLoop.add(timer, forMode: mode) }
            return AnyCancellable { [weak self] in
                let timer = self?.state.withLock { state in
                    defer { state.timer = nil }
                    return state.timer
                }
                timer?.invalidate()
            }
        }

        private func tick() {
            let now = Date()
            for subscription in state.withLock({ $0.subscriptions }) { subscription.send(now) }
        }
    }
}
