public import ExtensionRuntime
import Foundation

/// How one cell of the matrix ended: the runtime's one outcome, or what the matrix itself saw.
public enum CellStatus: RawRepresentable, Codable, Sendable, Hashable, CaseIterable {
    /// The run's own status (`not-activated` decided before any process starts).
    case run(ExtensionStatus)
    /// The host was killed on purpose and nothing of the extension outlived it.
    case hostKilled
    /// A process of the extension outlived its host.
    case leaked
    /// The matrix could not run the cell (its `sharing run` printed no report, or did not end).
    case harnessError

    public static let allCases: [CellStatus] = ExtensionStatus.allCases.map(CellStatus.run) + [.hostKilled, .leaked, .harnessError]

    public init?(rawValue: String) {
        guard let status = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = status
    }

    public var rawValue: String {
        switch self {
        case .run(let status): status.rawValue
        case .hostKilled: "host-killed"
        case .leaked: "leaked"
        case .harnessError: "harness-error"
        }
    }

    /// The grid's symbol.
    public var symbol: String {
        switch self {
        case .run(.completed): "✓"
        case .run(.cancelled): "C"
        case .run(.interruptedMemory): "M"
        case .run(.interruptedTimeout): "T"
        case .run(.interruptedDisk): "D"
        case .run(.crashed): "X"
        case .run(.protocolViolation): "P"
        case .run(.notActivated): "·"
        case .hostKilled: "K"
        case .leaked: "L"
        case .harnessError: "E"
        }
    }

    /// What a cell is expected to end as when no expectation names it: completed, cancelled with an error,
    /// or not offered at all.
    public static let expectedByDefault: [CellStatus] = [.run(.completed), .run(.cancelled), .run(.notActivated)]
}

/// One run of one bundle: its host profile, device, user and fault.
public struct MatrixCell: Codable, Sendable, Hashable {
    /// The bundle's path, as given.
    public var bundle: String
    public var host: String
    public var device: String?
    public var user: String
    /// The fault's canonical spec.
    public var fault: String

    public init(bundle: String, host: String, device: String? = nil, user: String = "post", fault: Fault) {
        self.bundle = bundle
        self.host = host
        self.device = device
        self.user = user
        self.fault = fault.description
    }

    /// The bundle's name (`Name` of `Name.appex`).
    public var bundleName: String { URL(fileURLWithPath: bundle).deletingPathExtension().lastPathComponent }

    /// The cell's name within its bundle and host: its device, user and fault, so that no two collide.
    public var name: String { "device=\(device ?? "none") user=\(user) fault=\(fault)" }

    /// Bundle, host, device, user and fault: unique in a matrix.
    public var identifier: String { "\(bundleName) \(host) \(name)" }
}

/// What one cell came to.
public struct CellResult: Codable, Sendable {
    public var cell: MatrixCell
    public var status: CellStatus
    /// Why it ended so, in the runtime's words (for not-activated, the clauses that fail).
    public var reason: String?
    /// The statuses it was expected to end as.
    public var expected: [CellStatus]
    public var seconds: Double
    public var peakFootprint: Int
    public var loads: [RunReport.Load]
    public var returned: [RunReport.Returned]
    public var openedURLs: [String]
    /// Files the extension left in its app group containers, relative to them.
    public var appGroupFiles: [String]
    /// The extension's last words, when it did not end the request itself (or what the harness saw).
    public var logTail: [String]
    /// What did not happen in a completed cell: attachments never loaded, loads that failed, nothing returned
    /// or kept.
    public var notes: [String]
    /// The command that runs this cell alone.
    public var reproduce: String

    public var isExpected: Bool { expected.contains(status) }

    public init(cell: MatrixCell, status: CellStatus, reason: String?, expected: [CellStatus] = CellStatus.expectedByDefault, seconds: Double,
                report: RunReport?, appGroupFiles: [String], attachments: Int, logTail: [String] = [], reproduce: String) {
        self.cell = cell
        self.status = status
        self.reason = reason
        self.expected = expected
        self.seconds = seconds
        peakFootprint = report?.peakFootprint ?? 0
        loads = report?.loads ?? []
        returned = report?.returned ?? []
        openedURLs = report?.openedURLs ?? []
        self.appGroupFiles = appGroupFiles
        self.logTail = report?.log ?? logTail
        self.reproduce = reproduce
        notes = []
        guard status == .run(.completed) else { return }
        if loads.isEmpty && attachments > 0 {
            notes.append(attachments == 1 ? "its attachment was never loaded" : "none of its \(attachments) attachments was loaded")
        }
        let failed = loads.filter { $0.failure != nil }.count
        if failed > 0 { notes.append("\(failed) of \(loads.count) load\(loads.count == 1 ? "" : "s") failed") }
        if returned.isEmpty && appGroupFiles.isEmpty && openedURLs.isEmpty {
            notes.append("nothing was returned, opened or written to the app group")
        }
    }
}

