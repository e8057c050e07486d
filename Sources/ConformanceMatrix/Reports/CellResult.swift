public import ExtensionRuntime
import Foundation
import OpenUserNotifications

/// What one cell came to: its status and why, what the extension did, and whether that was expected.
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
    /// or kept; for a notification, the original shown.
    public var notes: [String]
    /// What the runtime found beside the status (`docs/conformance.md`, Findings); a `fail` finding makes the
    /// cell not as expected unless the expectations allow its code.
    public var findings: [Finding]
    /// The codes of `fail` findings the expectations allow.
    public var allowedFindings: [Finding.Code]?
    /// The command that runs this cell alone, rendered from `cell` (and rendered again from it whenever a
    /// report is read: it says only what the cell says).
    public var reproduce: String
    /// How many attachments the host's share held.
    public var attachments: Int
    /// What each run of the cell ended as, when it ran more than once (`--repeat`); the details above are the
    /// first run's.
    public var statuses: [CellStatus]
    /// What differed between the cell's runs (`--repeat`), in the order first seen: empty when every run ended
    /// alike.
    public var varied: [Clause]
    /// The expectations say the cell is known to vary.
    public var knownFlaky: Bool
    /// The bug the expectations link the cell to.
    public var bug: String?
    /// Its place in the order the cells were started (from 0; its first run's, when it ran more than once):
    /// the same for the same `--seed`.
    public var order: Int?

    /// Every run ended as expected, with no `fail` finding the expectations do not allow.
    public var isExpected: Bool { statuses.allSatisfy(expected.contains) && failingFindings.isEmpty }

    /// Its `fail` findings the expectations do not allow.
    public var failingFindings: [Finding] {
        findings.filter { $0.severity == .fail && !(allowedFindings ?? []).contains($0.code) }
    }
    /// Its runs ended differently (their status, a finding, a load's answer, what was returned), or it is known
    /// to vary and did not end as expected.
    public var isFlaky: Bool { !varied.isEmpty || (knownFlaky && !isExpected) }

    /// A part of a cell's result that can differ between its runs.
    public enum Clause: String, Codable, Sendable {
        /// How the run ended.
        case status
        /// What the matrix noted of a completed run (an attachment never loaded, a load that failed, nothing
        /// kept), or what the runtime found (a finding).
        case finding
        /// What a load was answered with: its form, size or failure (compared when both runs completed).
        case load
        /// What the extension returned (compared when both runs completed).
        case returned
    }
    /// Not as expected, and not flaky: a failure.
    public var isUnexpected: Bool { !isFlaky && !isExpected }

    /// The cell's result in one line, for a test's failure message: its identifier, its status and why, each
    /// finding that fails it, its extension's last words when it did not end the request itself, and the
    /// command that reproduces it.
    public var summary: String {
        var parts = ["\(cell.identifier): \(status.rawValue)" + (reason.map { ": \($0)" } ?? "")]
        parts += failingFindings.map { "finding \($0.code.rawValue): \($0.message)" }
        if let last = logTail.last(where: { !$0.isEmpty }) { parts.append("its last words: \(last)") }
        parts.append("reproduce: \(reproduce)")
        return parts.joined(separator: " — ").split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A cell that ended as `status` for `reason`, with nothing more known of it: decided before any process
    /// started (not activated, a payload refused), or what the matrix saw of a run that gave no report.
    public init(cell: MatrixCell, status: CellStatus, reason: String?, seconds: Double = 0, attachments: Int = 0, logTail: [String] = []) {
        self.cell = cell
        self.status = status
        self.reason = reason
        expected = CellStatus.expectedByDefault
        statuses = [status]
        varied = []
        knownFlaky = false
        self.seconds = seconds
        self.attachments = attachments
        peakFootprint = 0
        loads = []
        returned = []
        openedURLs = []
        appGroupFiles = []
        self.logTail = logTail
        notes = []
        findings = []
        reproduce = cell.reproduce()
    }

    /// A share's cell, from its run's report and the files its extension kept in its app group.
    public init(_ report: RunReport, seconds: Double, appGroupFiles: [String]) {
        self.init(cell: report.cell, status: .run(report.status), reason: report.reason, seconds: seconds, attachments: report.attachments,
                  logTail: report.log ?? [])
        peakFootprint = report.peakFootprint
        loads = report.loads
        returned = report.returned
        openedURLs = report.openedURLs
        self.appGroupFiles = appGroupFiles
        findings = report.findings
        guard report.status == .completed else { return }
        if loads.isEmpty && attachments > 0 {
            notes.append(attachments == 1 ? "its attachment was never loaded" : "none of its \(attachments) attachments was loaded")
        }
        let failed = loads.filter { $0.failure != nil }.count
        if failed > 0 { notes.append("\(failed) of \(loads.count) load\(loads.count == 1 ? "" : "s") failed") }
        if returned.isEmpty && appGroupFiles.isEmpty && openedURLs.isEmpty && report.connections.isEmpty && report.lookups.isEmpty
            && !findings.contains(where: { $0.code == .nothingKept }) {
            notes.append("nothing was returned, opened or written to the app group")
        }
    }

    /// A payload's cell, from its run's report (its one notification): the service's status, or not activated
    /// when the payload did not ask for it; what the person sees as what was returned.
    public init(_ report: NotificationRunReport, seconds: Double, appGroupFiles: [String]) {
        guard let shown = report.notifications.first else {
            self.init(cell: report.cell, status: .harnessError, reason: "sharing notify reported no notification", seconds: seconds)
            return
        }
        let status = shown.status.map(CellStatus.run) ?? .run(.notActivated)
        let reason = shown.status == nil ? "the payload does not ask for the extension: shown as sent" : shown.reason
        self.init(cell: report.cell, status: status, reason: reason, seconds: seconds, logTail: shown.log ?? [])
        peakFootprint = shown.peakFootprint
        returned = [RunReport.Returned(type: "title", text: shown.content.title), RunReport.Returned(type: "body", text: shown.content.body)]
            + shown.content.attachments.map { RunReport.Returned(type: $0.type, size: $0.size) }
        self.appGroupFiles = appGroupFiles
        findings = shown.findings
        if status == .run(.completed) && shown.delivered == .original { notes = ["the original content was shown, not the extension's"] }
    }

    /// Applies an expectation (its statuses, whether the cell is known to vary, its bug); `nil` keeps the default.
    public mutating func expect(_ entry: Expectations.Entry?) {
        guard let entry else { return }
        expected = entry.statuses
        allowedFindings = entry.findings
        knownFlaky = entry.flaky ?? false
        bug = entry.bug
    }

    /// Counts another run of the same cell.
    public mutating func recordRepeat(_ other: CellResult) {
        var differing: [Clause] = []
        if other.status != status { differing.append(.status) }
        if other.notes != notes || other.findings != findings { differing.append(.finding) }
        if other.status == status && status == .run(.completed) {
            // Loads asked for at once cross in either order: what each was answered with is what counts.
            func answers(_ loads: [RunReport.Load]) -> [String] { loads.map { "\($0)" }.sorted() }
            if answers(other.loads) != answers(loads) { differing.append(.load) }
            if other.returned != returned { differing.append(.returned) }
        }
        varied += differing.filter { !varied.contains($0) }
        statuses += other.statuses
    }
}
