import ConformanceMatrix
import ExtensionRuntime
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("Matrix results")
struct MatrixReportTests {
    func result(_ status: CellStatus, host: String = "photos") -> CellResult {
        CellResult(cell: MatrixCell(bundle: "/b/Saver.appex", host: host, fault: .none), status: status, reason: nil, seconds: 1, report: nil,
                   appGroupFiles: [], attachments: 1, arguments: ["run", "/b/Saver.appex"], reproduce: "sharing run /b/Saver.appex")
    }

    func report(_ cells: [CellResult]) -> MatrixReport {
        MatrixReport(runInfo: MatrixReport.RunInfo(sharingVersion: "0", started: "", host: "", cpu: "", cores: 2, jobs: 2, timeout: nil, hosts: ["photos", "notes"], payloads: [],
                                                   faults: ["none"], devices: ["none"], users: ["post"], bundles: [], seed: 1, repeats: 2, shard: nil, expectations: nil),
                     cells: cells)
    }

    @Test("runs of one cell that end differently make it flaky, not failed: exit status 3; a failure anywhere is 1")
    func repeats() {
        var varied = result(.run(.completed))
        varied.recordRepeat(result(.run(.crashed)))
        #expect(varied.statuses == [.run(.completed), .run(.crashed)])
        #expect(varied.isFlaky && !varied.isUnexpected)
        #expect(report([varied, result(.run(.notActivated), host: "notes")]).exitStatus == 3)
        #expect(report([varied, result(.run(.crashed), host: "notes")]).exitStatus == 1)
        var same = result(.run(.crashed))
        same.recordRepeat(result(.run(.crashed)))
        #expect(!same.isFlaky && same.isUnexpected)
        #expect(report([result(.run(.completed)), result(.hostKilled, host: "notes")]).exitStatus == 0)
    }

    @Test("a completed cell says what it did not do")
    func notes() {
        #expect(result(.run(.completed)).notes == ["its attachment was never loaded", "nothing was returned, opened or written to the app group"])
        #expect(result(.run(.crashed)).notes.isEmpty)
    }

    @Test("expectations: the first matching entry decides, a glob or an identifier; updating keeps the bug of the entry that matched")
    func expectations() {
        let crashed = result(.run(.crashed))
        let expectations = Expectations([
            Expectations.Entry(cell: "Saver photos device=none user=post fault=none", statuses: [.run(.crashed)], bug: "https://example.com/1"),
            Expectations.Entry(cell: "Saver *", statuses: [.run(.completed)]),
        ])
        #expect(expectations.entry(for: crashed.cell)?.bug == "https://example.com/1")
        #expect(expectations.entry(for: result(.run(.completed), host: "notes").cell)?.statuses == [.run(.completed)])
        #expect(expectations.entry(for: MatrixCell(bundle: "/b/Other.appex", host: "notes", fault: .none)) == nil)
        let updated = Expectations(results: [crashed, result(.run(.completed), host: "notes")], previous: expectations)
        #expect(updated.expectations == [Expectations.Entry(cell: crashed.cell.identifier, statuses: [.run(.crashed)], bug: "https://example.com/1")])
    }

    @Test("JUnit: a suite per bundle and host, a case per cell, failure typed by status with the reproduce command first, skipped when not activated; XML-safe")
    func junit() throws {
        var odd = result(.run(.crashed))
        odd.reason = "log said <\u{1}> & \"quoted\""
        let xml = report([odd, result(.run(.notActivated), host: "notes")]).junit()
        #expect(xml.contains(#"<testsuite name="Saver.photos" tests="1" failures="1" skipped="0""#))
        #expect(xml.contains(#"<failure type="crashed" message="log said &lt;\#u{FFFD}&gt; &amp; &quot;quoted&quot;">sharing run /b/Saver.appex"#))
        #expect(xml.contains(#"<skipped message="not activated"/>"#))
        #expect(try XMLDocument(xmlString: xml).rootElement()?.name == "testsuites")
    }
}
