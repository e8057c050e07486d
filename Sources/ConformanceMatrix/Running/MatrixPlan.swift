import ExtensionManifest
import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI
import OpenItemProvider
import ShareInbox
import SharingSystem

/// A matrix's cells, planned: what to run, what the person should be told, and the run's information.
public struct MatrixPlan: Sendable {
    public var cells: [PlannedCell]
    /// Hosts that cannot share the content, bundles of no point the matrix runs: left out, said so.
    public var notes: [String]
    public var runInfo: MatrixReport.RunInfo
    /// The default payloads name an image the matrix serves while it runs.
    public var servesImage: Bool

    /// The planned cells that run `report`'s cells again: those not as expected or flaky. Each must be a cell
    /// this plan has — the same bundle, host or payload, device, user, fault and time limit, its share and
    /// directories where the report's run planned them beneath its own work directory — so that nothing of a
    /// report is run but what this run plans itself.
    ///
    /// - Throws: `ReportError` (`.inconsistent`) naming the first cell, and the field, that differs.
    public func rerunning(_ report: MatrixReport, file: String) throws(ReportError) -> [PlannedCell] {
        let planned = Dictionary(cells.map { ($0.cell.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var chosen: [PlannedCell] = []
        for (index, result) in report.cells.enumerated() where !result.isExpected || result.isFlaky {
            guard let match = planned[result.cell.identifier] else {
                throw ReportError(.inconsistent, file: file, field: "cells[\(index)].cell", "\(result.cell.identifier) is not a cell of the report's run")
            }
            var moved = result.cell.rebased(from: report.runInfo.work, to: runInfo.work)
            // Its folders are the planner's own, its process's (reading checked they lie in the report's work
            // directory): the cell runs in this run's.
            moved.appGroup = match.cell.appGroup
            moved.dataStore = match.cell.dataStore
            if let field = moved.firstDifference(from: match.cell) {
                throw ReportError(.inconsistent, file: file, field: "cells[\(index)].cell.\(field)",
                                  "is not what the report's run planned for \(result.cell.identifier)")
            }
            if !chosen.contains(where: { $0.cell.identifier == match.cell.identifier }) { chosen.append(match) }
        }
        return chosen
    }
}
