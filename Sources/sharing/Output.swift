import ArgumentParser
import Foundation

/// Writing to the terminal: results to standard output, diagnostics to standard error.
enum Output {
    static func line(_ text: String = "") {
        print(text)
    }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data("sharing: error: \(message)\n".utf8))
    }

    /// Prints a value as pretty JSON with sorted keys, the form every `--json` option uses.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
