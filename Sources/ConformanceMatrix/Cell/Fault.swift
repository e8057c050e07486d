import Foundation
public import ExtensionRuntime

/// A way the host or the device treats an extension badly, named and parameterised as `name(param=value)`:
/// one axis of the conformance matrix, and `sharing run --fault`.
///
/// Load faults are injected on the host's side (`HostFaults`); limit faults set the run's limits. Each fault's
/// `description` is its canonical spec, which `init(parsing:)` reads back.
public enum Fault: Sendable, Hashable, CustomStringConvertible {
    /// Nothing goes wrong.
    case none
    /// Every load is answered `delay` later.
    case slowHost(delay: Duration)
    /// The `nth` load fails (the host's provider is not asked).
    case loadFails(nth: Int)
    /// The `nth` load is never answered.
    case loadHangs(nth: Int)
    /// The memory limit is `megabytes` (a device with less memory than the point's default).
    case memoryLimit(megabytes: Int)
    /// The request's time limit is `seconds`.
    case timeLimit(seconds: Double)
    /// The host itself is killed `after` the extension starts, as a host app killed mid-share: nothing of the
    /// extension may outlive it (the matrix checks within a second).
    case hostKilled(after: Duration)
    /// The share is large: ten 48 MP photos, or one 2 GiB file, added to what the host shares.
    case largeShare(LargeShare)

    /// What a large share holds.
    public enum LargeShare: String, Sendable, Hashable, CaseIterable {
        case photos, file
    }

    /// The faults a matrix runs when none are named: no fault, the first load failing, and a slow host. Short
    /// enough that a grid of every example and every host runs in minutes.
    public static let standard: [Fault] = [.none, .loadFails(nth: 1), .slowHost(delay: .seconds(2))]

    /// Every fault with the parameters worth trying: the standard ones, a hanging load, the memory limits of the
    /// smallest devices and points (24 MB, a notification service's; 70 MB; 120 MB, a share extension's), a short
    /// time limit, the host killed, and both large shares.
    public static let all: [Fault] = standard + [.loadHangs(nth: 1), .memoryLimit(megabytes: 24), .memoryLimit(megabytes: 70),
                                                  .memoryLimit(megabytes: 120), .timeLimit(seconds: 2), .hostKilled(after: .milliseconds(500)),
                                                  .largeShare(.photos), .largeShare(.file)]

    /// Whether the fault means anything to a notification service, which loads nothing from its host: the
    /// limits and the host's death do.
    public var appliesToNotifications: Bool {
        switch self {
        case .none, .memoryLimit, .timeLimit, .hostKilled: true
        case .slowHost, .loadFails, .loadHangs, .largeShare: false
        }
    }

    /// Whether the fault adds files to a host's share (`large-share`), which a share fixture, shared as written,
    /// does not take.
    var isLargeShare: Bool {
        if case .largeShare = self { true } else { false }
    }

    /// The fault's name, without parameters.
    public var name: String {
        switch self {
        case .none: "none"
        case .slowHost: "slow-host"
        case .loadFails: "load-fails"
        case .loadHangs: "load-hangs"
        case .memoryLimit: "memory-limit"
        case .timeLimit: "time-limit"
        case .hostKilled: "host-killed"
        case .largeShare: "large-share"
        }
    }

    /// The fault's parameters as written in its spec.
    public var parameters: [(name: String, value: String)] {
        switch self {
        case .none: []
        case .slowHost(let delay): [("delay", Self.format(delay))]
        case .loadFails(let nth), .loadHangs(let nth): [("nth", String(nth))]
        case .memoryLimit(let megabytes): [("mb", String(megabytes))]
        case .timeLimit(let seconds): [("s", Self.format(seconds))]
        case .hostKilled(let after): [("after", Self.format(after))]
        case .largeShare(let kind): [("kind", kind.rawValue)]
        }
    }

    public var description: String {
        parameters.isEmpty ? name : "\(name)(\(parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",")))"
    }

