import SharingSystem

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
