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

    /// What a cell is expected to end as when no expectation names it: completed, cancelled with an error, not
    /// offered at all, or (under `host-killed`) gone with its host.
    public static let expectedByDefault: [CellStatus] = [.run(.completed), .run(.cancelled), .run(.notActivated), .hostKilled]
}

/// One run of one bundle: its host profile (or, for a notification service, its payload), device, user and
/// fault.
public struct MatrixCell: Codable, Sendable, Hashable {
    /// The bundle's path, as given.
    public var bundle: String
    /// The host profile whose share it runs on; `nil` for a payload's cell.
    public var host: String?
    /// The push payload a notification service is sent (its file's name without `.json`); `nil` for a share's.
    public var payload: String?
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

    public init(bundle: String, payload: String, device: String? = nil, fault: Fault) {
        self.bundle = bundle
        self.payload = payload
        self.device = device
        user = "none"
        self.fault = fault.description
    }

    /// The bundle's name (`Name` of `Name.appex`).
    public var bundleName: String { URL(fileURLWithPath: bundle).deletingPathExtension().lastPathComponent }

    /// What the bundle is run on: the host profile's name, or `payload NAME`.
    public var subject: String { host ?? "payload \(payload ?? "")" }

    /// The grid's row: the bundle and what it is run on.
    public var row: String { "\(bundleName) \(subject)" }

    /// The cell's name within its row: its device, user and fault, so that no two collide.
    public var name: String { "device=\(device ?? "none") user=\(user) fault=\(fault)" }

    /// Bundle, host or payload, device, user and fault: unique in a matrix.
    public var identifier: String { "\(row) \(name)" }
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
    /// Its `sharing run` arguments, for `--retry`.
    public var arguments: [String]
    /// How many attachments the host's share held.
    public var attachments: Int
    /// What each run of the cell ended as, when it ran more than once (`--repeat`); the details above are the
    /// first run's.
    public var statuses: [CellStatus]
    /// The expectations say the cell is known to vary.
    public var knownFlaky: Bool
    /// The bug the expectations link the cell to.
    public var bug: String?
    /// Its place in the order the cells were started (from 0; its first run's, when it ran more than once):
    /// the same for the same `--seed`.
    public var order: Int?

    /// Every run ended as expected.
    public var isExpected: Bool { statuses.allSatisfy(expected.contains) }
    /// Its runs ended differently, or it is known to vary and did not end as expected.
    public var isFlaky: Bool { Set(statuses).count > 1 || (knownFlaky && !isExpected) }
    /// Not as expected, and not flaky: a failure.
    public var isUnexpected: Bool { !isFlaky && !isExpected }

    public init(cell: MatrixCell, status: CellStatus, reason: String?, seconds: Double, report: RunReport?, appGroupFiles: [String],
                attachments: Int, logTail: [String] = [], arguments: [String], reproduce: String) {
        self.cell = cell
        self.status = status
        self.reason = reason
        expected = CellStatus.expectedByDefault
        statuses = [status]
        knownFlaky = false
        self.arguments = arguments
        self.attachments = attachments
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
        notes = Self.notes(loads: loads, returned: returned, appGroupFiles: appGroupFiles, openedURLs: openedURLs, attachments: attachments)
    }

    /// Applies an expectation (its statuses, whether the cell is known to vary, its bug); `nil` keeps the default.
    public mutating func expect(_ entry: Expectations.Entry?) {
        guard let entry else { return }
        expected = entry.statuses
        knownFlaky = entry.flaky ?? false
        bug = entry.bug
    }

    /// Counts another run of the same cell.
    public mutating func recordRepeat(_ other: CellResult) {
        statuses += other.statuses
    }

