import SharingFiles

/// Why an inbox operation failed: what, and on which path.
public struct InboxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var path: String?

    public init(_ message: String, path: String?) {
        self.message = message
        self.path = path
    }

    init(_ error: FileSystemError) {
        self.init(error.description, path: error.path)
    }

    public var description: String { message }

    /// Runs file-system work, its errors as inbox errors.
    static func wrap<T>(_ body: () throws -> T) throws(InboxError) -> T {
        do {
            return try body()
        } catch let error as FileSystemError {
            throw InboxError(error)
        } catch let error as InboxError {
            throw error
        } catch {
            throw InboxError("\(error)", path: nil)
        }
    }
}