/// A matrix's results with what they were run on: what `sharing test --json` writes, versioned by `schema`
/// (see `docs/conformance-schema.json`), and what its JUnit, Markdown and terminal reports are made from.
public struct MatrixReport: Codable, Sendable {
    /// The schema's name and version, checked when a report is read back.
    public static let schemaName = "opensharing-conformance/1"

    public struct BundleInfo: Codable, Sendable {
        public var path: String
        public var name: String
        public var bundleIdentifier: String
        public var extensionPoint: String
        /// Of the bundle's whole tree, as `ALGORITHM:HEX`.
        public var bundleHash: String
        /// Of its activation rule as the predicate evaluated; `nil` when it has none.
        public var activationRuleHash: String?

        public init(path: String, name: String, bundleIdentifier: String, extensionPoint: String, bundleHash: String, activationRuleHash: String?) {
            self.path = path
            self.name = name
            self.bundleIdentifier = bundleIdentifier
            self.extensionPoint = extensionPoint
            self.bundleHash = bundleHash
            self.activationRuleHash = activationRuleHash
        }
    }

    public struct RunInfo: Codable, Sendable {
        public var sharingVersion: String
        public var started: String
        public var host: String
        public var cpu: String
        public var cores: Int
        public var jobs: Int
        /// The request's time limit given to every cell, in seconds; `nil` for each point's own.
        public var timeout: Double?
        public var hosts: [String]
        public var faults: [String]
        public var bundles: [BundleInfo]

        public init(sharingVersion: String, started: String, host: String, cpu: String, cores: Int, jobs: Int, timeout: Double?,
                    hosts: [String], faults: [String], bundles: [BundleInfo]) {
            self.sharingVersion = sharingVersion
            self.started = started
            self.host = host
            self.cpu = cpu
            self.cores = cores
            self.jobs = jobs
            self.timeout = timeout
            self.hosts = hosts
            self.faults = faults
            self.bundles = bundles
        }
    }

    public var schema: String
    public var runInfo: RunInfo
    public var cells: [CellResult]

    public init(runInfo: RunInfo, cells: [CellResult]) {
        schema = Self.schemaName
        self.runInfo = runInfo
        self.cells = cells
    }

    /// The cells not as expected.
    public var unexpected: [CellResult] { cells.filter { !$0.isExpected } }

    /// How many cells ended as each status, every status named.
    public var counts: [(status: CellStatus, count: Int)] {
        CellStatus.allCases.map { status in (status, cells.filter { $0.status == status }.count) }
    }
}

extension MatrixReport {
    /// The grid for a terminal: a row per bundle and host, a column per fault (and device and user when they
    /// vary), one symbol per status; a `!` after the symbol of a cell not as expected.
    public func grid() -> String {
        let columns = orderedUnique(cells.map { Column($0.cell) })
        let rows = orderedUnique(cells.map { "\($0.cell.bundleName) \($0.cell.host)" })
        let rowWidth = max(rows.map(\.count).max() ?? 0, 4)
        let labels = columns.map(\.label)
        let widths = labels.map { max($0.count, 2) }
        var lines = [pad("", rowWidth) + "  " + zip(labels, widths).map { pad($0, $1) }.joined(separator: "  ")]
        var byRow: [String: [Column: CellResult]] = [:]
        for result in cells { byRow["\(result.cell.bundleName) \(result.cell.host)", default: [:]][Column(result.cell)] = result }
        for row in rows {
            let symbols = columns.map { column -> String in
                guard let result = byRow[row]?[column] else { return "" }
                return result.status.symbol + (result.isExpected ? "" : "!")
            }
            lines.append(pad(row, rowWidth) + "  " + zip(symbols, widths).map { pad($0, $1) }.joined(separator: "  "))
        }
        let legend = CellStatus.allCases.map { "\($0.symbol) \($0.rawValue)" }.joined(separator: "  ")
        lines.append("")
        lines.append(legend + "  ! not as expected")
        lines.append(counts.filter { $0.count > 0 }.map { "\($0.count) \($0.status.rawValue)" }.joined(separator: ", ")
                     + "; \(cells.count) cells, \(unexpected.count) not as expected")
        return lines.joined(separator: "\n")
    }

