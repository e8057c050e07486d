/// What an intake did with each attachment of a share.
public struct IntakeReport: Sendable, Equatable, Codable {
    /// One attachment (or the content text of an item without attachments).
    public struct Entry: Sendable, Equatable, Codable {
        /// The extension item, from 1.
        public var item: Int
        /// The attachment in the item, from 1; `nil` for an item's own text.
        public var attachment: Int?
        public var outcome: Outcome
    }

    public enum Outcome: Sendable, Equatable, Codable {
        case received(Received)
        /// Not taken, by policy or because it repeats another: not an error.
        case skipped(reason: String)
        /// Every representation failed; the reasons, one per representation tried.
        case failed(reasons: [String])

        private enum CodingKeys: String, CodingKey {
            case status, received, reason, reasons
        }

        // As JSON: {"status": "received", "received": {…}}, {"status": "skipped", "reason": "…"},
        // {"status": "failed", "reasons": […]}.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .received(let received):
                try container.encode("received", forKey: .status)
                try container.encode(received, forKey: .received)
            case .skipped(let reason):
                try container.encode("skipped", forKey: .status)
                try container.encode(reason, forKey: .reason)
            case .failed(let reasons):
                try container.encode("failed", forKey: .status)
                try container.encode(reasons, forKey: .reasons)
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .status) {
            case "received": self = .received(try container.decode(Received.self, forKey: .received))
            case "skipped": self = .skipped(reason: try container.decode(String.self, forKey: .reason))
            case "failed": self = .failed(reasons: try container.decode([String].self, forKey: .reasons))
            case let status:
                throw DecodingError.dataCorruptedError(forKey: .status, in: container, debugDescription: "unknown status \(status)")
            }
        }
    }

    public struct Received: Sendable, Equatable, Codable {
        /// The inbox item.
        public var id: String
        public var type: String
        public var name: String
        public var size: Int64
        /// The payload's hash with its algorithm, `blake3:…`.
        public var hash: String
        /// Anything worth knowing: a declared type the bytes did not bear out, previews left out.
        public var notes: [String]
    }

    public var host: String?
    public var entries: [Entry]

    public var received: [Received] {
        entries.compactMap { if case .received(let received) = $0.outcome { received } else { nil } }
    }

    public var failureCount: Int {
        entries.filter { if case .failed = $0.outcome { true } else { false } }.count
    }
}
