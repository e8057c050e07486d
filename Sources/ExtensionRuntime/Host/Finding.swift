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
        /// A share or action extension completed having kept nothing of what it was given: nothing returned,
        /// opened, written to an app group or sent over the network.
        case nothingKept = "nothing-kept"
        /// The user tapped Post and the extension cancelled the request itself: the share the person posted fails.
        case cancelledAfterPost = "cancelled-after-post"
        /// Before the user could post, the extension cancelled a share its activation rule had admitted.
        case declinedShare = "declined-share"
        /// The extension completed having loaded of an attachment only a reference to its content (its file URL),
        /// never the content: what it kept of it (uploaded, wrote, returned) is not what was shared.
        case contentNotLoaded = "content-not-loaded"
        /// The extension looked a host up, or connected beyond this machine's loopback, and was refused, as every
        /// run is: what it would have sent or received over the network was not tried here.
        case networkRefused = "network-refused"
        /// The program was built without optimisation: its times are not a device's.
        case debugBuild = "debug-build"
        /// Code of the extension's own that a device compiles was left out of this build: it never ran here.
        case notCompiledHere = "not-compiled-here"

        /// How much it counts: a `fail` makes the run fail and the cell not as expected unless the
        /// expectations allow it.
        public var severity: Severity {
            switch self {
            case .handlerCalledTwice, .requestEndedTwice, .workLostAtExit, .nothingKept, .cancelledAfterPost, .declinedShare, .contentNotLoaded: .fail
            case .debugBuild, .notCompiledHere, .networkRefused: .warn
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

    /// The finding of code a device compiles that this build left out, naming the first few blocks.
    static func notCompiledHere(_ blocks: [LeftOutBlock]) -> Finding {
        let named = blocks.prefix(5).map(\.description).joined(separator: "; ")
        let more = blocks.count > 5 ? " and \(blocks.count - 5) more" : ""
        let count = blocks.count == 1 ? "a block" : "\(blocks.count) blocks"
        return Finding(.notCompiledHere, "\(count) of the extension's code that iOS compiles \(blocks.count == 1 ? "was" : "were") not compiled here, "
                       + "so this run did not run \(blocks.count == 1 ? "it" : "them"): \(named)\(more); make such code compile here "
                       + "(docs/your-extension.md, \"Code only iOS compiles\")")
    }
}
