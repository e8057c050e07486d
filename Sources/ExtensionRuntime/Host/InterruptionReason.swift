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
    /// The person using the extension could do nothing: its sheet stayed quiet (nothing in progress, no thread
    /// at work) and offered nothing they came to tap, for this reason; the host ended it rather than wait out
    /// the request's time.
    case stuck(String)

    public var description: String {
        switch self {
        case .memoryLimit(let limit, let peak): "over its memory limit of \(megabytes(limit)) (peak \(megabytes(peak)))"
        case .diskLimit(let limit, let used): "over its disk limit of \(megabytes(limit)) (\(megabytes(used)) used)"
        case .diskBeyondMeter(let entries, let depth):
            "more than \(entries) files, or directories more than \(depth) deep, where it stores: past what the disk meter counts, taken as over its disk limit"
        case .timeout(let phase): "out of time (\(phase.rawValue))"
        case .crashed(let status): "\(status) before ending its request"
        case .protocolViolation(let detail): "protocol violation: \(detail)"
        case .stuck(let detail): "the user is stuck: \(detail)"
        }
    }
}
