import ExtensionManifest
public import Foundation
public import OpenItemProvider

/// The limits an extension runs under.
public struct ExtensionLimits: Sendable, Equatable {
    /// The most memory the extension may use, in bytes: private dirty memory plus swap.
    public var memory: Int
    /// From launch until the extension is ready for the request.
    public var startup: Duration
    /// From the request until the extension completes or cancels it.
    public var request: Duration
    /// How long the process may keep running after it ended the request.
    public var afterCompletion: Duration
    /// Between the warning that a time budget ran out and the kill.
    public var grace: Duration

    public init(memory: Int, startup: Duration = .seconds(10), request: Duration = .seconds(60),
                afterCompletion: Duration = .seconds(5), grace: Duration = .seconds(1)) {
        self.memory = memory
        self.startup = startup
        self.request = request
        self.afterCompletion = afterCompletion
        self.grace = grace
    }

    /// The limits of an extension point, as Apple's devices apply them: the memory limit developers report
    /// for the point (120 MB for share and action extensions, 24 MB for notification service extensions),
    /// 120 MB where none is reported.
    public static func defaults(forExtensionPoint identifier: String) -> ExtensionLimits {
        let megabytes = ExtensionPoint.named(identifier)?.reportedMemoryLimit?.megabytes ?? 120
        return ExtensionLimits(memory: megabytes << 20)
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
    /// A time budget ran out, the extension was warned, and then killed.
    case timeout(TimeoutPhase)
    /// The extension ended before it ended the request.
    case crashed(ExitStatus)
    /// The extension sent something the protocol does not allow, and was killed.
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .memoryLimit(let limit, let peak): "over its memory limit of \(megabytes(limit)) (peak \(megabytes(peak)))"
        case .timeout(let phase): "out of time (\(phase.rawValue))"
        case .crashed(let status): "crashed (\(status))"
        case .protocolViolation(let detail): "protocol violation: \(detail)"
        }
    }
}

/// The time budget that ran out.
public enum TimeoutPhase: String, Sendable, Equatable {
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
        case .signalled(let signal): "killed by signal \(signal)"
        }
    }
}

/// One load the extension asked for.
public struct ExtensionLoad: Sendable, Equatable {
    public var typeIdentifier: String
    /// How the representation was loaded: "data", "file", "item", or "stream" (a file of unknown length, a
    /// FIFO or device in the host, crossing as a pipe; its size is known once it has ended).
    public var form: String
    /// The bytes handed over, when known.
    public var size: Int?
    /// Why it failed, if it did.
    public var failure: String?

    public init(typeIdentifier: String, form: String, size: Int? = nil, failure: String? = nil) {
        self.typeIdentifier = typeIdentifier
        self.form = form
        self.size = size
        self.failure = failure
    }
}

/// What came of running one request.
public struct ExtensionRun: Sendable {
    public var outcome: ExtensionOutcome
    /// The loads the extension asked for, in order.
    public var loads: [ExtensionLoad]
    /// The URLs the extension asked the host to open.
    public var openedURLs: [URL]
    /// The most memory the extension was seen using, in bytes.
    public var peakFootprint: Int
    /// What the extension wrote to its standard output and error (the last 64 KiB).
    public var log: String
    /// How the process ended (after the request ended, or when it was interrupted).
    public var exitStatus: ExitStatus?
    /// Whether Landlock confined the extension's writes to its container and app groups, and its execution
    /// to its bundle and the system's programs (wherever the kernel has Landlock).
    public var confined: Bool
}

func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
}
