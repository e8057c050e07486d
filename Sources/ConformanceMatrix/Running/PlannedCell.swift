public import Foundation
import PackageSupport
import SharingSystem

/// One cell as planned: the cell, its directory under the matrix's work directory (its app group and data store
/// are in it), and its status when decided without a process (the extension would not be offered, the payload
/// would be refused).
public struct PlannedCell: Sendable {
    public var cell: MatrixCell
    public var directory: URL
    public var decided: (status: CellStatus, reason: String)?
    /// How many attachments the host's share holds.
    public var attachments: Int
}

extension PlannedCell {
    /// Runs the cell with this process as its host (the extension its own process), as a test in Swift runs
    /// one: decided when planned so, else run and reported as the matrix reports a cell's process. A cell whose
    /// fault kills its host is the matrix's alone (`sharing test`), which runs it as a process of its own.
    ///
    /// - Throws: `CellError` when the cell cannot run (`.needsOwnProcess` for `host-killed`).
    public func run() async throws(CellError) -> CellResult {
        if let (status, reason) = decided { return CellResult(cell: cell, status: status, reason: reason, attachments: attachments) }
        guard !cell.killsHost else {
            throw CellError(.needsOwnProcess, field: "faults", "host-killed kills its host: run it as sharing test runs it, a process of its own")
        }
        try? FileSystem.removeTree(directory)
        defer { try? FileSystem.removeTree(directory) }
        let clock = ContinuousClock(), start = clock.now
        switch cell.kind {
        case .share:
            let report = try await cell.runShare()
            return CellResult(report, seconds: start.duration(to: clock.now).inSeconds, appGroupFiles: keptFiles())
        case .notifications:
            let report = try await cell.runNotifications()
            return CellResult(report, seconds: start.duration(to: clock.now).inSeconds, appGroupFiles: keptFiles())
        }
    }

    /// The regular files the extension left in its app group containers, relative to them.
    func keptFiles() -> [String] {
        cell.appGroup.map { FileSystem.regularFiles(beneath: URL(fileURLWithPath: $0, isDirectory: true), entryLimit: 100_000) } ?? []
    }
}
