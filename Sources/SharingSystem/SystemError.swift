public import SystemPackage

/// Why a call into the operating system failed: what was being done, to which path, and the system's reason.
///
/// ```
/// renaming /inbox/tmp/x to /inbox/new/x failed: no space left on device
/// ```
///
/// Tests and callers decide by `code` (`.system(.noSpace)`, `.cancelled`), never by the message.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done.
    public enum Operation: String, Sendable, Equatable {
        case open = "opening"
        case create = "creating"
        case read = "reading"
        case write = "writing"
        case inspect = "inspecting"
        case copy = "copying"
        case flush = "flushing"
        case rename = "renaming"
        case remove = "removing"
        case createDirectory = "creating the directory"
        case list = "listing"
        case createLink = "creating the link"
        case readLink = "reading the link"
        case touch = "touching"
        case hash = "hashing"
        case spawn = "starting"
        case enterDirectory = "entering the directory"
        case allowWriting = "letting the extension write beneath"
        case allowExecuting = "letting the extension execute beneath"
        case confine = "confining"
        case send = "sending to"
        case receive = "receiving from"
        case signal = "signalling"
        case wait = "waiting for"
    }

    /// The reason.
    public enum Code: Sendable, Equatable {
        /// A system call failed with this error number.
        case system(Errno)
        /// The path is not the kind of file the operation needs: a directory, FIFO or device where a regular
        /// file was expected, or a file where a directory was.
        case wrongKind(String)
        /// The caller cancelled the operation; what it had written is removed.
        case cancelled
        /// A limit on size, depth or count was reached.
        case limitExceeded(String)
        /// The file changed while it was being read or copied (another writer wrote or truncated it).
        case changed(String)
    }

    public var operation: Operation
    public var code: Code
    /// The path the operation was on; for a rename or a copy, its source.
    public var path: String?
    /// For a rename or a copy, where to.
    public var destination: String?

    public init(_ operation: Operation, _ code: Code, path: String?, destination: String? = nil) {
        self.operation = operation
        self.code = code
        self.path = path
        self.destination = destination
    }

    public var description: String {
        let reason: String
        switch code {
        case .system(let number): reason = number.description
        case .wrongKind(let detail), .limitExceeded(let detail), .changed(let detail): reason = detail
        case .cancelled: reason = "cancelled"
        }
        let subject = [path, destination.map { "to \($0)" }].compactMap { $0 }.joined(separator: " ")
        return "\(operation.rawValue)\(subject.isEmpty ? "" : " " + subject) failed: \(reason)"
    }
}
