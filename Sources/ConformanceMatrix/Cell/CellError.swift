import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI

/// Why a cell cannot be run, or read: what went wrong (`code`), the field or input it concerns, and what is
/// wrong, in words a person can act on.
public struct CellError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The cell's fields disagree (a share and payloads, a fault that does not apply, a limit too small).
        case invalidCell
        /// The bundle is missing or broken.
        case badBundle
        /// The share cannot be made: a file that is not there or may not be shared, a host that cannot share the
        /// content, a fixture that does not read.
        case badShare
        /// A payload Apple's push service would refuse, or that cannot be read.
        case badPayload
        /// The extension's activation rule does not parse.
        case badActivationRule
        /// The extension cannot be started at all.
        case cannotStart
        /// The cell's fault kills its host, which it can do only as a process of its own (`sharing run`).
        case needsOwnProcess
        /// A directory the cell names cannot be made or used.
        case badDirectory
    }

    public var code: Code
    /// The cell's field or the option it concerns (`faults`, `--payload`), when one.
    public var field: String?
    public var message: String

    public init(_ code: Code, field: String? = nil, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// The field and the problem: `--payload /p.json holds 5032 bytes…` for an option's, `timeout: must be …` for
    /// a cell's own field.
    public var description: String {
        guard let field else { return message }
        return field.hasPrefix("--") ? "\(field) \(message)" : "\(field): \(message)"
    }
}
