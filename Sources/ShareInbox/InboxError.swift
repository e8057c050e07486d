public import SharingSystem

/// Why an inbox operation failed: a code to decide by, the path it concerns, and, when the file system
/// refused, the system's error.
public struct InboxError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The file system refused; `underlying` says what was being done and why.
        case fileSystem
        /// A path inside the inbox is not the directory it should be.
        case notAnInbox
        /// Not an identifier this inbox makes, and so not a name in its directories.
        case invalidIdentifier
        /// The item is not claimed (its lease may have ended, and another reader claimed it).
        case notClaimed
        /// A manifest that does not read.
        case damagedManifest
        /// A payload or preview name that is not a plain file name.
        case invalidName
        /// The delivery has no payload, or not the one its manifest names.
        case noPayload
        /// The delivery was already delivered or discarded.
        case deliveryEnded
        /// The copy was cancelled by its caller; nothing of it is left.
        case cancelled
        /// A source to copy in (`InboxDelivery.openSource`) does not exist.
        case sourceMissing
        /// A source to copy in cannot be read by this process.
        case sourceUnreadable
        /// A source to copy in is neither a regular file nor a directory (a FIFO, a device).
        case sourceNotAFile
    }

    public var code: Code
    /// What went wrong, for a person.
    public var message: String
    /// The path concerned.
    public var path: String?
    /// The file system's error, when it refused.
    public var underlying: SystemError?

    public init(_ code: Code, _ message: String, path: String? = nil, underlying: SystemError? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.underlying = underlying
    }

    /// A file-system failure; a cancelled copy is `.cancelled`.
    init(_ error: SystemError) {
        self.init(error.code == .cancelled ? .cancelled : .fileSystem, error.description, path: error.path, underlying: error)
    }

    public var description: String { message }

    /// Runs file-system work, its errors as inbox errors.
    static func wrap<T>(_ body: () throws(SystemError) -> T) throws(InboxError) -> T {
        do {
            return try body()
        } catch {
            throw InboxError(error)
        }
    }
}