    /// Reads a spec: `none`, `slow-host(delay=2s)` (or `500ms`), `load-fails(nth=1)`, `load-hangs(nth=1)`,
    /// `memory-limit(mb=24)`, `time-limit(s=5)`, `host-killed(after=500ms)`, `large-share(kind=photos)` (or
    /// `file`); a parameter left out takes the value shown.
    ///
    /// - Throws: `FaultSpecError` naming the spec and what is wrong with it.
    public init(parsing spec: String) throws(FaultSpecError) {
        let trimmed = spec.trimmingCharacters(in: .whitespaces)
        var name = Substring(trimmed)
        var given: [String: String] = [:]
        if let open = trimmed.firstIndex(of: "(") {
            guard trimmed.hasSuffix(")") else { throw FaultSpecError(.malformed, spec: spec, problem: "a '(' without its closing ')'") }
            name = Substring(trimmed[..<open].trimmingCharacters(in: .whitespaces))
            let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            let pairs = inside.allSatisfy(\.isWhitespace) ? [] : inside.split(separator: ",", omittingEmptySubsequences: false)
            for pair in pairs {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = parts[0].trimmingCharacters(in: .whitespaces)
                guard parts.count == 2, !key.isEmpty else { throw FaultSpecError(.badParameter, spec: spec, problem: "'\(pair)' is not name=value") }
                guard given.updateValue(parts[1].trimmingCharacters(in: .whitespaces), forKey: key) == nil else {
                    throw FaultSpecError(.badParameter, spec: spec, problem: "\(key) is given twice")
                }
            }
        }
        func take(_ key: String, default value: String) -> String { given.removeValue(forKey: key) ?? value }
        func count(_ key: String) throws(FaultSpecError) -> Int {
            let text = take(key, default: "1")
            guard let value = Int(text), value >= 1 else { throw FaultSpecError(.badValue, spec: spec, problem: "\(key)=\(text) is not a whole number of at least 1") }
            return value
        }
        func duration(_ key: String, default value: String) throws(FaultSpecError) -> Duration {
            let text = take(key, default: value)
            guard let duration = Self.duration(text) else { throw FaultSpecError(.badValue, spec: spec, problem: "\(key)=\(text) is not a duration such as 2s or 500ms") }
            return duration
        }
        switch name {
        case "none":
            self = .none
        case "slow-host":
            self = .slowHost(delay: try duration("delay", default: "2s"))
        case "host-killed":
            self = .hostKilled(after: try duration("after", default: "500ms"))
        case "large-share":
            let text = take("kind", default: "photos")
            guard let kind = LargeShare(rawValue: text) else { throw FaultSpecError(.badValue, spec: spec, problem: "kind=\(text) is neither photos nor file") }
            self = .largeShare(kind)
        case "load-fails":
            self = .loadFails(nth: try count("nth"))
        case "load-hangs":
            self = .loadHangs(nth: try count("nth"))
        case "memory-limit":
            let megabytes = try count("mb")
            self = .memoryLimit(megabytes: megabytes)
        case "time-limit":
            let text = take("s", default: "5")
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else { throw FaultSpecError(.badValue, spec: spec, problem: "s=\(text) is not a number of seconds above 0") }
            self = .timeLimit(seconds: seconds)
        default:
            throw FaultSpecError(.unknownFault, spec: spec, problem: "no fault is named '\(name)'; the faults: none, slow-host, load-fails, load-hangs, memory-limit, time-limit, host-killed, large-share")
        }
        if let unknown = given.keys.sorted().first {
            throw FaultSpecError(.badParameter, spec: spec, problem: "\(self.name) takes no parameter '\(unknown)'")
        }
    }

    /// Reads a list of specs as an option gives it: `standard`, `all`, or specs separated by commas outside
    /// parentheses (`none,slow-host(delay=1s)`).
    public static func list(parsing text: String) throws(FaultSpecError) -> [Fault] {
        switch text {
        case "standard": return standard
        case "all": return all
        default:
            var specs: [String] = [], current = "", depth = 0
            for character in text {
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
                if character == "," && depth == 0 {
                    specs.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
            }
            specs.append(current)
            var faults: [Fault] = []
            for spec in specs {
                let fault = try Fault(parsing: spec)
                if !faults.contains(fault) { faults.append(fault) }
            }
            return faults
        }
    }

    /// Applies the fault to a run's limits and its host's misbehaviour. (The host's death and a large share are
    /// the host's own doing: `sharing run` kills itself, or adds the files.)
    public func apply(to limits: inout ExtensionLimits, _ faults: inout HostFaults) {
        switch self {
        case .none, .hostKilled, .largeShare: break
        case .slowHost(let delay): faults.loadDelay = delay
        case .loadFails(let nth): faults.failingLoad = nth
        case .loadHangs(let nth): faults.hangingLoad = nth
        case .memoryLimit(let megabytes): limits.memory = megabytes << 20
        case .timeLimit(let seconds): limits.request = .milliseconds(Int((seconds * 1000).rounded()))
        }
    }

    private static func duration(_ text: String) -> Duration? {
        let (number, scale): (Substring, Double) = text.hasSuffix("ms") ? (text.dropLast(2), 1e-3) : text.hasSuffix("s") ? (text.dropLast(), 1) : (Substring(text), 1)
        guard let value = Double(number), value >= 0, value.isFinite, value * scale <= 3600 else { return nil }
        return .milliseconds(Int((value * scale * 1000).rounded()))
    }

    private static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

extension Fault: Codable {
    /// Reads a spec, as `init(parsing:)`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` saying what is wrong with the spec.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self = try Fault(parsing: try container.decode(String.self))
        } catch let error as FaultSpecError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Written as its canonical spec.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
