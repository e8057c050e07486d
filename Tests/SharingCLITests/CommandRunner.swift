import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Runs the built `sharing` binary the way a user does, capturing what it prints and its exit status.
struct CommandResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

enum Sharing {
    /// The `sharing` executable beside the test bundle (SwiftPM builds it because the tests depend on it).
    static let executable: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "sharing")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return repositoryRoot.appending(path: ".build/debug/sharing")
    }()

    /// Runs `sharing` to the end, capturing what it prints.
    static func run(_ arguments: [String], in directory: URL? = nil) async throws -> CommandResult {
        let output = Pipe(), error = Pipe()
        let child = try ChildProcess(arguments, in: directory, standardOutput: output, standardError: error)
        // Read both pipes before waiting, so a large output cannot fill a pipe and stall the child.
        let (outData, errData) = try await onOwnThread {
            (output.fileHandleForReading.readDataToEndOfFile(), error.fileHandleForReading.readDataToEndOfFile())
        }
        return CommandResult(status: await child.exitStatus,
                             standardOutput: String(decoding: outData, as: UTF8.self),
                             standardError: String(decoding: errData, as: UTF8.self))
    }
}

/// A running `sharing`. Waiting for it holds no thread of Swift concurrency's few (two on a two-core
/// machine), where `Process.waitUntilExit` would spin one, and the tests that time their own work would wait.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let exited = DispatchSemaphore(value: 0)
    private let started = ContinuousClock.now
    private nonisolated(unsafe) var ended: ContinuousClock.Instant?

    init(_ arguments: [String], in directory: URL? = nil, standardOutput: Any = FileHandle.nullDevice,
         standardError: Any = FileHandle.nullDevice) throws {
        process.executableURL = Sharing.executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = standardOutput
        process.standardError = standardError
        process.terminationHandler = { [unowned self] _ in
            ended = ContinuousClock.now
            exited.signal()
        }
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// Kills it with SIGKILL after `delay` unless it has exited, timed on a thread of its own.
    func kill(after delay: Duration) {
        Thread { [self] in
            if exited.wait(timeout: .now() + delay / .seconds(1)) == .timedOut {
                _ = Glibc.kill(process.processIdentifier, SIGKILL)
            } else {
                exited.signal()
            }
        }.start()
    }

    /// How long it ran, from its launch to its end, once it has ended.
    var runTime: Duration {
        get async {
            _ = await exitStatus
            return ended! - started
        }
    }

    /// The exit status once it has exited, or minus the signal's number when a signal ended it.
    var exitStatus: Int32 {
        get async {
            _ = try? await onOwnThread { [exited] in
                exited.wait()
                exited.signal()
            }
            return process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        }
    }
}

/// Runs blocking work on a new thread and waits for it without blocking the caller's.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh temporary directory, removed when the test ends.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appending(path: "opensharing-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
