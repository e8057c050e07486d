#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// This process and others, by identifier.
package enum Processes {
    /// This process's identifier.
    package static var current: Int32 { getpid() }

    /// Sets a variable in this process's environment, which processes it starts inherit. Not thread-safe
    /// against other changes to the environment, as `setenv(3)` is not.
    package static func setEnvironment(_ name: String, to value: String) {
        setenv(name, value, 1)
    }

    /// Whether a process with this identifier exists (it may belong to another user).
    package static func exists(_ identifier: Int32) -> Bool {
        kill(identifier, 0) == 0 || errno == EPERM
    }
}

/// The terminal, if any, on the standard streams.
package enum Terminal {
    /// Whether standard error is a terminal, where progress may be drawn.
    package static var standardErrorIsInteractive: Bool { isatty(STDERR_FILENO) == 1 }
}
