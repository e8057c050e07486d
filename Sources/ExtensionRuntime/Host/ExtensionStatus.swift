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
    /// The person could do nothing: the sheet stayed quiet and offered nothing they came to tap (Post disabled,
    /// no such control, code left out of the build), and the host ended it at once rather than at the request's
    /// time-out.
    case stuck
    /// The extension's activation rule hides it for the share: the system would not offer it.
    case notActivated = "not-activated"
}
