import ExtensionRuntime
import Foundation
import PackageSupport
import OpenExtensionUI
import HostProfiles

extension MatrixReport {
    /// The grid for a terminal: a row per bundle and host, a column per fault (and device and user when they
    /// vary), one symbol per status; a `!` after the symbol of a cell not as expected. Text from the report
    /// (names a merged shard gave) is escaped for the terminal.
    public func grid() -> String {
        let (rows, columns, at) = layout()
        let shownRows = rows.map { Escaped.terminal($0) }
        let rowWidth = max(shownRows.map(\.count).max() ?? 0, 4)
        let labels = columns.map { Escaped.terminal($0.label) }
        let widths = labels.map { max($0.count, 2) }
        var lines = [pad("", rowWidth) + "  " + zip(labels, widths).map { pad($0, $1) }.joined(separator: "  ")]
        for (row, shown) in zip(rows, shownRows) {
            let symbols = columns.map { column -> String in
                guard let result = at(row, column).map({ cells[$0] }) else { return "" }
                return result.status.symbol + (result.isUnexpected ? "!" : result.isFlaky ? "?" : "")
            }
            lines.append(pad(shown, rowWidth) + "  " + zip(symbols, widths).map { pad($0, $1) }.joined(separator: "  "))
        }
        let legend = CellStatus.allCases.map { "\($0.symbol) \($0.rawValue)" }.joined(separator: "  ")
        lines.append("")
        lines.append(legend + "  ! not as expected  ? flaky")
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// The counts in one line: each status that occurs, then the cells, those not as expected, and the flaky.
    public var summary: String {
        counts.filter { $0.count > 0 }.map { "\($0.count) \($0.status.rawValue)" }.joined(separator: ", ")
            + "; \(cells.count) cells, \(unexpected.count) not as expected, \(flaky.count) flaky"
    }

    /// How many cells ended as each status, every status named.
    public var counts: [(status: CellStatus, count: Int)] {
        CellStatus.allCases.map { status in (status, cells.filter { $0.status == status }.count) }
    }

    /// The grid every report draws: a row per bundle and host or payload, a column per fault (with device and
    /// user), both in the order the cells come; and the index of the cell at a row and column, if any.
    func layout() -> (rows: [String], columns: [Column], at: (String, Column) -> Int?) {
        var index: [String: [Column: Int]] = [:]
        for (number, result) in cells.enumerated() { index[result.cell.row, default: [:]][Column(result.cell)] = number }
        return (orderedUnique(cells.map(\.cell.row)), orderedUnique(cells.map { Column($0.cell) }), { index[$0]?[$1] })
    }

    /// A grid column: the cell's faults, with its device and user.
    struct Column: Hashable {
        var fault: String, device: String, user: ExtensionUser
        init(_ cell: MatrixCell) {
            fault = cell.faultName
            device = cell.device?.name ?? "none"
            // A payload's cell has no person acting in it: it shares the column of its fault.
            user = cell.kind == .notifications ? .post : cell.user
        }
        var label: String {
            [device, user == .post ? nil : "user=\(user.rawValue)", fault].compactMap { $0 }.joined(separator: " ")
        }
    }

    func orderedUnique<T: Hashable>(_ values: [T]) -> [T] {
        var seen: Set<T> = []
        return values.filter { seen.insert($0).inserted }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
