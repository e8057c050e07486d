public import Foundation

/// What an extension's principal object adopts to be told of a host's request: the runtime creates the
/// principal and calls `beginRequest(with:)` once, with the context of the request, before anything else.
///
/// Stands in for Foundation's `NSExtensionRequestHandling`.
public protocol NSExtensionRequestHandling: NSObjectProtocol {
    /// Tells the extension to prepare for the host's request: the context holds the input items, and ends
    /// the request when the extension completes or cancels it.
    func beginRequest(with context: NSExtensionContext)
}
