import ArgumentParser
import ExtensionManifest
import Foundation

/// `sharing lint`: check extension Info.plists against Apple's App Extension Keys.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check app extensions' Info.plists: missing, misplaced, misspelled and mistyped keys, and activation rules.",
        discussion: "Exit status: 0 when no file has an error (warnings allowed), 1 otherwise."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, gcc
    }

    @Argument(help: ArgumentHelp("Info.plist files, or .appex and other bundle directories.", valueName: "file"))
    var files: [String]

    @Option(help: "text for people, json for machines, gcc for FILE:LINE:COL annotations.")
    var format: Format = .text

    func run() throws {
        for file in files where !FileManager.default.fileExists(atPath: file) { throw BadInput("\(file): no such file or directory") }
        struct FileReport: Encodable {
            var file: String
            var diagnostics: [Diagnostic]
        }
        let reports = files.map { file in
            let (path, _, diagnostics) = ManifestLinter.lint(fileAt: URL(fileURLWithPath: file))
            return FileReport(file: path, diagnostics: diagnostics)
        }
        switch format {
        case .json:
            try Output.json(reports)
        case .gcc:
            for report in reports {
                for diagnostic in report.diagnostics { Output.line(diagnostic.compilerStyle(file: report.file)) }
            }
        case .text:
            Output.line(reports.map { Self.text($0.file, $0.diagnostics) }.joined(separator: "\n\n"))
        }
        if reports.contains(where: { $0.diagnostics.contains { $0.severity == .error } }) { throw ExitCode.failure }
    }

    static func text(_ file: String, _ diagnostics: [Diagnostic]) -> String {
        var lines = [file]
        for diagnostic in diagnostics {
            let place = [diagnostic.line, diagnostic.column].compactMap { $0 }.map(String.init).joined(separator: ":")
            let heading = [place, diagnostic.keyPath].filter { !$0.isEmpty }.joined(separator: "  ")
            let severity = "  " + diagnostic.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            if heading.isEmpty {
                lines.append(severity + diagnostic.message)
            } else {
                lines.append(severity + heading)
                lines.append("          \(diagnostic.message)")
            }
            if let fix = diagnostic.fix { lines.append("          fix: \(fix)") }
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        lines.append(diagnostics.isEmpty ? "  clean" : "  \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }
}
