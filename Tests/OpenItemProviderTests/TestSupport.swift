import Foundation
@testable import OpenItemProvider
import OpenUniformTypeIdentifiers
import Testing

/// A directory of the test's own, removed at the end.
final class Scratch: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-provider-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A file with these bytes, at a path relative to the scratch directory.
    @discardableResult
    func file(_ name: String, _ contents: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
        return file
    }

    /// A directory for a provider's temporary files, so a test can see what loads leave behind.
    func temporaryRoot() throws -> URL {
        let root = url.appendingPathComponent("tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    func entries(of directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }
}

/// What a file load handed to its completion handler, and what was true while the handler ran.
struct FileObservation: Sendable {
    var url: URL?
    var openedInPlace: Bool
    var error: NSError?
    /// The file's contents (a file) or its sorted relative paths (a directory), read inside the handler.
    var contents: String?
    var entries: [String]?
    var thread: String
}

/// Loads a file representation and records what the handler saw.
func observeFile(_ provider: NSItemProvider, _ type: UTType, openInPlace: Bool) async -> FileObservation {
    await withCheckedContinuation { continuation in
        provider.loadFileRepresentation(for: type, openInPlace: openInPlace) { url, inPlace, error in
            var observation = FileObservation(url: url, openedInPlace: inPlace, error: error as NSError?, thread: Thread.current.description)
            if let url {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    observation.entries = FileManager.default.subpaths(atPath: url.path)?.sorted()
                } else {
                    observation.contents = try? String(contentsOf: url, encoding: .utf8)
                }
            }
            continuation.resume(returning: observation)
        }
    }
}

/// Loads a data representation.
func loadData(_ provider: NSItemProvider, _ type: UTType) async -> (Data?, NSError?) {
    await withCheckedContinuation { continuation in
        provider.loadDataRepresentation(for: type) { data, error in
            continuation.resume(returning: (data, error as NSError?))
        }
    }
}

/// Waits (briefly) until nothing is at a path: files handed to a handler go when it returns, a moment
/// after the test's continuation resumed inside it.
func waitUntilGone(_ url: URL, timeout: Duration = .seconds(5)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while FileManager.default.fileExists(atPath: url.path) {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Waits until a directory is empty.
func waitUntilEmpty(_ directory: URL, timeout: Duration = .seconds(5)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).isEmpty {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// The entry names of a zip archive, listed by Info-ZIP's `unzip`, an independent reader.
func unzipList(_ data: Data) throws -> [String] {
    let scratch = try Scratch()
    let archive = scratch.url.appendingPathComponent("listed.zip")
    try data.write(to: archive)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
    process.arguments = ["-Z1", archive.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
}
