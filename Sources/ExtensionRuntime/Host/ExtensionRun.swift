public import Foundation
public import OpenExtensionUI

/// What came of running one request.
public struct ExtensionRun: Sendable {
    public var outcome: ExtensionOutcome
    /// The loads the extension asked for, in order.
    public var loads: [ExtensionLoad]
    /// What the extension returned when it completed: each representation of each attachment, in order, with its
    /// size when the message said it (data, files), read from its descriptor, never from its bytes.
    public var returned: [ExtensionLoad]
    /// The URLs the extension asked the host to open (the first thousand).
    public var openedURLs: [URL]
    /// The most memory the extension's process tree was seen using, in bytes.
    public var peakFootprint: Int
    /// What the extension wrote to its standard output and error (the last 64 KiB).
    public var log: String
    /// How the process ended (after the request ended, or when it was interrupted).
    public var exitStatus: ExitStatus?
    /// What held the extension.
    public var sandbox: ExtensionSandbox
    /// The alerts the extension presented, and what the scripted user did with each (the first hundred).
    public var alerts: [PresentedAlert] = []
    /// How long the process lived after it ended the request (work after completion), when it did end it.
    public var livedAfterCompletion: Duration?
    /// Whether the time after completion ran out with the process still at work: its expiring activities were
    /// told so, and the host ended it if it did not end within the grace.
    public var afterCompletionExpired = false
    /// How long the extension's requests ran, start to end, and how much of that the machine kept it waiting
    /// for a core: time its budgets did not charge it (an OpenSharing addition; a device's cores wait for no
    /// other build).
    public var requestTime: Duration = .zero
    public var waitedForCore: Duration = .zero
    /// What the runtime found beside the outcome: a request ended twice, a program not optimised.
    public var findings: [Finding] = []
    /// What the scripted user tapped, in order: the system compose sheet's `Post` and `Cancel`; on a sheet the
    /// extension built, `row SECTION.ROW`, `item SECTION.ITEM`, `button "TITLE"`, `bar item "TITLE"` or `bar item done` (at most 64).
    public var taps: [String] = []
    /// The names the extension posted to the Darwin notify center (`CFNotificationCenterPostNotification`), in
    /// order: how an extension tells its app that something arrived.
    public var posted: [String] = []
    /// The interactions the extension donated (`INInteraction.donate`), in order: the intent's class, the
    /// direction, a message's sender and group.
    public var donated: [String] = []
    /// The network stream (TCP) connections the extension opened, in order, each `host:port` (the first
    /// thousand), where the host saw its connections (`ExtensionSandbox.connectionsSeen`): those to this
    /// machine's loopback made, any other refused at once.
    public var connections: [String] = []
    /// The host names the extension looked up (its DNS queries), in order (the first thousand): each refused at
    /// once, as the extension's network is this machine's loopback alone.
    public var lookups: [String] = []
    /// The uploads its background sessions handed to the host, in order, each as it ended.
    public var backgroundTransfers: [BackgroundTransfer] = []

    /// The outcome in the runtime's one vocabulary.
    public var status: ExtensionStatus {
        switch outcome {
        case .completed: .completed
        case .cancelled: .cancelled
        case .interrupted(.memoryLimit): .interruptedMemory
        case .interrupted(.diskLimit), .interrupted(.diskBeyondMeter): .interruptedDisk
        case .interrupted(.timeout): .interruptedTimeout
        case .interrupted(.crashed): .crashed
        case .interrupted(.protocolViolation): .protocolViolation
        case .interrupted(.stuck): .stuck
        }
    }

    /// The words a person reads: why it was cancelled or interrupted; `nil` when it completed.
    public var reason: String? {
        switch outcome {
        case .completed: nil
        case .cancelled(let error): "\(error.domain) \(error.code): \(error.localizedDescription)"
        case .interrupted(.timeout(.request)) where taps.last == "Post":
            "out of time (request): Post was tapped and the request was never ended (didSelectPost() must complete or cancel it)"
        case .interrupted(let reason): reason.description
        }
    }

    /// The extension's last words, from its log: its last `count` lines; or, when Swift's backtracer wrote a
    /// crash report, what the program said before it, the crash's line, and the top frames of the thread that
    /// crashed (registers and images left out).
    public func lastWords(lines count: Int = 20) -> [String] {
        var lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let crash = lines.firstIndex(where: { $0.hasPrefix("*** Program crashed:") || $0.hasPrefix("💣 Program crashed:") }) else {
            return Array(lines.suffix(count))
        }
        let signal = lines[..<crash].lastIndex { $0.hasPrefix("*** Signal") } ?? crash
        let before = lines[..<signal].filter { !$0.isEmpty }.suffix(max(1, count / 2))
        var frames: [String] = []
        if let thread = lines[crash...].firstIndex(where: { $0.hasSuffix(" crashed:") }) {
            let stack = lines[(thread + 1)...].drop { $0.isEmpty }
            frames = [lines[thread]] + stack.prefix { !$0.isEmpty && !$0.hasPrefix("Registers") }.prefix(8)
        }
        return Array(before) + [lines[crash]] + frames
    }
}

func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
}
