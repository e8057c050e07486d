import ExtensionManifest
public import Foundation
public import OpenExtensionUI
public import OpenItemProvider
import SharingSystem

/// The limits an extension runs under.
public struct ExtensionLimits: Sendable, Equatable {
    /// The most memory the extension may use, in bytes: the footprint of its whole process tree (private dirty
    /// memory plus swap, and the memory files it holds without mapping them).
    public var memory: Int
    /// The most its container may hold, in bytes (what it writes there, and the streams the host drains into
    /// it); also the largest file it may write anywhere.
    public var disk: Int
    /// From launch until the extension is ready for the request.
    public var startup: Duration
    /// From the request until the extension completes or cancels it.
    public var request: Duration
    /// How long the process may keep running after it ended the request.
    public var afterCompletion: Duration
    /// Between the warning that a time budget ran out and the kill.
    public var grace: Duration

    /// The disk budget when none is given: 4 GiB, room for a large share's files.
    public static let defaultDisk = 4 << 30

    public init(memory: Int, disk: Int = ExtensionLimits.defaultDisk, startup: Duration = .seconds(10), request: Duration = .seconds(60),
                afterCompletion: Duration = .seconds(5), grace: Duration = .seconds(1)) {
        self.memory = memory
        self.disk = disk
        self.startup = startup
        self.request = request
        self.afterCompletion = afterCompletion
        self.grace = grace
    }

    /// The limits of an extension point, as Apple's devices apply them: the memory limit `device` is reported to
    /// give the point, else the one developers report for the point (120 MB for share and action extensions,
    /// 24 MB for notification service extensions), 120 MB where none is reported; and the request's time, 30
    /// seconds for a notification ("only about 30 seconds", Apple's "Modifying content in newly delivered
    /// notifications"), else 60. An explicit limit set on the result afterwards wins: one rule everywhere.
    public static func defaults(forExtensionPoint identifier: String, device: DeviceClass? = nil) -> ExtensionLimits {
        let megabytes = ExtensionPoint.named(identifier)?.reportedMemoryLimit?.megabytes ?? 120
        return ExtensionLimits(memory: device?.memoryLimit(forExtensionPoint: identifier) ?? megabytes << 20,
                               request: identifier == DeviceClass.notificationService ? .seconds(30) : .seconds(60))
    }
}

/// How a request ended: exactly one of these, whatever the extension did.
public enum ExtensionOutcome: Sendable {
    /// The extension completed the request, returning these items (loadable here).
    case completed([NSExtensionItem])
    /// The extension cancelled the request with this error (its domain, code and description).
    case cancelled(NSError)
    /// The request ended without the extension ending it.
    case interrupted(InterruptionReason)
}

/// Why a request was interrupted.
public enum InterruptionReason: Sendable, Equatable, CustomStringConvertible {
    /// The extension used more memory than its limit and was killed: the limit and the most it was seen using.
    case memoryLimit(limit: Int, peak: Int)
    /// The extension wrote more than its disk budget and was killed: the limit and what it had used.
    case diskLimit(limit: Int, used: Int)
    /// What the host stores for the extension held more entries, or deeper directories, than the disk meter
    /// walks (`entries`, `depth`): taken as over the disk budget, since the meter cannot say it is not.
    case diskBeyondMeter(entries: Int, depth: Int)
    /// A time budget ran out, the extension was warned, and then killed.
    case timeout(TimeoutPhase)
    /// The extension ended before it ended the request.
    case crashed(ExitStatus)
    /// The extension sent something the protocol does not allow, or stopped reading, and was killed.
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .memoryLimit(let limit, let peak): "over its memory limit of \(megabytes(limit)) (peak \(megabytes(peak)))"
        case .diskLimit(let limit, let used): "over its disk limit of \(megabytes(limit)) (\(megabytes(used)) used)"
        case .diskBeyondMeter(let entries, let depth):
            "more than \(entries) files, or directories more than \(depth) deep, where it stores: past what the disk meter counts, taken as over its disk limit"
        case .timeout(let phase): "out of time (\(phase.rawValue))"
        case .crashed(let status): "\(status) before ending its request"
        case .protocolViolation(let detail): "protocol violation: \(detail)"
        }
    }
}

/// The runtime's one word for how a request ended, which every report uses (`sharing run --json`, and the
/// commands built on it): one status per request.
public enum ExtensionStatus: String, Sendable, Equatable, CaseIterable, Codable {
    case completed
    case cancelled
    case interruptedMemory = "interrupted-memory"
    case interruptedTimeout = "interrupted-timeout"
    case interruptedDisk = "interrupted-disk"
    case crashed
    case protocolViolation = "protocol-violation"
    /// The extension's activation rule hides it for the share: the system would not offer it.
    case notActivated = "not-activated"
}

/// The time budget that ran out.
public enum TimeoutPhase: String, Sendable, Equatable, Codable {
    case startup
    case request
    case afterCompletion = "after completion"
}

/// How a process ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    public var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signalled(let signal): "killed by signal \(signal) (\(signalName(signal)))"
        }
    }
}

/// How a representation crossed between host and extension.
public enum LoadForm: String, Sendable, Equatable, Codable {
    /// Bytes: inline, or in a sealed memory file.
    case data
    /// A file, as a descriptor.
    case file
    /// An object (a URL, a string, a property list, an image).
    case item
    /// A file of unknown length (a FIFO or device in the host), crossing as a pipe: its size is known once it
    /// has ended.
    case stream
}

/// One load the extension asked for, or one representation it returned.
public struct ExtensionLoad: Sendable, Equatable {
    public var typeIdentifier: String
    /// How the representation was loaded.
    public var form: LoadForm
    /// The bytes handed over, when known.
    public var size: Int?
    /// Why it failed, if it did.
    public var failure: String?

    public init(typeIdentifier: String, form: LoadForm, size: Int? = nil, failure: String? = nil) {
        self.typeIdentifier = typeIdentifier
        self.form = form
        self.size = size
        self.failure = failure
    }
}

/// What held the extension, as the kernel allowed it.
public struct ExtensionSandbox: Sendable, Equatable, CustomStringConvertible {
    /// Whether the process tree had a PID namespace of its own (else its init was a subreaper: descendants are
    /// found and killed, but one that outlives a killed host may escape).
    public var pidNamespace: Bool
    /// The kernel's Landlock ABI: 0 none; from 1 the extension writes only in its container and app groups and
    /// executes only its bundle's and the system's programs; from 6 it signals and reaches abstract sockets only
    /// among its own processes.
    public var landlock: Int

    public var description: String {
        var parts = [pidNamespace ? "a PID namespace of its own" : "a subreaper (no PID namespace allowed)"]
        if landlock >= 1 {
            parts.append("Landlock ABI \(landlock): writes in its container and app groups only"
                         + (landlock >= 6 ? ", signals and abstract sockets among its own processes only" : ""))
        } else {
            parts.append("no Landlock (the kernel has none)")
        }
        parts.append("no capabilities")
        return parts.joined(separator: "; ")
    }
}

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
        }
    }

    /// The words a person reads: why it was cancelled or interrupted; `nil` when it completed.
    public var reason: String? {
        switch outcome {
        case .completed: nil
        case .cancelled(let error): "\(error.domain) \(error.code): \(error.localizedDescription)"
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
