public import Foundation
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

/// Programs that keep a disk busy until stopped, each rewriting a gibibyte file of its own in `directory`, 16 MB
/// at a time, each flushed before the next: a busy disk, made by a test and ended by it. Made once each program
/// has flushed its first write, so that the disk is busy from then on.
public final class DiskHogs {
    private let processes: [Process]
    private let files: [URL]

    public init(_ count: Int, in directory: URL) throws {
        files = (0..<count).map { directory.appendingPathComponent("hog-\($0)") }
        processes = try files.map { file in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", """
                import os, sys
                block, told = b"\\x01" * (16 << 20), False
                while True:
                    with open(sys.argv[1], "wb") as f:
                        for _ in range(64):
                            f.write(block); f.flush(); os.fsync(f.fileno())
                            if not told: print("busy", flush=True); told = True
                """, file.path]
            process.standardOutput = Pipe()
            try process.run()
            return process
        }
        for process in processes {
            // Its first line, or the end of its output if it died.
            _ = (process.standardOutput as? Pipe)?.fileHandleForReading.availableData
        }
    }

    /// Kills and reaps every hog, and removes what they wrote.
    public func stop() {
        for process in processes {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        for file in files { try? FileManager.default.removeItem(at: file) }
    }
}
