#if os(Linux)
@testable import ConformanceMatrix
import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI
import Testing

/// A report read back (`--retry`, `--merge`) is data another machine wrote: every field is checked, none is
/// taken as a command.
@Suite("Reading reports")
struct ReportReadingTests {
    func written(_ edit: (inout [String: Any]) -> Void) throws -> URL {
        let cell = MatrixCell(bundle: "/b/Saver.appex", host: .named("photos"), content: CellContent(files: ["/w/share/photo.jpg"]), faults: [.none],
                              timeout: 5, appGroup: "/w/cells-41/0/groups")
        var result = CellResult(cell: cell, status: .run(.crashed), reason: "crashed", seconds: 1, attachments: 1)
        result.reproduce = "sharing run /bin/sh -c 'rm -rf ~'"
        let info = MatrixReport.RunInfo(sharingVersion: "0", started: "", host: "", cpu: "", cores: 2, jobs: 2, timeout: 5, work: "/w", content: nil,
                                        givenPayloads: nil, hosts: [.named("photos")!], payloads: [], faults: [.none], devices: [.default], users: [.post],
                                        bundles: [.init(path: "/b/Saver.appex", name: "Saver", bundleIdentifier: "b", extensionPoint: "com.apple.share-services",
                                                        bundleHash: "blake3:00", activationRuleHash: nil)],
                                        seed: 1, repeats: 1, shard: nil, expectations: nil)
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(MatrixReport(runInfo: info, cells: [result]))) as? [String: Any])
        edit(&object)
        let file = FileManager.default.temporaryDirectory.appending(component: "report-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: object).write(to: file)
        return file
    }

    @Test("a report read back says only what its cells say: the reproduce command is rendered again from the cell")
    func reproduceRendered() throws {
        let file = try written { _ in }
        defer { try? FileManager.default.removeItem(at: file) }
        let report = try MatrixReport.read(from: file)
        #expect(report.cells[0].reproduce == "sharing run /b/Saver.appex --host photos --file /w/share/photo.jpg --device iphone-13 --timeout 5 --app-group /w/cells-41/0/groups")
    }

    /// Ways a report is edited: each what it changes, the field the refusal names, and the refusal's code.
    enum Edit: String, CaseIterable, Sendable {
        case extraArguments, otherBundle, unknownFault, faultNotInRun, unknownHost, unknownStatus, oldSchema, extraRunInfo, fixtureNotInRun, appGroupElsewhere

        var refusal: (field: String, code: ReportError.Code) {
            switch self {
            case .extraArguments: ("cells[0].arguments", .unknownField)
            case .otherBundle: ("cells[0].cell.bundle", .inconsistent)
            case .unknownFault: ("cells[0].cell.faults[0]", .badValue)
            case .faultNotInRun: ("cells[0].cell.faults", .inconsistent)
            case .unknownHost: ("cells[0].cell.host", .badValue)
            case .unknownStatus: ("cells[0].status", .badValue)
            case .oldSchema: ("schema", .wrongSchema)
            case .extraRunInfo: ("runInfo.extra", .unknownField)
            case .fixtureNotInRun: ("cells[0].cell.fixture", .inconsistent)
            case .appGroupElsewhere: ("cells[0].cell.appGroup", .inconsistent)
            }
        }

        func apply(to report: inout [String: Any]) {
            var cells = report["cells"] as! [[String: Any]]
            var cell = cells[0]["cell"] as! [String: Any]
            switch self {
            case .extraArguments: cells[0]["arguments"] = ["run", "/bin/sh"]
            case .otherBundle: cell["bundle"] = "/tmp/Evil.appex"
            case .unknownFault: cell["faults"] = ["explode"]
            case .faultNotInRun: cell["faults"] = ["load-fails(nth=2)"]
            case .unknownHost: cell["host"] = "myspace"
            case .unknownStatus: cells[0]["status"] = "exploded"
            case .oldSchema: report["schema"] = "opensharing-conformance/1"
            case .fixtureNotInRun:
                // A cell that would share a file of the report's choosing, which the run was never given.
                cell["host"] = nil
                cell["files"] = nil
                cell["fixture"] = "/etc/shadow"
            case .appGroupElsewhere:
                // A cell whose run would write where the report says: a replay writes only in the run's work directory.
                cell["appGroup"] = "/root/.ssh"
            case .extraRunInfo:
                var info = report["runInfo"] as! [String: Any]
                info["extra"] = "--app-group /"
                report["runInfo"] = info
            }
            cells[0]["cell"] = cell
            report["cells"] = cells
        }
    }

    @Test("an edited report is refused with the field named and the code", arguments: Edit.allCases)
    func edited(edit: Edit) throws {
        let file = try written(edit.apply)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try MatrixReport.read(from: file)
        } throws: { error in
            guard let error = error as? ReportError else { return false }
            return error.code == edit.refusal.code && error.field == edit.refusal.field && error.file == file.path
        }
    }

    @Test("a file that is no report is refused as such")
    func notAReport() throws {
        let file = FileManager.default.temporaryDirectory.appending(component: "report-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("<testsuites/>".utf8).write(to: file)
        #expect(throws: ReportError(.notAReport, file: file.path, field: nil, "not a report of sharing test --json (not JSON)")) {
            try MatrixReport.read(from: file)
        }
    }

    @Test("an expectations file is read as strictly: each refusal has its code and names the file and the place", arguments: [
        ("<x/>", .notExpectations, "is not JSON"),
        (#"{"schema": "opensharing-expectations/0", "expectations": []}"#, .wrongSchema, "its schema is 'opensharing-expectations/0', not opensharing-expectations/1"),
        (#"{"schema": "opensharing-expectations/1", "expectations": [{"cell": "*", "statuses": ["exploded"]}]}"#, .badValue, "expectations[0].statuses[0]:"),
        (#"{"schema": "opensharing-expectations/1", "expectations": [{"statuses": ["crashed"]}]}"#, .badValue, "expectations[0].cell is missing"),
        (#"{"schema": "opensharing-expectations/1", "expectations": [{"cell": "*", "statuses": []}]}"#, .badValue, "expectations[0] (*) names no status"),
    ] as [(String, ExpectationsError.Code, String)])
    func expectationsRefused(text: String, code: ExpectationsError.Code, problem: String) throws {
        let file = FileManager.default.temporaryDirectory.appending(component: "expect-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(text.utf8).write(to: file)
        #expect {
            try Expectations.read(from: file)
        } throws: { error in
            let error = error as? ExpectationsError
            return error?.code == code && error?.file == file.path && error?.problem.hasPrefix(problem) == true
        }
        let missing = file.deletingLastPathComponent().appending(component: "absent-\(UUID().uuidString).json")
        #expect {
            try Expectations.read(from: missing)
        } throws: { error in
            (error as? ExpectationsError)?.code == .unreadable && "\(error)".hasPrefix("\(missing.path): cannot be read")
        }
    }
}
#endif
