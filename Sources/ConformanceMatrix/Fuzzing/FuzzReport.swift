public import ExtensionRuntime
public import Foundation
import PackageSupport
import SharingSystem

/// What a fuzzing run found (`sharing fuzz --json`, schema `opensharing-fuzz/1`, `docs/fuzzing.md`): the run's
/// seed and size, and each finding with the smallest share that shows it and the command that replays it.
public struct FuzzReport: Codable, Sendable {
    public static let schemaName = "opensharing-fuzz/1"

    public var schema = FuzzReport.schemaName
    public var runInfo: RunInfo
    public var findings: [Finding] = []

    public struct RunInfo: Codable, Sendable, Equatable {
        /// The bundles fuzzed, as given.
        public var bundles: [String]
        public var seed: UInt64
        /// Seconds the run took, shrinking included.
        public var seconds: Double
        /// Shares run (the extension started, or found not offered).
        public var sharesRun: Int
        /// Shares the bundle's activation rule would not be offered (not a bug of the extension).
        public var skipped: Int
        /// The part of the share sequence run, `I/N`.
        public var shard: String
        public var device: String
        /// Seconds each share's extension had to end its request, when not its extension point's.
        public var timeout: Double?
        /// The host profiles the shares were made from.
        public var hosts: [String]
    }

    /// One way the extension fails, with the smallest share found that shows it.
    public struct Finding: Codable, Sendable {
        /// The bundle's path, as given.
        public var bundle: String
        public var status: ExtensionStatus
        /// The `fail` findings' codes.
        public var findings: [ExtensionRuntime.Finding.Code]
        /// Where a crash stopped (`main.swift:12: Fatal error`).
        public var site: String?
        /// The share fixture that shows it.
        public var share: String
        /// The command that replays it, rendered from `cell` (again whenever a report is read).
        public var reproduce: String
        /// The run it replays: the bundle, the share, the device, the time limit, the app group.
        public var cell: MatrixCell
        /// How many attachments the smallest share holds.
        public var attachments: Int
        /// How many shares of the bundle had run when the first share showing it was (of the same seed, always the same).
        public var foundAfter: Int
        /// Runs spent making the share smaller.
        public var shrinkRuns: Int
        /// The reproduce command, run once more, ended the same way.
        public var replays: Bool
        /// The runtime's reason, and the extension's last words, from that run.
        public var reason: String?
        public var log: [String]

        init(cell: MatrixCell, signature: FuzzSignature, replayed: ShareFuzzer.Outcome, foundAfter: Int, shrinkRuns: Int) {
            bundle = cell.bundle
            status = signature.status
            findings = signature.findings
            site = signature.site
            share = cell.fixture ?? ""
            reproduce = cell.reproduce()
            self.cell = cell
            attachments = replayed.report.attachments
            self.foundAfter = foundAfter
            self.shrinkRuns = shrinkRuns
            replays = replayed.signature == signature
            reason = replayed.report.reason
            log = Array((replayed.report.log ?? []).suffix(20))
        }

        var signature: FuzzSignature { FuzzSignature(status: status, findings: findings, site: site) }

        /// `status`, the codes and the site: how the finding reads in one line.
        public var summary: String {
            ([status.rawValue] + findings.map(\.rawValue) + (site.map { [$0] } ?? [])).joined(separator: ", ")
        }
    }

    init(runInfo: RunInfo) {
        self.runInfo = runInfo
    }

    /// The largest report read.
    static let largestReport = 64 << 20

    /// Reads a report another run or machine wrote (`--merge`), as data: this schema's JSON with no field it
    /// lacks, each cell checked as a report's cells are, each reproduce command rendered again from its cell.
    ///
    /// - Throws: `ReportError` naming the file, the field and what is wrong.
    public static func read(from url: URL) throws(ReportError) -> FuzzReport {
        let file = url.path
        var report = try ReportError.readStrictly(FuzzReport.self, from: url, limit: largestReport, schema: \.schema, named: schemaName,
                                                  writtenBy: "sharing fuzz")
        for index in report.findings.indices {
            let cell = report.findings[index].cell
            do {
                try cell.validate()
            } catch {
                throw ReportError(.inconsistent, file: file, field: "findings[\(index)].cell", "\(error)")
            }
            guard cell.kind == .share, let fixture = cell.fixture, cell.bundle == report.findings[index].bundle else {
                throw ReportError(.inconsistent, file: file, field: "findings[\(index)].cell", "is not the run of a share fixture on its finding's bundle")
            }
            guard report.runInfo.bundles.contains(cell.bundle) else {
                throw ReportError(.inconsistent, file: file, field: "findings[\(index)].bundle", "\(cell.bundle) is not among the run's bundles")
            }
            // The fuzzer keeps each finding's share and app group side by side in a directory named for its bundle:
            // a replay writes only there, never where a report says.
            let place = URL(fileURLWithPath: fixture).deletingLastPathComponent()
            let named = place.lastPathComponent
            let prefix = cell.bundleName + "-"
            guard URL(fileURLWithPath: fixture).lastPathComponent == "share.json", named.hasPrefix(prefix),
                  !named.dropFirst(prefix.count).isEmpty, named.dropFirst(prefix.count).allSatisfy(\.isNumber) else {
                throw ReportError(.inconsistent, file: file, field: "findings[\(index)].cell.fixture",
                                  "\(fixture) is not where the fuzzer keeps a finding's share (OUT/\(cell.bundleName)-N/share.json)")
            }
            guard cell.appGroup == nil || cell.appGroup == place.appending(component: "app-group").path else {
                throw ReportError(.inconsistent, file: file, field: "findings[\(index)].cell.appGroup",
                                  "\(cell.appGroup ?? "") is not the app group beside the finding's share (\(place.appending(component: "app-group").path))")
            }
            report.findings[index].share = fixture
            report.findings[index].reproduce = cell.reproduce()
        }
        return report
    }

