import ArgumentParser
import Foundation
import PackageSupport

/// Writing to the terminal: results to standard output, diagnostics to standard error. Whatever a line holds,
/// no control character reaches the terminal raw (`Escaped.terminal`): text from extensions, shares and
/// reports cannot move the cursor, recolour or reorder what follows.
enum Output {
    static func line(_ text: String = "") {
        print(Escaped.terminal(text, lines: true))
    }

    /// `sharing: error: MESSAGE` on standard error.
    static func error(_ message: String) {
        diagnostic("error: \(message)")
    }

    /// `sharing: MESSAGE` on standard error.
    static func diagnostic(_ message: String) {
        FileHandle.standardError.write(Data("sharing: \(Escaped.terminal(message, lines: true))\n".utf8))
    }

    /// Prints a value as pretty JSON with sorted keys, the form every `--json` option uses.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
