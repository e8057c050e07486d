public import OpenUserNotifications

/// An attachment the system dropped.
public struct RejectedAttachment: Error, Sendable, Equatable {
    public var identifier: String
    public var code: UNError.Code
    public var message: String
}
