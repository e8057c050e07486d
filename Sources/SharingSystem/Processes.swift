#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSharingSystem
package import Foundation
import PackageSupport

/// This process and others, by identifier.
package enum Processes {
    /// This process's identifier.
    package static var current: Int32 { getpid() }

    /// The user this process runs as (its real user identifier).
    package static var user: UInt32 { UInt32(getuid()) }

    /// The program this process runs, by the path the system knows it at (else as it was invoked).
    package static var currentExecutable: URL {
        URL(fileURLWithPath: (try? FileSystem.destinationOfSymbolicLink(URL(fileURLWithPath: "/proc/self/exe"))) ?? CommandLine.arguments[0])
    }

    /// Makes standard output line-buffered: each line printed is written as it is printed, so that a program
    /// killed a moment later has said it.
    package static func lineBufferStandardOutput() {
        csharing_line_buffer_stdout()
    }

    /// Sets a variable in this process's environment, which processes it starts inherit. Not thread-safe
    /// against other changes to the environment, as `setenv(3)` is not.
    package static func setEnvironment(_ name: String, to value: String) {
        setenv(name, value, 1)
    }

    /// Kills this process with SIGKILL `delay` after the extension it runs has started, as a host app is killed
    /// mid-share: nothing of it runs after, no handler, no flush. The extension has started once a process this
    /// one started has started one of its own (the runtime's init starts the extension). Counted from then, not
    /// from this process's start, so that a busy machine slowing the way to the extension never ends the host
    /// before there is one; where no extension starts, nothing is killed.
    package static func killThisProcess(afterItsExtensionStarts delay: Duration) {
        Thread.detachNewThread {
            let this = getpid()
            // No event says a grandchild was born; /proc is read until one is there.
            while children(of: this).allSatisfy({ children(of: $0).isEmpty }) {
                Thread.sleep(forTimeInterval: 0.005)
            }
            Thread.sleep(forTimeInterval: delay.inSeconds)
            kill(this, SIGKILL)
        }
    }

    /// Whether a process with this identifier exists (it may belong to another user).
    package static func exists(_ identifier: Int32) -> Bool {
        kill(identifier, 0) == 0 || errno == EPERM
    }

    /// The children of a process (of each of its threads), from /proc.
    package static func children(of process: Int32) -> [Int32] {
        let tasks = (try? FileSystem.contentsOfDirectory(URL(fileURLWithPath: "/proc/\(process)/task"))) ?? []
        return tasks.flatMap { task -> [Int32] in
            guard let text = try? OpenFile.reading(URL(fileURLWithPath: "/proc/\(process)/task/\(task)/children"), regularOnly: false)
                .readAll(limit: 1 << 20) else { return [] }
            return String(decoding: text, as: UTF8.self).split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// Every descendant of a process (at most 100,000), as this process's namespace numbers them, from /proc.
    package static func descendants(of process: Int32) -> [Int32] {
        var found: [Int32] = []
        var queue = [process]
        while let parent = queue.popLast(), found.count < 100_000 {
            let children = children(of: parent)
            found += children
            queue += children
        }
        return found
    }

    /// SIGKILLs a process through a process descriptor, when `isStillIt` says the process the descriptor holds
    /// is still the one meant (checked once it is held, so an identifier freed and reused meanwhile is left
    /// alone as far as /proc can tell).
    package static func terminate(_ process: Int32, if isStillIt: (Int32) -> Bool = { _ in true }) {
        let descriptor = csharing_pidfd_open(process)
        guard descriptor >= 0 else { return }
        defer { Syscall.closeDescriptor(descriptor) }
        if !isStillIt(process) { return }
        _ = csharing_pidfd_send_signal(descriptor, SIGKILL)
    }
}

/// The machine this process runs on, as reports describe it.
package enum Machine {
    /// The processor's model name (`/proc/cpuinfo`'s first `model name`), or "unknown".
    package static var processorModel: String {
        guard let data = try? OpenFile.reading(URL(fileURLWithPath: "/proc/cpuinfo"), regularOnly: false).readAll(limit: 1 << 20) else { return "unknown" }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }
}

/// The terminal, if any, on the standard streams.
package enum Terminal {
    /// Whether standard error is a terminal, where progress may be drawn.
    package static var standardErrorIsInteractive: Bool { isatty(STDERR_FILENO) == 1 }
    /// Whether standard output is a terminal (else a pipe or a file, a CI job's log).
    package static var standardOutputIsInteractive: Bool { isatty(STDOUT_FILENO) == 1 }
}
