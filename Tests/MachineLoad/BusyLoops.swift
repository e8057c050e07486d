import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Programs that spin until stopped, each on a core of its own choosing or on `core`: a busy machine, made by a
/// test and ended by it. Used by the tests that show a verdict does not change with the machine's load.
///
/// Each loop also ends within a few milliseconds of the test process that started it: a test run that crashes or
/// is killed before `stop()` leaves no loop spinning on the machine.
public final class BusyLoops {
    private let processes: [Process]

    /// Spins, looking up every million turns whether the process that started it is still there.
    private static let program = """
        import os
        parent = os.getppid()
        while os.getppid() == parent:
            for _ in range(1_000_000):
                pass
        """

    public init(_ count: Int, core: Int? = nil) throws {
        processes = try (0..<count).map { _ in
            let process = Process()
            if let core {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
                process.arguments = ["-c", "\(core)", "/usr/bin/python3", "-c", Self.program]
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
                process.arguments = ["-c", Self.program]
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
