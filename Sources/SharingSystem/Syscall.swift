#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// How every system call here is made: retried when a signal interrupted it, its failure a `SystemError`.
enum Syscall {
    /// Runs a call that returns -1 and sets errno on failure, retrying on EINTR.
    @discardableResult
    static func retrying<T: BinaryInteger>(
        _ operation: SystemError.Operation, _ path: String?, destination: String? = nil, _ call: () -> T
    ) throws(SystemError) -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let number = Errno.last
            if number == .interrupted { continue }
            throw SystemError(operation, .system(number), path: path, destination: destination)
        }
    }

    /// Closes a descriptor. Its error is not reported: on Linux the descriptor is gone either way, and a
    /// retry could close one another thread was just given.
    static func closeDescriptor(_ descriptor: CInt) {
        _ = close(descriptor)
    }
}

extension Errno {
    /// The error number the last failed system call on this thread set.
    static var last: Errno { Errno(rawValue: errno) }
}
