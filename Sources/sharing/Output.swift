import ArgumentParser
import Foundation
import PackageSupport

/// Writing to the terminal: results to standard output, diagnostics to standard error. Whatever a line holds,
/// no control character reaches the terminal raw (`Escaped.terminal`): text from extensions, shares and
/// reports cannot move the cursor, recolour or reorder what follows.
enum Output {
    /// One line on standard output, written at once: a CI log shows it as soon as it is written, and lines
    /// written from several threads do not mix.
    static func line(_ text: String = "") {
        try? FileHandle.standardOutput.write(contentsOf: Data((Escaped.terminal(text, lines: true) + "\n").utf8))
    }

    /// A line on standard error that the next one replaces: progress on a terminal ("" clears it).
    static func redraw(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K\(Escaped.terminal(text))".utf8))
    }

    /// `sharing: error: MESSAGE` on standard error.
    static func error(_ message: String) {
        diagnostic("error: \(message)")
    }

    /// `sharing: MESSAGE` on standard error.
    static func diagnostic(_ message: String) {
        try? FileHandle.standardError.write(contentsOf: Data("sharing: \(Escaped.terminal(message, lines: true))\n".utf8))
    }

    /// Checks, before any work, that each report file asked for (`option`, its path) can be written: its
    /// directory exists and is writable.
    static func checkWritable(_ files: [(option: String, path: String?)]) throws(BadInput) {
        for case let (option, path?) in files {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard FileManager.default.isWritableFile(atPath: directory) else {
                throw BadInput("\(option) \(path): \(FileManager.default.fileExists(atPath: directory) ? "its directory is not writable" : "no such directory")")
            }
        }
    }

    /// Writes a report file, atomically.
    static func write(_ data: Data, to path: String) throws(BadInput) {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw BadInput("\(path): cannot write: \((error as NSError).localizedDescription)")
        }
    }

    /// Prints a value as pretty JSON with sorted keys, the form every `--json` option uses.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let encoded = try encoder.encode(value) + Data("\n".utf8)
        try? FileHandle.standardOutput.write(contentsOf: encoded)
    }
}
