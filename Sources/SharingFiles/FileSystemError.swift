/// Why a file-system operation failed: the operation, the path, and the system's reason.
package struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: Sendable, Equatable {
        /// A system call failed with this `errno`.
        case system(Int32)
        /// The path is not the kind of file the operation needs (a directory where a file was expected, a FIFO, …).
        case wrongKind
        /// The caller cancelled the operation; what it had written is removed.
        case cancelled
        /// A limit on size, depth or count was reached.
        case limitExceeded
    }

    package var code: Code
    package var operation: String
    package var path: String
    package var detail: String?

    package init(_ code: Code, operation: String, path: String, detail: String? = nil) {
        self.code = code
        self.operation = operation
        self.path = path
        self.detail = detail
    }

    /// The `errno` of a failed system call, if that is what happened.
    package var errno: Int32? {
        if case .system(let number) = code { return number }
        return nil
    }

    package var description: String {
        let reason: String
        switch code {
        case .system(let number): reason = Syscall.message(for: number)
        case .wrongKind: reason = detail ?? "not the kind of file expected"
        case .cancelled: reason = "cancelled"
        case .limitExceeded: reason = detail ?? "limit exceeded"
        }
        return "cannot \(operation) \(path): \(reason)"
    }
}
