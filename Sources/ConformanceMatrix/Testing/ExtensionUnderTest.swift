public import ExtensionRuntime
public import Foundation
public import HostProfiles
public import OpenExtensionUI
import SharingSystem

/// An extension bundle tested from Swift — Swift Testing's `@Test(arguments:)` or XCTest — one cell of the
/// conformance matrix per call, planned as `sharing test` plans it and reported in the same terms:
///
/// ```swift
/// let share = ExtensionUnderTest(bundle: URL(fileURLWithPath: ".build/extensions/MyShare.appex"))
///
/// @Test(arguments: HostProfile.allCases)
/// func share(host: HostProfile) async throws {
///     let result = try await share.run(on: host)
///     #expect(result.isExpected, "\(result.summary)")
/// }
/// ```
///
/// Each call runs the extension as a process of its own with this process as its host, so a crash or a kill
/// of the extension is a result, not the test's end. `MatrixReport(collecting:)` makes the matrix's JUnit,
/// Markdown and HTML of a set of results.
public struct ExtensionUnderTest: Sendable {
    /// The extension bundle.
    public var bundle: URL
    /// Where each call plans its cell: a directory of its own beneath this, removed when the call returns.
    public var work: URL

    /// - Parameters:
    ///   - bundle: the extension bundle (`Name.appex`).
    ///   - work: where each call plans its cell; `opensharing-extension-tests` in the temporary directory when
    ///     `nil`.
    public init(bundle: URL, work: URL? = nil) {
        self.bundle = bundle
        self.work = work ?? FileSystem.temporaryDirectory.appending(component: "opensharing-extension-tests")
    }

    /// Runs the extension on `host`'s share — its part of the default share (a photo, a 48 MP photo, a PDF, a
    /// page's URL, a note), or `content` whole — as the matrix's cell for that host, device, user and fault.
    ///
    /// - Throws: `CellError` when the cell cannot run: the bundle is bad, the host cannot share the content,
    ///   the fault kills its host (`host-killed` is `sharing test`'s alone).
    public func run(on host: HostProfile, content: CellContent? = nil, device: DeviceClass? = .default, user: ExtensionUser = .post,
                    fault: Fault = .none, timeout: Double? = nil) async throws(CellError) -> CellResult {
        try await run(Matrix(bundles: [bundle.path], hosts: [host], content: content, devices: [device], users: [user], faults: [fault],
                             timeout: timeout, work: scratch()))
    }

    /// Delivers the push payload in `file` through the extension (a notification service) as the matrix's
    /// cell for that payload, device and fault.
    ///
    /// - Throws: `CellError` when the cell cannot run: the bundle is no notification service, the payload
    ///   cannot be read.
    public func deliver(_ file: URL, device: DeviceClass? = .default, fault: Fault = .none, timeout: Double? = nil) async throws(CellError) -> CellResult {
        try await run(Matrix(bundles: [bundle.path], payloads: [file.path], devices: [device], faults: [fault], timeout: timeout, work: scratch()))
    }

    private func scratch() -> URL {
        work.appending(component: UUID().uuidString)
    }

    private func run(_ matrix: Matrix) async throws(CellError) -> CellResult {
        defer { try? FileSystem.removeTree(matrix.work) }
        let plan = try matrix.plan()
        guard let cell = plan.cells.first else {
            throw CellError(.badShare, field: "host", plan.notes.first ?? "the matrix planned no cell for \(bundle.lastPathComponent)")
        }
        return try await cell.run()
    }
}

extension MatrixReport {
    /// A report of results gathered from Swift (`ExtensionUnderTest`), its run information drawn from them:
    /// what `junit()`, `markdown()`, `html()` and `grid()` write, as `sharing test` writes them.
    public init(collecting results: [CellResult]) {
        func unique<T: Hashable>(_ values: [T]) -> [T] {
            var seen = Set<T>()
            return values.filter { seen.insert($0).inserted }
        }
        let cells = results.map(\.cell)
        let info = RunInfo(sharingVersion: "", started: ISO8601DateFormatter().string(from: Date()), host: ProcessInfo.processInfo.hostName,
                           cpu: Machine.processorModel, cores: ProcessInfo.processInfo.activeProcessorCount, jobs: 1, timeout: cells.first?.timeout,
                           work: "", content: nil, givenPayloads: nil, hosts: unique(cells.compactMap(\.host)), payloads: unique(cells.flatMap(\.payloads)),
                           faults: unique(cells.map { $0.faults.first ?? .none }), devices: unique(cells.map(\.device)), users: unique(cells.map(\.user)),
                           bundles: [], seed: 0, repeats: 1, shard: nil, expectations: nil)
        self.init(runInfo: info, cells: results)
    }
}
