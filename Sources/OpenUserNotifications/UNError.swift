public import Foundation

/// The domain of the notification system's errors. Stands in for `UNErrorDomain`.
public let UNErrorDomain = "UNErrorDomain"

/// An error of the notification system, in `UNErrorDomain`: `catch UNError.attachmentInvalidURL` matches it, as
/// on Apple's systems. Stands in for `UNError`, with Apple's codes.
public struct UNError: _BridgedStoredNSError, Hashable {
    public let _nsError: NSError

    public init(_nsError: NSError) {
        precondition(_nsError.domain == UNErrorDomain)
        self._nsError = _nsError
    }

    public static var _nsErrorDomain: String { UNErrorDomain }
    public static var errorDomain: String { UNErrorDomain }

    /// Apple's codes and raw values.
    public enum Code: Int, _ErrorCodeProtocol, Sendable {
        public typealias _ErrorType = UNError

        case notificationsNotAllowed = 1
        case attachmentInvalidURL = 100
        case attachmentUnrecognizedType = 101
        case attachmentInvalidFileSize = 102
        case attachmentNotInDataStore = 103
        case attachmentMoveIntoDataStoreFailed = 104
        case attachmentCorrupt = 105
        case notificationInvalidNoDate = 1400
        case notificationInvalidNoContent = 1401
        case contentProvidingObjectNotAllowed = 1500
        case contentProvidingInvalid = 1501
        case badgeInputInvalid = 1600

        /// Apple's description of the code.
        package var summary: String {
            switch self {
            case .notificationsNotAllowed: "Notifications are not allowed"
            case .attachmentInvalidURL: "Invalid attachment file URL"
            case .attachmentUnrecognizedType: "Unrecognized attachment file type"
            case .attachmentInvalidFileSize: "Invalid attachment file size"
            case .attachmentNotInDataStore: "Attachment not in the data store"
            case .attachmentMoveIntoDataStoreFailed: "Failed to move the attachment into the data store"
            case .attachmentCorrupt: "Corrupt attachment file"
            case .notificationInvalidNoDate: "The notification has no date"
            case .notificationInvalidNoContent: "The notification has no user-facing content"
            case .contentProvidingObjectNotAllowed: "The content-providing object is not allowed"
            case .contentProvidingInvalid: "The content-providing object is invalid"
            case .badgeInputInvalid: "Invalid badge input"
            }
        }
    }

    public static var notificationsNotAllowed: Code { .notificationsNotAllowed }
    public static var attachmentInvalidURL: Code { .attachmentInvalidURL }
    public static var attachmentUnrecognizedType: Code { .attachmentUnrecognizedType }
    public static var attachmentInvalidFileSize: Code { .attachmentInvalidFileSize }
    public static var attachmentNotInDataStore: Code { .attachmentNotInDataStore }
    public static var attachmentMoveIntoDataStoreFailed: Code { .attachmentMoveIntoDataStoreFailed }
    public static var attachmentCorrupt: Code { .attachmentCorrupt }
    public static var notificationInvalidNoDate: Code { .notificationInvalidNoDate }
    public static var notificationInvalidNoContent: Code { .notificationInvalidNoContent }
    public static var contentProvidingObjectNotAllowed: Code { .contentProvidingObjectNotAllowed }
    public static var contentProvidingInvalid: Code { .contentProvidingInvalid }
    public static var badgeInputInvalid: Code { .badgeInputInvalid }
}

extension UNError {
    /// An error with Apple's description of `code` and, after it, what was wrong and where.
    package init(_ code: Code, _ detail: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: "\(code.summary): \(detail)"])
    }
}
