#if os(Linux)
@testable import ConformanceMatrix
import Foundation
import Testing

/// A fuzzing report, or a shard's, is data another machine wrote: a finding names only the run's bundles, and
/// its replay writes only beside its own share.
@Suite("Reading fuzzing reports")
struct FuzzReportReadingTests {
    static func report(bundles: [String] = ["/b/Saver.appex"], seed: Int = 7, _ edit: (inout [String: Any]) -> Void = { _ in }) -> [String: Any] {
        var finding: [String: Any] = [
            "attachments": 1, "bundle": "/b/Saver.appex", "findings": [], "foundAfter": 3, "log": [], "replays": true, "reproduce": "",
            "share": "/out/Saver-1/share.json", "shrinkRuns": 2, "status": "crashed",
            "cell": ["appGroup": "/out/Saver-1/app-group", "bundle": "/b/Saver.appex", "device": "iphone-13", "faults": [] as [String],
                     "fixture": "/out/Saver-1/share.json", "user": "post"] as [String: Any],
        ]
        var report: [String: Any] = [
            "schema": "opensharing-fuzz/1",
            "runInfo": ["bundles": bundles, "device": "iphone-13", "hosts": ["safari"], "seconds": 1.0, "seed": seed, "shard": "1/2",
                        "sharesRun": 10, "skipped": 0] as [String: Any],
            "findings": [finding],
        ]
        edit(&finding)
        report["findings"] = [finding]
        edit(&report)
        return report
    }

    static func write(_ report: [String: Any]) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appending(component: "fuzz-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: report).write(to: file)
        return file
    }

    @Test("a finding as the fuzzer wrote it is read, its reproduce command rendered again")
    func asWritten() throws {
        let file = try Self.write(Self.report())
        defer { try? FileManager.default.removeItem(at: file) }
        let report = try FuzzReport.read(from: file)
        #expect(report.findings.first?.reproduce == "sharing run /b/Saver.appex --share /out/Saver-1/share.json --device iphone-13 --app-group /out/Saver-1/app-group")
    }

    @Test("a finding of a bundle the run was not given, or whose app group is not beside its share, is refused with its field", arguments: [
        ("bundle", "findings[0].bundle"), ("appGroup", "findings[0].cell.appGroup"), ("fixture", "findings[0].cell.fixture"),
    ])
    func refused(edit: String, field: String) throws {
        let report = Self.report { object in
            guard var cell = object["cell"] as? [String: Any] else { return }
            switch edit {
            case "bundle":
                object["bundle"] = "/tmp/Evil.appex"
                cell["bundle"] = "/tmp/Evil.appex"
            case "appGroup":
                cell["appGroup"] = "/root/.ssh"
            default:
                cell["fixture"] = "/etc/passwd"
                object["share"] = "/etc/passwd"
            }
            object["cell"] = cell
        }
        let file = try Self.write(report)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try FuzzReport.read(from: file)
        } throws: { error in
            guard let error = error as? ReportError else { return false }
            return error.code == .inconsistent && error.field == field && error.file == file.path
        }
    }

    @Test("shards merge only when their run information agrees: a shard of other bundles is refused, naming it")
    func shardsAgree() throws {
        let first = try Self.write(Self.report())
        let other = try Self.write(Self.report(bundles: ["/b/Saver.appex", "/tmp/Evil.appex"]) { object in
            if object["runInfo"] != nil { return }
        })
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: other)
        }
        let reports = [(try FuzzReport.read(from: first), first.path), (try FuzzReport.read(from: other), other.path)]
        #expect {
            try FuzzReport.merged(reports)
        } throws: { error in
            guard let error = error as? ReportError else { return false }
            return error.code == .inconsistent && error.field == "runInfo" && error.file == other.path
        }
        let same = try Self.write(Self.report())
        defer { try? FileManager.default.removeItem(at: same) }
        let merged = try FuzzReport.merged([(try FuzzReport.read(from: first), first.path), (try FuzzReport.read(from: same), same.path)])
        #expect(merged.findings.count == 1)
        #expect(merged.runInfo.bundles == ["/b/Saver.appex"])
    }
}
#endif
