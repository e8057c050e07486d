import Foundation

/// `LeftOutCode --package-directory DIR --output FILE SOURCE…`: writes to FILE, as JSON, the clauses of
/// conditional compilation in the Swift sources that a device's build compiles and this platform's does not
/// (`opensharing-left-out/1`: `{"format", "blocks": [{"file", "line", "condition"}]}`). The Appex plugin runs it
/// on an extension's own sources and `sharing bundle --left-out FILE` puts the list in the bundle, so that every
/// run of the extension says which of its code never ran here. Exit status 2 on bad arguments or an unreadable
/// source.
@main
enum LeftOutCode {
    struct Report: Codable {
        var format = "opensharing-left-out/1"
        var blocks: [LeftOutBlock]
    }

    static func main() {
        var arguments = CommandLine.arguments.dropFirst()
        var directory: String?
        var output: String?
        var sources: [String] = []
        while let argument = arguments.popFirst() {
            switch argument {
            case "--package-directory": directory = arguments.popFirst()
            case "--output": output = arguments.popFirst()
            default: sources.append(argument)
            }
        }
        guard let directory, let output else {
            fail("usage: LeftOutCode --package-directory DIR --output FILE SOURCE…")
        }
        let base = URL(fileURLWithPath: directory).standardizedFileURL.path + "/"
        var blocks: [LeftOutBlock] = []
        for path in sources.sorted() {
            guard let data = FileManager.default.contents(atPath: path) else { fail("\(path): cannot be read") }
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            let relative = absolute.hasPrefix(base) ? String(absolute.dropFirst(base.count)) : absolute
            blocks += LeftOutFinder.find(in: String(decoding: data, as: UTF8.self), file: relative)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try encoder.encode(Report(blocks: blocks)).write(to: URL(fileURLWithPath: output))
        } catch {
            fail("\(output): cannot be written: \(error.localizedDescription)")
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("LeftOutCode: \(message)\n".utf8))
        exit(2)
    }
}
