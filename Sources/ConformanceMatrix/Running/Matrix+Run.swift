import ExtensionRuntime
public import Foundation
import PackageSupport
import SharingSystem

/// One run of a cell has ended: its result, and how many of the matrix's runs have ended of how many.
public struct MatrixProgress: Sendable {
    public var result: CellResult
    public var finished: Int
    public var total: Int
}

/// How a matrix's cells are run: the `sharing` program that runs each, how many at a time and how often, the
/// order's seed, the shard, the expectations, and the report whose failing cells to run again.
public struct MatrixRunOptions: Sendable {
    public var program: URL
    public var jobs: Int
    public var repeats: Int
    /// What orders the cells' runs.
    public var seed: UInt64
    /// Run shard `index` of `count` (from 1): every `count`th planned cell from the `index`th.
    public var shard: (index: Int, count: Int)?
    public var expectations: Expectations?
    /// The expectations file, for the report's run information.
    public var expectationsFile: String?
    /// A report read back (`MatrixReport.read(from:)`), and its file: only its cells not as expected or flaky
    /// run, each as this run plans it.
    public var rerunning: (report: MatrixReport, file: String)?
    /// The `sharing` version, for the report's run information.
    public var version: String

    public init(program: URL, jobs: Int, repeats: Int = 1, seed: UInt64, shard: (index: Int, count: Int)? = nil, expectations: Expectations? = nil,
                expectationsFile: String? = nil, rerunning: (report: MatrixReport, file: String)? = nil, version: String) {
        self.program = program
        self.jobs = jobs
        self.repeats = repeats
        self.seed = seed
        self.shard = shard
        self.expectations = expectations
        self.expectationsFile = expectationsFile
        self.rerunning = rerunning
        self.version = version
    }
}

extension Matrix {
    /// Plans the cells and runs them, each its own process: the default payloads' image served from 127.0.0.1
    /// while they run, a report's cells chosen again when rerunning, one shard's share of them, in the seed's
    /// order, each as often as asked, each checked against its expectation. `said` is told what a person should
    /// know before the cells run (what is served, what is left out, how many cells); `finished` is told of each
    /// run as it ends, from any thread, with how many have ended of how many; the report is the rest.
    ///
    /// - Throws: `CellError` when the cells cannot be planned; `ReportError` when a report's cells are not
    ///   ones this run plans.
    public func run(_ options: MatrixRunOptions, said: (String) -> Void = { _ in },
                    finished: @escaping @Sendable (MatrixProgress) -> Void = { _ in }) async throws -> MatrixReport {
        let server: LoopbackFileServer?
        do {
            server = needsImageServer ? try LoopbackFileServer(serving: work.appending(component: "share")) : nil
        } catch {
            throw CellError(.badDirectory, field: "--work", "the matrix's web server: \(error)")
        }
        defer { server?.stop() }
        let plan = try self.plan(imageBase: server?.base)
        var cells = try options.rerunning.map { try plan.rerunning($0.report, file: $0.file) } ?? plan.cells
        if let server, plan.servesImage { said("serving the payloads' image at \(server.base.absoluteString)/photo.jpg while the matrix runs") }
        plan.notes.forEach(said)
        var info = plan.runInfo
        info.sharingVersion = options.version
        info.jobs = options.jobs
        info.seed = options.seed
        info.repeats = options.repeats
        info.expectations = options.expectationsFile
        if let (index, count) = options.shard {
            cells = cells.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
            info.shard = "\(index)/\(count)"
        }
        var generator = SeededGenerator(seed: options.seed)
        let order = Array(cells.indices).shuffled(using: &generator)
        said("\(cells.count) cells\(options.repeats > 1 ? " × \(options.repeats)" : ""), \(min(options.jobs, max(cells.count, 1))) at a time, seed \(options.seed)")
        let runner = MatrixRunner(program: options.program, jobs: options.jobs, repeats: options.repeats, limit: .seconds((timeout ?? 60) + 60))
        let total = cells.count * max(1, options.repeats)
        let ended = Locked(0)
        var results = await runner.run(cells, order: order) { result in
            finished(MatrixProgress(result: result, finished: ended.withLock { $0 += 1; return $0 }, total: total))
        }
        for index in results.indices { results[index].expect(options.expectations?.entry(for: results[index].cell)) }
        return MatrixReport(runInfo: info, cells: results)
    }
}