    /// Joins shards' reports: their shares and findings, a finding found by more than one kept once (the one
    /// found after the fewest shares). Their run information must agree — the seed (shards of one run split one
    /// sequence), the device, the hosts, the time limit and the bundles — and each finding must be of one of the
    /// run's bundles.
    ///
    /// - Throws: `ReportError` when the reports are of different runs.
    public static func merged(_ reports: [(report: FuzzReport, file: String)]) throws(ReportError) -> FuzzReport {
        guard let first = reports.first else { throw ReportError(.notAReport, file: "", field: nil, "no reports to merge") }
        var merged = FuzzReport(runInfo: first.report.runInfo)
        merged.runInfo.sharesRun = 0
        merged.runInfo.skipped = 0
        merged.runInfo.seconds = 0
        var shards: [String] = []
        for (report, file) in reports {
            let info = report.runInfo
            let run = first.report.runInfo
            guard info.seed == run.seed, info.device == run.device, info.hosts == run.hosts, info.timeout == run.timeout, info.bundles == run.bundles else {
                throw ReportError(.inconsistent, file: file, field: "runInfo", "is of another run than \(first.file) (its seed, device, hosts, time limit or bundles differ)")
            }
            if let stray = report.findings.firstIndex(where: { !run.bundles.contains($0.bundle) }) {
                throw ReportError(.inconsistent, file: file, field: "findings[\(stray)].bundle", "\(report.findings[stray].bundle) is not among the run's bundles")
            }
            merged.runInfo.sharesRun += info.sharesRun
            merged.runInfo.skipped += info.skipped
            merged.runInfo.seconds = max(merged.runInfo.seconds, info.seconds)
            shards.append(info.shard)
            for finding in report.findings {
                if let same = merged.findings.firstIndex(where: { $0.bundle == finding.bundle && $0.signature == finding.signature }) {
                    if finding.foundAfter < merged.findings[same].foundAfter { merged.findings[same] = finding }
                } else {
                    merged.findings.append(finding)
                }
            }
        }
        merged.runInfo.shard = shards.joined(separator: "+")
        return merged
    }

    /// JUnit XML: a test case per finding, failing with its status and its reproduce command first; a passing
    /// one per bundle with no finding. Every text escaped as XML.
    public func junit() -> String {
        let xml = Escaped.xml
        let clean = runInfo.bundles.filter { bundle in !findings.contains { $0.bundle == bundle } }
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let tests = findings.count + clean.count
        text += #"<testsuites name="sharing fuzz" tests="\#(tests)" failures="\#(findings.count)">"# + "\n"
        text += #"  <testsuite name="sharing fuzz seed \#(runInfo.seed)" tests="\#(tests)" failures="\#(findings.count)" time="\#(String(format: "%.3f", runInfo.seconds))">"# + "\n"
        for finding in findings {
            let name = "\(finding.cell.bundleName): \(finding.summary)"
            text += #"    <testcase classname="\#(xml(finding.cell.bundleName))" name="\#(xml(name))">"# + "\n"
            let body = ([finding.reproduce, "status: \(finding.status.rawValue)"] + (finding.reason.map { ["reason: \($0)"] } ?? [])
                        + finding.findings.map { "finding: \($0.rawValue)" } + finding.log).joined(separator: "\n")
            text += #"      <failure type="\#(xml(finding.findings.first?.rawValue ?? finding.status.rawValue))" message="\#(xml(finding.summary))">\#(xml(body))</failure>"# + "\n"
            text += "    </testcase>\n"
        }
        for bundle in clean {
            let name = URL(fileURLWithPath: bundle).deletingPathExtension().lastPathComponent
            text += #"    <testcase classname="\#(xml(name))" name="\#(xml("\(name): no finding"))"/>"# + "\n"
        }
        return text + "  </testsuite>\n</testsuites>\n"
    }
}
