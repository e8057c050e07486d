public import ExtensionRuntime
import Foundation
public import HostProfiles
public import OpenExtensionUI
import PackageSupport

/// A matrix's results with what they were run on: what `sharing test --json` writes, versioned by `schema`
/// (see `docs/conformance-schema.json`), and what its JUnit, Markdown and terminal reports are made from.
public struct MatrixReport: Codable, Sendable {
    /// The schema's name and version, checked when a report is read back.
    public static let schemaName = "opensharing-conformance/3"

    public struct BundleInfo: Codable, Sendable, Equatable {
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
        /// The directory the run planned its cells in: its default share, payloads and cells' directories.
        public var work: String
        /// The content every host shared, when it was given; `nil` when each host shared its part of the
        /// default share.
        public var content: CellContent?
        /// The payload files notification services were sent, when they were given; `nil` for the default set.
        public var givenPayloads: [String]?
        /// The share fixtures share extensions were run on in place of hosts, when they were given.
        public var shares: [String]? = nil
        public var hosts: [HostProfile]
        /// The payloads notification services were sent (their files).
        public var payloads: [String]
        public var faults: [Fault]
        /// The devices played; `null` for none (each point's own limits).
        public var devices: [DeviceClass?]
        public var users: [ExtensionUser]
        public var bundles: [BundleInfo]
        /// What ordered the cells' runs (`--seed`).
        public var seed: UInt64
        /// Runs of each cell (`--repeat`).
        public var repeats: Int
        /// `I/N` when this run was one shard of N (`--shard`).
        public var shard: String?
        /// The expectations file, when one was given.
        public var expectations: String?
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
        func union<T: Hashable>(_ lists: [[T]]) -> [T] {
            var seen = Set<T>()
            return lists.joined().filter { seen.insert($0).inserted }
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
        func rank<T: Equatable>(_ list: [T], _ value: T) -> Int { list.firstIndex(of: value) ?? list.count }
        let paths = info.bundles.map(\.path)
        let subjects = info.hosts.map(\.name) + info.payloads.map { "payload \(URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent)" }
        cells.sort { a, b in
            func key(_ cell: MatrixCell) -> [Int] {
                [rank(paths, cell.bundle), rank(subjects, cell.subject), rank(info.devices, cell.device), rank(info.users, cell.user),
                 rank(info.faults, cell.faults.first ?? .none)]
            }
            return key(a.cell).lexicographicallyPrecedes(key(b.cell))
        }
        return MatrixReport(runInfo: info, cells: cells)
    }

}
