import Foundation

/// The error domain of item-provider failures. Stands in for Foundation's `NSItemProviderErrorDomain`.
public let NSItemProviderErrorDomain = "NSItemProviderErrorDomain"

/// The option key for the size of preview image wanted, an `NSValue`/`CGSize` on Apple platforms, any value
/// here. Stands in for Foundation's `NSItemProviderPreferredImageSizeKey`.
public let NSItemProviderPreferredImageSizeKey = "NSItemProviderPreferredImageSizeKey"

extension NSItemProvider {
    /// Codes of `NSItemProviderErrorDomain`. Stands in for `NSItemProvider.ErrorCode`.
    public enum ErrorCode: Int, Sendable {
        case unknownError = -1
        case itemUnavailableError = -1000
        case unexpectedValueClassError = -1100
        case unavailableCoercionError = -1200
    }

    static func error(_ code: ErrorCode, _ message: String, underlying: (any Error)? = nil) -> NSError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying as NSError }
        return NSError(domain: NSItemProviderErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The error a consumer gets when it cancels a load: Cocoa's user-cancelled error, as on Apple platforms.
    static var cancellationError: NSError {
        NSError(domain: NSCocoaErrorDomain, code: CocoaError.userCancelled.rawValue,
                userInfo: [NSLocalizedDescriptionKey: "The load was cancelled."])
    }
}