    /// JUnit XML: a test suite per bundle and host profile, a test case per cell named by its device, user and
    /// fault; a cell not as expected fails with its status as the type and its reproduce command first, a
    /// not-activated one is skipped; the cell's parameters are properties.
    public func junit() -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let failures = unexpected.count
        xml += #"<testsuites name="sharing test" tests="\#(cells.count)" failures="\#(failures)" skipped="\#(cells.filter { $0.status == .run(.notActivated) }.count)">"# + "\n"
        let suites = orderedUnique(cells.map { "\($0.cell.bundleName).\($0.cell.host)" })
        for suite in suites {
            let members = cells.filter { "\($0.cell.bundleName).\($0.cell.host)" == suite }
            let time = members.reduce(0) { $0 + $1.seconds }
            xml += #"  <testsuite name="\#(escape(suite))" tests="\#(members.count)" failures="\#(members.filter { !$0.isExpected }.count)" skipped="\#(members.filter { $0.status == .run(.notActivated) }.count)" time="\#(String(format: "%.3f", time))">"# + "\n"
            for result in members {
                xml += #"    <testcase classname="\#(escape(suite))" name="\#(escape(result.cell.name))" time="\#(String(format: "%.3f", result.seconds))">"# + "\n"
                xml += "      <properties>\n"
                for (name, value) in [("bundle", result.cell.bundle), ("host", result.cell.host), ("device", result.cell.device ?? "none"),
                                      ("user", result.cell.user), ("fault", result.cell.fault), ("status", result.status.rawValue),
                                      ("peakFootprint", String(result.peakFootprint))] {
                    xml += #"        <property name="\#(name)" value="\#(escape(value))"/>"# + "\n"
                }
                xml += "      </properties>\n"
                if !result.isExpected {
                    let text = ([result.reproduce, "status: \(result.status.rawValue), expected \(result.expected.map(\.rawValue).joined(separator: " or "))"]
                                + (result.reason.map { ["reason: \($0)"] } ?? []) + result.logTail).joined(separator: "\n")
                    xml += #"      <failure type="\#(result.status.rawValue)" message="\#(escape(result.reason ?? result.status.rawValue))">\#(escape(text))</failure>"# + "\n"
                } else if result.status == .run(.notActivated) {
                    xml += #"      <skipped message="\#(escape(result.reason ?? "not activated"))"/>"# + "\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Markdown for a CI job's summary: the counts, the grid as a table, then each cell not as expected with
    /// its reproduce command.
    public func markdown() -> String {
        let columns = orderedUnique(cells.map { Column($0.cell) })
        let rows = orderedUnique(cells.map { "\($0.cell.bundleName) \($0.cell.host)" })
        var byRow: [String: [Column: CellResult]] = [:]
        for result in cells { byRow["\(result.cell.bundleName) \(result.cell.host)", default: [:]][Column(result.cell)] = result }
        var text = "## sharing test: \(cells.count) cells, \(unexpected.count) not as expected\n\n"
        text += counts.filter { $0.count > 0 }.map { "\($0.status.symbol) \($0.status.rawValue): \($0.count)" }.joined(separator: " · ") + "\n\n"
        text += "| bundle · host | " + columns.map { "`\($0.label)`" }.joined(separator: " | ") + " |\n"
        text += "|---|" + columns.map { _ in "---" }.joined(separator: "|") + "|\n"
        for row in rows {
            text += "| \(row) | " + columns.map { column in
                guard let result = byRow[row]?[column] else { return "" }
                return result.isExpected ? result.status.symbol : "**\(result.status.symbol) \(result.status.rawValue)**"
            }.joined(separator: " | ") + " |\n"
        }
        let failing = unexpected
        if !failing.isEmpty {
            text += "\n### Not as expected\n\n"
            for result in failing {
                text += "- **\(result.cell.identifier)**: \(result.status.rawValue)\(result.reason.map { " (\($0))" } ?? "")\n\n  ```\n  \(result.reproduce)\n  ```\n"
            }
        }
        return text
    }

    /// A grid column: the cell's fault, with its device and user.
    private struct Column: Hashable {
        var fault: String, device: String?, user: String
        init(_ cell: MatrixCell) {
            fault = cell.fault
            device = cell.device
            user = cell.user
        }
        var label: String {
            [device, user == "post" ? nil : user, fault].compactMap { $0 }.joined(separator: " ")
        }
    }

    private func orderedUnique<T: Hashable>(_ values: [T]) -> [T] {
        var seen: Set<T> = []
        return values.filter { seen.insert($0).inserted }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n", "\t": escaped.unicodeScalars.append(scalar)
            // Characters XML 1.0 cannot hold at all (an extension's log may have any byte).
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
