public import Foundation
import SharingShim

/// Why an intake, or one representation of an attachment, could not be received: a code to decide by, where
/// in the share it happened, and the error underneath (the host's, the inbox's).
///
/// The codes Apple defines for item providers have Apple's numbers, and `nsError` puts them in
/// `NSItemProviderErrorDomain`, as the error an extension's request is cancelled with.
public struct IntakeError: Error, Sendable, CustomStringConvertible {
    public enum Code: Int, Sendable, Equatable {
        /// `NSItemProvider.ErrorCode.unknownError`.
        case unknown = -1
        /// The host gave nothing, or a file that does not exist or cannot be read
        /// (`NSItemProvider.ErrorCode.itemUnavailableError`).
        case itemUnavailable = -1000
        /// The host gave an object of a class that cannot be received
        /// (`NSItemProvider.ErrorCode.unexpectedValueClassError`).
        case unexpectedValueClass = -1100
        /// The host's value cannot be turned into a file (`NSItemProvider.ErrorCode.unavailableCoercionError`).
        case unavailableCoercion = -1200
        /// The policy's memory budget cannot hold one attachment in flight.
        case memoryBudget = 1
        /// The inbox could not be written.
        case inbox = 2
        /// The host did not answer a load within the policy's timeout.
        case timedOut = 3
        /// The policy refuses it (too large, a directory, a type not accepted): not something that went wrong.
        case refused = 4
        /// The bytes are not what the host declared.
        case contentMismatch = 5
        /// The intake was cancelled.
        case cancelled = 6
    }

    public var code: Code
    /// What happened, for a person.
    public var message: String
    /// The extension item, from 1, when one is concerned.
    public var item: Int?
    /// The attachment in the item, from 1.
    public var attachment: Int?
    /// The representation being received.
    public var typeIdentifier: String?
    /// The error underneath: the host's, or the inbox's.
    public var underlying: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, typeIdentifier: String? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.typeIdentifier = typeIdentifier
        self.underlying = underlying
    }

    /// Why nothing of a share was received, from an entry whose every representation failed
    /// (`itemUnavailable`), or one the policy refused (`refused`).
    init(unkept entry: IntakeReport.Entry) {
        switch entry.outcome {
        case .skipped(let reason):
            self.init(.refused, "nothing of the share was received: \(reason)")
        case .failed(let reasons):
            self.init(.itemUnavailable, "nothing of the share was received: \(reasons.first ?? "it could not be loaded")")
        case .received:
            self.init(.unknown, "nothing of the share was received")
        }
        item = entry.item
        attachment = entry.attachment
    }

    public var description: String {
        let place = [item.map { "item \($0)" }, attachment.map { "attachment \($0)" }].compactMap { $0 }.joined(separator: ", ")
        return (place.isEmpty ? "" : place + ": ") + message
    }

    /// As Cocoa sees it: `NSItemProviderErrorDomain` for the codes Apple defines, `NSUserCancelledError`
    /// in `NSCocoaErrorDomain` for a cancellation, else `OpenSharing.ShareIntake` with this code.
    public var nsError: NSError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying as NSError }
        switch code {
        case .cancelled: return NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError, userInfo: userInfo)
        case .unknown, .itemUnavailable, .unexpectedValueClass, .unavailableCoercion:
            return NSError(domain: NSItemProviderErrorDomain, code: code.rawValue, userInfo: userInfo)
        case .memoryBudget, .inbox, .timedOut, .refused, .contentMismatch:
            return NSError(domain: "OpenSharing.ShareIntake", code: code.rawValue, userInfo: userInfo)
        }
    }

    /// The same error, placed in the share.
    func at(item: Int, attachment: Int?) -> IntakeError {
        var error = self
        error.item = item
        error.attachment = attachment
        return error
    }
}
