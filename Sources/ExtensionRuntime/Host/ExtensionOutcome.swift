public import Foundation
public import OpenItemProvider

/// How a request ended: exactly one of these, whatever the extension did.
public enum ExtensionOutcome: Sendable {
    /// The extension completed the request, returning these items (loadable here).
    case completed([NSExtensionItem])
    /// The extension cancelled the request with this error (its domain, code and description).
    case cancelled(NSError)
    /// The request ended without the extension ending it.
    case interrupted(InterruptionReason)
}
