import Foundation
import ExtensionRuntime

/// A fault spec that does not read: what is wrong (`code`), the spec, and the problem in words.
public struct FaultSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// No fault has the name.
        case unknownFault
        /// The fault has no such parameter, or it is given twice, or not as `name=value`.
        case badParameter
        /// A parameter's value does not read (a duration, a count, a kind).
        case badValue
        /// The parentheses do not close.
        case malformed
    }

    public var code: Code
    public var spec: String
    public var problem: String

    public init(_ code: Code, spec: String, problem: String) {
        self.code = code
        self.spec = spec
        self.problem = problem
    }

    public var description: String { "fault '\(spec)': \(problem)" }
}
