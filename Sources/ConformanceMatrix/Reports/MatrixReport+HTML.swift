import Foundation
import PackageSupport
import ExtensionRuntime

extension MatrixReport {
    /// One self-contained page (no network): the run's facts, the grid coloured by status with each cell a link
    /// to its details (status, reason, reproduce command, loads, returned items, what it kept, its log), which
    /// open when followed, from the grid or from an address ending in `#cell-N`. Every text is escaped as HTML,
    /// and a bug's address is a link only when it is `http` or `https`.
    public func html() -> String {
        let (rows, columns, at) = layout()
        let escape = Escaped.html
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>sharing test: \(cells.count) cells, \(unexpected.count) not as expected</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
            table.grid { border-collapse: collapse; }
            .grid th, .grid td { border: 1px solid #ccc; padding: 3px 8px; text-align: center; }
            .grid th.row { text-align: left; font-weight: normal; white-space: nowrap; }
            .grid td a { color: inherit; text-decoration: none; display: block; }
            td.unexpected { outline: 3px solid #b00020; outline-offset: -3px; font-weight: bold; }
            td.flaky { outline: 3px dashed #a36b00; outline-offset: -3px; }
            .completed { background: #d8f3dc; } .cancelled { background: #e9ecef; } .not-activated { background: #f8f9fa; color: #888; }
            .interrupted-memory { background: #ffd6a5; } .interrupted-timeout { background: #fdffb6; } .interrupted-disk { background: #ffc6ff; }
            .crashed { background: #ffadad; } .protocol-violation { background: #ff8fa3; } .host-killed { background: #caf0f8; }
            .leaked { background: #9d0208; color: white; } .harness-error { background: #adb5bd; }
            details { margin: .3em 0; border: 1px solid #ddd; padding: .3em .6em; } details[open] { background: #fcfcfc; }
            pre, code { font: 12px ui-monospace, monospace; white-space: pre-wrap; }
            dt { font-weight: bold; margin-top: .4em; }
            </style></head><body>
            <h1>sharing test</h1>
            <p>\(cells.count) cells, \(unexpected.count) not as expected, \(flaky.count) flaky. \(escape(counts.filter { $0.count > 0 }.map { "\($0.count) \($0.status.rawValue)" }.joined(separator: ", ")))</p>
            <p>sharing \(escape(runInfo.sharingVersion)), started \(escape(runInfo.started)) on \(escape(runInfo.cpu)) (\(runInfo.cores) cores), \(runInfo.jobs) at a time, seed \(runInfo.seed)\(runInfo.shard.map { ", shard \(escape($0))" } ?? "").</p>
            <table class="grid"><thead><tr><th></th>
            """
        page += columns.map { "<th>\(escape($0.label))</th>" }.joined() + "</tr></thead><tbody>\n"
        for row in rows {
            page += "<tr><th class=\"row\">\(escape(row))</th>"
            for column in columns {
                guard let index = at(row, column) else {
                    page += "<td></td>"
                    continue
                }
                let result = cells[index]
                let mark = result.isUnexpected ? " unexpected" : result.isFlaky ? " flaky" : ""
                page += "<td class=\"\(result.status.rawValue)\(mark)\" data-status=\"\(result.status.rawValue)\" data-cell=\"\(escape(result.cell.identifier))\" title=\"\(escape(result.cell.identifier)): \(result.status.rawValue)\">"
                page += "<a href=\"#cell-\(index)\">\(escape(result.status.symbol))</a></td>"
            }
            page += "</tr>\n"
        }
        page += "</tbody></table>\n<p>" + CellStatus.allCases.map { "<span class=\"\($0.rawValue)\">\(escape($0.symbol)) \($0.rawValue)</span>" }.joined(separator: " · ") + "</p>\n<h2>Cells</h2>\n"
        for (index, result) in cells.enumerated() {
            page += "<details id=\"cell-\(index)\" data-status=\"\(result.status.rawValue)\"><summary class=\"\(result.status.rawValue)\">\(escape(result.cell.identifier)): \(result.status.rawValue)"
            page += result.isUnexpected ? " (not as expected)" : result.isFlaky ? " (flaky)" : ""
            page += "</summary><dl>"
            func item(_ term: String, _ value: String) { page += "<dt>\(term)</dt><dd>\(value)</dd>" }
            if let reason = result.reason { item("Reason", escape(reason)) }
            item("Reproduce", "<code>\(escape(result.reproduce))</code>")
            item("Expected", escape(result.expected.map(\.rawValue).joined(separator: ", ")) + (result.bug.map { bug in
                Escaped.htmlLink(bug).map { " — <a href=\"\($0)\">\(escape(bug))</a>" } ?? " — \(escape(bug))"
            } ?? ""))
            if result.statuses.count > 1 { item("Runs", escape(result.statuses.map(\.rawValue).joined(separator: ", "))) }
            item("Time and memory", String(format: "%.2f s, peak %.1f MB", result.seconds, Double(result.peakFootprint) / 1_048_576))
            if !result.loads.isEmpty {
                item("Loads", "<ul>" + result.loads.map { load in
                    "<li>\(escape(load.type)) as \(load.form.rawValue)\(load.size.map { " \($0) bytes" } ?? "")\(load.failure.map { ": failed: \(escape($0))" } ?? "")</li>"
                }.joined() + "</ul>")
            }
            if !result.returned.isEmpty {
                item("Returned", "<ul>" + result.returned.map { "<li>\(escape($0.type))\($0.text.map { ": \(escape($0))" } ?? "")</li>" }.joined() + "</ul>")
            }
            if !result.openedURLs.isEmpty { item("Opened", escape(result.openedURLs.joined(separator: " "))) }
            if !result.appGroupFiles.isEmpty { item("Kept in its app group", escape(result.appGroupFiles.joined(separator: ", "))) }
            if !result.notes.isEmpty { item("Did not", escape(result.notes.joined(separator: "; "))) }
            if !result.findings.isEmpty {
                item("Findings", "<ul>" + result.findings.map { "<li>\($0.severity.rawValue): \(escape($0.description))</li>" }.joined() + "</ul>")
            }
            if !result.logTail.isEmpty { item("Its log", "<pre>\(escape(result.logTail.joined(separator: "\n")))</pre>") }
            page += "</dl></details>\n"
        }
        page += """
            <script>
            function openCell() {
              var cell = location.hash && document.getElementById(location.hash.slice(1));
              if (cell && cell.tagName === "DETAILS") { cell.open = true; cell.scrollIntoView(); }
            }
            window.addEventListener("hashchange", openCell);
            openCell();
            </script>
            </body></html>

            """
        return page
    }
}
