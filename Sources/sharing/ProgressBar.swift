import Foundation
import SharingSystem

/// A one-line progress bar on standard error, redrawn ten times a second.
// @unchecked: its mutable state is only touched under its lock.
final class ProgressBar: @unchecked Sendable {
    /// A bar for `progress`, when standard error is a terminal to draw it on.
    static func onTerminal(_ progress: Progress) -> ProgressBar? {
        Terminal.standardErrorIsInteractive ? ProgressBar(progress) : nil
    }

    private let progress: Progress
    private let timer: any DispatchSourceTimer

    init(_ progress: Progress) {
        self.progress = progress
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now(), repeating: .milliseconds(100))
        timer.setEventHandler { [progress] in Self.draw(progress.fractionCompleted) }
        timer.resume()
    }

    func finish() {
        timer.cancel()
        Output.redraw("")
    }

    private static func draw(_ fraction: Double) {
        let width = 30, filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: max(0, min(width, filled))) + String(repeating: " ", count: max(0, width - filled))
        Output.redraw("receiving [\(bar)] \(Int(fraction * 100))%")
    }
}
