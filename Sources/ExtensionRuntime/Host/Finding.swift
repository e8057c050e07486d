/// Something the runtime saw an extension do that a device would punish or that changes what a run means,
/// beside its status: a content handler called twice, a request ended twice, a program not optimised. Each
/// code stands for one device behaviour, listed with its source in `docs/conformance.md`.
public struct Finding: Codable, Sendable, Hashable, CustomStringConvertible {
    /// What was found. Its raw value is the code reports print.
    public enum Code: String, Codable, Sendable, CaseIterable {
        /// A notification service called its content handler more than once for one notification.
        case handlerCalledTwice = "handler-called-twice"
        /// An extension ended its request (completed or cancelled it) more than once.
        case requestEndedTwice = "request-ended-twice"
        /// Work the runtime can see was still running when the time after completion ran out.
        case workLostAtExit = "work-lost-at-exit"
        /// The program was built without optimisation: its times are not a device's.
        case debugBuild = "debug-build"

        /// How much it counts: a `fail` makes the run fail and the cell not as expected unless the
        /// expectations allow it.
        public var severity: Severity {
            switch self {
            case .handlerCalledTwice, .requestEndedTwice, .workLostAtExit: .fail
            case .debugBuild: .warn
            }
        }
    }

    public enum Severity: String, Codable, Sendable {
        /// A device would not pass the run.
        case fail
        /// The run passes, but a reader must know.
        case warn
    }

    public var code: Code
    public var severity: Severity
    /// What happened, in words.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        severity = code.severity
        self.message = message
    }

    /// `CODE: message`, as reports print it after `finding: `.
    public var description: String { "\(code.rawValue): \(message)" }

    /// The finding of a program not optimised.
    static let debugBuild = Finding(.debugBuild, "the program was built without optimisation (a debug build): a device never runs "
                                    + "unoptimised code, so its times and memory here are not a device's; bundle it with --configuration release")
}
