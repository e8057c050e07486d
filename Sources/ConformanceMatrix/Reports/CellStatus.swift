public import ExtensionRuntime
import Foundation

/// How one cell of the matrix ended: the runtime's one outcome, or what the matrix itself saw.
public enum CellStatus: RawRepresentable, Codable, Sendable, Hashable, CaseIterable {
    /// The run's own status (`not-activated` decided before any process starts).
    case run(ExtensionStatus)
    /// The host was killed on purpose and nothing of the extension outlived it.
    case hostKilled
    /// A process of the extension outlived its host.
    case leaked
    /// The matrix could not run the cell (its `sharing run` printed no report, or did not end).
    case harnessError

    public static let allCases: [CellStatus] = ExtensionStatus.allCases.map(CellStatus.run) + [.hostKilled, .leaked, .harnessError]

    public init?(rawValue: String) {
        guard let status = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = status
    }

    public var rawValue: String {
        switch self {
        case .run(let status): status.rawValue
        case .hostKilled: "host-killed"
        case .leaked: "leaked"
        case .harnessError: "harness-error"
        }
    }

    /// The grid's symbol.
    public var symbol: String {
        switch self {
        case .run(.completed): "✓"
        case .run(.cancelled): "C"
        case .run(.interruptedMemory): "M"
        case .run(.interruptedTimeout): "T"
        case .run(.interruptedDisk): "D"
        case .run(.crashed): "X"
        case .run(.protocolViolation): "P"
        case .run(.stuck): "S"
        case .run(.notActivated): "·"
        case .hostKilled: "K"
        case .leaked: "L"
        case .harnessError: "E"
        }
    }

    /// What a cell is expected to end as when no expectation names it: completed, cancelled with an error, not
    /// offered at all, or (under `host-killed`) gone with its host.
    public static let expectedByDefault: [CellStatus] = [.run(.completed), .run(.cancelled), .run(.notActivated), .hostKilled]
}
