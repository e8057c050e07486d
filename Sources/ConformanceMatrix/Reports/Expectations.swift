public import ExtensionRuntime
public import Foundation
import SharingSystem

/// What cells are expected to end as, where the default (completed, cancelled, not activated) is not what a
/// bundle's author expects: `sharing test --expect FILE`, written by `--update-expectations` as wpt's metadata
/// is. JSON, versioned by `schema`.
///
/// Each entry names cells by identifier (`Bundle host device=… user=… fault=…`, as the reports print them) or
/// by a glob over it (`MemoryHog *`, `* photos *fault=load-fails*`); the first entry that matches a cell decides.
public struct Expectations: Codable, Sendable, Equatable {
    public static let schemaName = "opensharing-expectations/1"

    public struct Entry: Codable, Sendable, Equatable {
        /// A cell's identifier, or a glob over identifiers.
        public var cell: String
        /// The statuses the cell may end as.
        public var statuses: [CellStatus]
        /// The cell is known to vary: a status outside `statuses` makes it flaky, not failed.
        public var flaky: Bool?
        /// A link to the bug that explains it.
        public var bug: String?
        /// The codes of `fail` findings the cell may have and still be as expected.
        public var findings: [Finding.Code]?

        public init(cell: String, statuses: [CellStatus], flaky: Bool? = nil, bug: String? = nil, findings: [Finding.Code]? = nil) {
            self.cell = cell
            self.statuses = statuses
            self.findings = findings
            self.flaky = flaky
            self.bug = bug
        }
    }

    public var schema: String
    public var expectations: [Entry]

    public init(_ expectations: [Entry]) {
        schema = Self.schemaName
        self.expectations = expectations
    }

    /// Reads an expectations file.
    ///
    /// - Throws: `ExpectationsError` naming the file and what is wrong: not JSON of this shape, another schema,
    ///   an entry with no statuses.
    public static func read(from url: URL) throws(ExpectationsError) -> Expectations {
        let data: Data
        do {
            data = try OpenFile.reading(url).readAll(limit: 16 << 20)
        } catch {
            throw ExpectationsError(.unreadable, file: url.path, problem: "cannot be read: \(error)")
        }
        let expectations: Expectations
        do {
            expectations = try JSONDecoder().decode(Expectations.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw ExpectationsError(.notExpectations, file: url.path, problem: "is not JSON")
        } catch let error as DecodingError {
            throw ExpectationsError(.badValue, file: url.path, problem: Self.describe(error))
        } catch {
            throw ExpectationsError(.notExpectations, file: url.path, problem: "\(error)")
        }
        guard expectations.schema == schemaName else {
            throw ExpectationsError(.wrongSchema, file: url.path, problem: "its schema is '\(expectations.schema)', not \(schemaName)")
        }
        if let index = expectations.expectations.firstIndex(where: { $0.statuses.isEmpty }) {
            throw ExpectationsError(.badValue, file: url.path, problem: "expectations[\(index)] (\(expectations.expectations[index].cell)) names no status")
        }
        return expectations
    }

    /// The entry deciding `cell`: the first whose pattern matches its identifier.
    public func entry(for cell: MatrixCell) -> Entry? {
        expectations.first { entry in entry.cell == cell.identifier || Glob(entry.cell).matches(cell.identifier) }
    }

    /// The expectations that make `results` as expected: an entry for each cell that did not end as the default
    /// expects, that varied, or that had `fail` findings, with what it ended as and those findings' codes;
    /// entries of `previous` that still match a cell are kept for their bug links.
    public init(results: [CellResult], previous: Expectations? = nil) {
        var entries: [Entry] = []
        for result in results {
            let statuses = result.statuses.reduce(into: [CellStatus]()) { if !$0.contains($1) { $0.append($1) } }
            let failing = result.findings.filter { $0.severity == .fail }.map(\.code)
            guard !statuses.allSatisfy(CellStatus.expectedByDefault.contains) || statuses.count > 1 || !failing.isEmpty else { continue }
            let bug = previous?.entry(for: result.cell)?.bug
            entries.append(Entry(cell: result.cell.identifier, statuses: statuses, flaky: statuses.count > 1 ? true : nil, bug: bug,
                                 findings: failing.isEmpty ? nil : failing))
        }
        self.init(entries.sorted { $0.cell < $1.cell })
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)).\(key.stringValue) is missing".trimmingCharacters(in: CharacterSet(charactersIn: "."))
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
