import Foundation
import PackageSupport
import ExtensionRuntime

extension MatrixReport {
    /// Markdown for a CI job's summary: the counts, the grid as a table, then each cell not as expected with
    /// its reproduce command. Text from cells (names, reasons, commands) is escaped: it can open no heading,
    /// table cell, link, image or HTML, and a command sits in a code block nothing inside it can close. (A
    /// column's label is made of typed values only: a device's name, a user, a fault's canonical spec.)
    public func markdown() -> String {
        let (rows, columns, at) = layout()
        var text = "## sharing test: \(cells.count) cells, \(unexpected.count) not as expected, \(flaky.count) flaky\n\n"
        text += counts.filter { $0.count > 0 }.map { "\($0.status.symbol) \($0.status.rawValue): \($0.count)" }.joined(separator: " · ") + "\n\n"
        text += "| bundle · host or payload | " + columns.map { "`\($0.label)`" }.joined(separator: " | ") + " |\n"
        text += "|---|" + columns.map { _ in "---" }.joined(separator: "|") + "|\n"
        for row in rows {
            text += "| \(Escaped.markdown(row)) | " + columns.map { column in
                guard let result = at(row, column).map({ cells[$0] }) else { return "" }
                return result.isUnexpected ? "**\(result.status.symbol) \(result.status.rawValue)**"
                    : result.isFlaky ? "\(result.status.symbol)? flaky" : result.status.symbol
            }.joined(separator: " | ") + " |\n"
        }
        let failing = unexpected
        if !failing.isEmpty {
            text += "\n### Not as expected\n\n"
            for result in failing {
                text += "- **\(Escaped.markdown(result.cell.identifier))**: \(result.status.rawValue)\(result.reason.map { " (\(Escaped.markdown($0)))" } ?? "")\n\n"
                for finding in result.failingFindings { text += "  finding: \(Escaped.markdown(finding.description))\n\n" }
                text += Escaped.markdownCodeBlock(result.reproduce, indent: "  ") + "\n"
            }
        }
        return text
    }
}
