import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Programs that spin until stopped, each on a core of its own choosing or on `core`: a busy machine, made by a
/// test and ended by it. Used by the tests that show a verdict does not change with the machine's load.
public final class BusyLoops {
    private let processes: [Process]

    public init(_ count: Int, core: Int? = nil) throws {
        processes = try (0..<count).map { _ in
            let process = Process()
            if let core {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
                process.arguments = ["-c", "\(core)", "python3", "-c", "while True: pass"]
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
                process.arguments = ["-c", "while True: pass"]
            }
            try process.run()
            return process
        }
    }

    /// Kills and reaps every loop. SIGKILL: a child of a test thread inherits its blocked signals, SIGTERM
    /// among them.
    public func stop() {
        for process in processes {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
