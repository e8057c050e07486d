/// The time budget that ran out.
public enum TimeoutPhase: String, Sendable, Equatable, Codable {
    case startup
    case request
    case afterCompletion = "after completion"
}