    /// What a completed run did not do.
    private static func notes(loads: [RunReport.Load], returned: [RunReport.Returned], appGroupFiles: [String], openedURLs: [String],
                              attachments: Int) -> [String] {
        var notes: [String] = []
        if loads.isEmpty && attachments > 0 {
            notes.append(attachments == 1 ? "its attachment was never loaded" : "none of its \(attachments) attachments was loaded")
        }
        let failed = loads.filter { $0.failure != nil }.count
        if failed > 0 { notes.append("\(failed) of \(loads.count) load\(loads.count == 1 ? "" : "s") failed") }
        if returned.isEmpty && appGroupFiles.isEmpty && openedURLs.isEmpty {
            notes.append("nothing was returned, opened or written to the app group")
        }
        return notes
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
        /// The payloads notification services were sent.
        public var payloads: [String]
        public var faults: [String]
        public var devices: [String]
        public var users: [String]
        public var bundles: [BundleInfo]
        /// What ordered the cells' runs (`--seed`).
        public var seed: UInt64
        /// Runs of each cell (`--repeat`).
        public var repeats: Int
        /// `I/N` when this run was one shard of N (`--shard`).
        public var shard: String?
        /// The expectations file, when one was given.
        public var expectations: String?

        public init(sharingVersion: String, started: String, host: String, cpu: String, cores: Int, jobs: Int, timeout: Double?,
                    hosts: [String], payloads: [String], faults: [String], devices: [String], users: [String], bundles: [BundleInfo],
                    seed: UInt64, repeats: Int, shard: String?, expectations: String?) {
            self.payloads = payloads
            self.devices = devices
            self.users = users
            self.seed = seed
            self.repeats = repeats
            self.shard = shard
            self.expectations = expectations
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

    /// The cells not as expected, flaky ones aside: failures.
    public var unexpected: [CellResult] { cells.filter(\.isUnexpected) }

    /// The cells whose runs varied, or known to vary that did not end as expected.
    public var flaky: [CellResult] { cells.filter(\.isFlaky) }

    /// The exit status a run of these cells ends with: 1 for a failure, else 3 for a flaky cell, else 0.
    public var exitStatus: Int32 { !unexpected.isEmpty ? 1 : !flaky.isEmpty ? 3 : 0 }

    /// Shards' reports joined into one: every cell (a cell in several, the last report's), the run info of the
    /// first with every shard's hosts, payloads, faults, devices, users and bundles.
    public static func merged(_ reports: [MatrixReport]) -> MatrixReport? {
        guard var info = reports.first?.runInfo else { return nil }
        func union(_ lists: [[String]]) -> [String] {
            lists.joined().reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        }
        info.hosts = union(reports.map(\.runInfo.hosts))
        info.payloads = union(reports.map(\.runInfo.payloads))
        info.faults = union(reports.map(\.runInfo.faults))
        info.devices = union(reports.map(\.runInfo.devices))
        info.users = union(reports.map(\.runInfo.users))
        info.bundles = reports.flatMap(\.runInfo.bundles).reduce(into: []) { bundles, bundle in
            if !bundles.contains(where: { $0.path == bundle.path }) { bundles.append(bundle) }
        }
        info.shard = nil
        var cells: [CellResult] = [], index: [String: Int] = [:]
        for cell in reports.flatMap(\.cells) {
            if let existing = index[cell.cell.identifier] {
                cells[existing] = cell
            } else {
                index[cell.cell.identifier] = cells.count
                cells.append(cell)
            }
        }
        // In the order one run would have made them: bundles, hosts, devices, users, faults as the run info lists them.
        func rank(_ list: [String], _ value: String) -> Int { list.firstIndex(of: value) ?? list.count }
        let paths = info.bundles.map(\.path)
        cells.sort { a, b in
            func key(_ cell: MatrixCell) -> [Int] {
                [rank(paths, cell.bundle), rank(info.hosts + info.payloads.map { "payload \($0)" }, cell.subject), rank(info.devices, cell.device ?? "none"), rank(info.users, cell.user),
                 rank(info.faults, cell.fault)]
            }
            return key(a.cell).lexicographicallyPrecedes(key(b.cell))
        }
        return MatrixReport(runInfo: info, cells: cells)
    }

    /// How many cells ended as each status, every status named.
    public var counts: [(status: CellStatus, count: Int)] {
        CellStatus.allCases.map { status in (status, cells.filter { $0.status == status }.count) }
    }
}

extension MatrixReport {
    /// The grid for a terminal: a row per bundle and host, a column per fault (and device and user when they
    /// vary), one symbol per status; a `!` after the symbol of a cell not as expected.
    public func grid() -> String {
        let (rows, columns, at) = layout()
        let rowWidth = max(rows.map(\.count).max() ?? 0, 4)
        let labels = columns.map(\.label)
        let widths = labels.map { max($0.count, 2) }
        var lines = [pad("", rowWidth) + "  " + zip(labels, widths).map { pad($0, $1) }.joined(separator: "  ")]
        for row in rows {
            let symbols = columns.map { column -> String in
                guard let result = at(row, column).map({ cells[$0] }) else { return "" }
                return result.status.symbol + (result.isUnexpected ? "!" : result.isFlaky ? "?" : "")
            }
            lines.append(pad(row, rowWidth) + "  " + zip(symbols, widths).map { pad($0, $1) }.joined(separator: "  "))
        }
        let legend = CellStatus.allCases.map { "\($0.symbol) \($0.rawValue)" }.joined(separator: "  ")
        lines.append("")
        lines.append(legend + "  ! not as expected  ? flaky")
        lines.append(counts.filter { $0.count > 0 }.map { "\($0.count) \($0.status.rawValue)" }.joined(separator: ", ")
                     + "; \(cells.count) cells, \(unexpected.count) not as expected, \(flaky.count) flaky")
        return lines.joined(separator: "\n")
    }

    /// JUnit XML: a test suite per bundle and host profile (or payload), a test case per cell named by its device, user and
    /// fault; a cell not as expected fails with its status as the type and its reproduce command first, a
    /// not-activated one is skipped; the cell's parameters are properties.
    public func junit() -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let failures = unexpected.count
        xml += #"<testsuites name="sharing test" tests="\#(cells.count)" failures="\#(failures)" skipped="\#(cells.filter { $0.status == .run(.notActivated) }.count)">"# + "\n"
        let suites = orderedUnique(cells.map { "\($0.cell.bundleName).\($0.cell.subject)" })
        for suite in suites {
            let members = cells.filter { "\($0.cell.bundleName).\($0.cell.subject)" == suite }
            let time = members.reduce(0) { $0 + $1.seconds }
            xml += #"  <testsuite name="\#(escape(suite))" tests="\#(members.count)" failures="\#(members.filter(\.isUnexpected).count)" skipped="\#(members.filter { $0.status == .run(.notActivated) }.count)" time="\#(String(format: "%.3f", time))">"# + "\n"
            for result in members {
                xml += #"    <testcase classname="\#(escape(suite))" name="\#(escape(result.cell.name))" time="\#(String(format: "%.3f", result.seconds))">"# + "\n"
                xml += "      <properties>\n"
                for (name, value) in [("bundle", result.cell.bundle), (result.cell.host == nil ? "payload" : "host", result.cell.host ?? result.cell.payload ?? ""), ("device", result.cell.device ?? "none"),
                                      ("user", result.cell.user), ("fault", result.cell.fault), ("status", result.status.rawValue),
                                      ("peakFootprint", String(result.peakFootprint)), ("flaky", String(result.isFlaky)),
                                      ("statuses", result.statuses.map(\.rawValue).joined(separator: " "))] + (result.bug.map { [("bug", $0)] } ?? []) {
                    xml += #"        <property name="\#(name)" value="\#(escape(value))"/>"# + "\n"
                }
                xml += "      </properties>\n"
                if result.isUnexpected {
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
        let (rows, columns, at) = layout()
        var text = "## sharing test: \(cells.count) cells, \(unexpected.count) not as expected, \(flaky.count) flaky\n\n"
        text += counts.filter { $0.count > 0 }.map { "\($0.status.symbol) \($0.status.rawValue): \($0.count)" }.joined(separator: " · ") + "\n\n"
        text += "| bundle · host or payload | " + columns.map { "`\($0.label)`" }.joined(separator: " | ") + " |\n"
        text += "|---|" + columns.map { _ in "---" }.joined(separator: "|") + "|\n"
        for row in rows {
            text += "| \(row) | " + columns.map { column in
                guard let result = at(row, column).map({ cells[$0] }) else { return "" }
                return result.isUnexpected ? "**\(result.status.symbol) \(result.status.rawValue)**"
                    : result.isFlaky ? "\(result.status.symbol)? flaky" : result.status.symbol
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

    /// The grid every report draws: a row per bundle and host or payload, a column per fault (with device and
    /// user), both in the order the cells come; and the index of the cell at a row and column, if any.
    func layout() -> (rows: [String], columns: [Column], at: (String, Column) -> Int?) {
        var index: [String: [Column: Int]] = [:]
        for (number, result) in cells.enumerated() { index[result.cell.row, default: [:]][Column(result.cell)] = number }
        return (orderedUnique(cells.map(\.cell.row)), orderedUnique(cells.map { Column($0.cell) }), { index[$0]?[$1] })
    }

    /// A grid column: the cell's fault, with its device and user.
    struct Column: Hashable {
        var fault: String, device: String?, user: String
        init(_ cell: MatrixCell) {
            fault = cell.fault
            device = cell.device
            // A payload's cell has no person acting in it: it shares the column of its fault.
            user = cell.payload == nil ? cell.user : "post"
        }
        var label: String {
            [device, user == "post" ? nil : "user=\(user)", fault].compactMap { $0 }.joined(separator: " ")
        }
    }

    func orderedUnique<T: Hashable>(_ values: [T]) -> [T] {
        var seen: Set<T> = []
        return values.filter { seen.insert($0).inserted }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    func escape(_ text: String) -> String {
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
