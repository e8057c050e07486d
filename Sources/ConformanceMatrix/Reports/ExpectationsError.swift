import Foundation
import SharingSystem

/// An expectations file that cannot be used: what is wrong (`code`), the file, and the problem in words.
public struct ExpectationsError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The file cannot be read.
        case unreadable
        /// Not JSON, or JSON of another shape.
        case notExpectations
        /// Another schema or version.
        case wrongSchema
        /// A value of the wrong kind or outside its vocabulary (an unknown status), or an entry naming none.
        case badValue
    }

    public var code: Code
    public var file: String
    public var problem: String

    public init(_ code: Code, file: String, problem: String) {
        self.code = code
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}
