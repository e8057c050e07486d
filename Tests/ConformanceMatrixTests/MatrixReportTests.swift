@testable import ConformanceMatrix
import ExtensionRuntime
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HostProfiles
import OpenExtensionUI
import Testing

@Suite("Matrix results")
struct MatrixReportTests {
    static let photos = HostProfile.named("photos")!
    static let notes = HostProfile.named("notes")!

    func cell(_ host: HostProfile = photos, bundle: String = "/b/Saver.appex") -> MatrixCell {
        MatrixCell(bundle: bundle, host: host, content: CellContent(files: ["/w/share/photo.jpg"]), faults: [.none], timeout: 5,
                   appGroup: "/w/cells/0/groups")
    }

    func result(_ status: CellStatus, host: HostProfile = photos) -> CellResult {
        CellResult(cell: cell(host), status: status, reason: nil, seconds: 1, attachments: 1)
    }

    @Test("the schema lists every finding code the runtime reports, and no other")
    func schemaFindingCodes() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: FromSwiftTests.repository.appending(path: "docs/conformance-schema.json")))
        func enums(_ value: Any) -> [[String]] {
            if let object = value as? [String: Any] {
                return ((object["enum"] as? [String]).map { [$0] } ?? []) + object.values.flatMap(enums)
            }
            return (value as? [Any])?.flatMap(enums) ?? []
        }
        let codes = try #require(enums(schema).first { $0.contains(Finding.Code.debugBuild.rawValue) })
        #expect(Set(codes) == Set(Finding.Code.allCases.map(\.rawValue)))
        #expect(codes.count == Finding.Code.allCases.count)
    }

    func report(_ cells: [CellResult]) -> MatrixReport {
        MatrixReport(runInfo: MatrixReport.RunInfo(sharingVersion: "0", started: "", host: "", cpu: "", cores: 2, jobs: 2, timeout: 5, work: "/w",
                                                   content: nil, givenPayloads: nil, hosts: [Self.photos, Self.notes], payloads: [], faults: [.none],
                                                   devices: [.default], users: [.post],
                                                   bundles: [.init(path: "/b/Saver.appex", name: "Saver", bundleIdentifier: "b", extensionPoint: "com.apple.share-services",
                                                                   bundleHash: "blake3:00", activationRuleHash: nil)],
                                                   seed: 1, repeats: 2, shard: nil, expectations: nil),
                     cells: cells)
    }

    @Test("runs of one cell that end differently make it flaky, not failed: exit status 3; a failure anywhere is 1")
    func repeats() {
        var varied = result(.run(.completed))
        varied.recordRepeat(result(.run(.crashed)))
        #expect(varied.statuses == [.run(.completed), .run(.crashed)])
        #expect(varied.varied == [.status])
        #expect(varied.isFlaky && !varied.isUnexpected)
        #expect(report([varied, result(.run(.notActivated), host: Self.notes)]).exitStatus == 3)
        #expect(report([varied, result(.run(.crashed), host: Self.notes)]).exitStatus == 1)
        var same = result(.run(.crashed))
        same.recordRepeat(result(.run(.crashed)))
        #expect(!same.isFlaky && same.isUnexpected)
        #expect(report([result(.run(.completed)), result(.hostKilled, host: Self.notes)]).exitStatus == 0)
    }

    @Test("a flaky cell says which clause varied: the status, a finding, a load's answer, what was returned; loads only between completed runs")
    func variedClauses() {
        func completed(load failure: String?, returned: String = "hi") -> CellResult {
            var result = result(.run(.completed))
            result.loads = [RunReport.Load(type: "public.jpeg", form: .file, size: 10, failure: failure)]
            result.returned = [RunReport.Returned(type: "public.plain-text", text: returned)]
            result.notes = failure.map { _ in ["1 of 1 load failed"] } ?? []
            return result
        }
        var loads = completed(load: nil)
        loads.recordRepeat(completed(load: nil))
        #expect(loads.varied.isEmpty && !loads.isFlaky)
        loads.recordRepeat(completed(load: "cut short: the request ended after 0 bytes"))
        #expect(loads.statuses == Array(repeating: .run(.completed), count: 3))
        #expect(loads.varied == [.finding, .load])
        #expect(loads.isFlaky)
        // The same answers in another order: loads asked for at once cross in either.
        var reordered = completed(load: nil)
        reordered.loads.append(RunReport.Load(type: "public.image", form: .file, size: 10, failure: nil))
        var swapped = reordered
        swapped.loads.reverse()
        reordered.recordRepeat(swapped)
        #expect(reordered.varied.isEmpty)
        var returned = completed(load: nil)
        returned.recordRepeat(completed(load: nil, returned: "HI"))
        #expect(returned.varied == [.returned])
        // What an interrupted run had loaded by its end is not compared: where the kill fell is not a verdict.
        var interrupted = result(.run(.interruptedTimeout))
        var other = result(.run(.interruptedTimeout))
        other.loads = [RunReport.Load(type: "public.jpeg", form: .file, size: 10, failure: nil)]
        interrupted.recordRepeat(other)
        #expect(interrupted.varied.isEmpty)
    }

    @Test("expectations: the first matching entry decides, a glob or an identifier; updating keeps the bug of the entry that matched")
    func expectations() {
        let crashed = result(.run(.crashed))
        let expectations = Expectations([
            Expectations.Entry(cell: "Saver photos device=iphone-13 user=post fault=none", statuses: [.run(.crashed)], bug: "https://example.com/1"),
            Expectations.Entry(cell: "Saver *", statuses: [.run(.completed)]),
        ])
        #expect(expectations.entry(for: crashed.cell)?.bug == "https://example.com/1")
        #expect(expectations.entry(for: result(.run(.completed), host: Self.notes).cell)?.statuses == [.run(.completed)])
        #expect(expectations.entry(for: cell(Self.notes, bundle: "/b/Other.appex")) == nil)
        let updated = Expectations(results: [crashed, result(.run(.completed), host: Self.notes)], previous: expectations)
        #expect(updated.expectations == [Expectations.Entry(cell: crashed.cell.identifier, statuses: [.run(.crashed)], bug: "https://example.com/1")])
    }

    @Test("JUnit: a suite per bundle and host, a case per cell, failure typed by status with the reproduce command first, skipped when not activated; XML-safe")
    func junit() throws {
        var odd = result(.run(.crashed))
        odd.reason = "log said <\u{1}> & \"quoted\""
        let xml = report([odd, result(.run(.notActivated), host: Self.notes)]).junit()
        #expect(xml.contains(#"<testsuite name="Saver.photos" tests="1" failures="1" skipped="0""#))
        #expect(xml.contains(#"<failure type="crashed" message="log said &lt;\#u{FFFD}&gt; &amp; &quot;quoted&quot;">sharing run /b/Saver.appex --host photos --file /w/share/photo.jpg --device iphone-13 --timeout 5 --app-group /w/cells/0/groups"#))
        #expect(xml.contains(#"<skipped message="not activated"/>"#))
        #expect(try XMLDocument(xmlString: xml).rootElement()?.name == "testsuites")
    }

    /// A cell whose every text an extension or a report chose holds a fake verdict, markup and terminal controls.
    func hostile() -> MatrixReport {
        var cell = result(.run(.crashed))
        cell.reason = "\u{1B}]0;owned\u{7}\n## ALL 577 CELLS PASSED <img src=x onerror=alert(1)> | ✓ |"
        cell.returned = [RunReport.Returned(type: "public.text\n## ALL PASSED", text: "</pre><script>alert(1)</script>")]
        cell.logTail = ["\u{1B}[2J\u{202E}evil"]
        cell.bug = "javascript:alert(1)"
        cell.expected = [.run(.completed)]
        return report([cell])
    }

    @Test("Markdown: a reason with a newline, a heading, a table cell and an image stays one escaped line; the command sits in a code block it cannot close")
    func markdownEscaped() {
        let text = hostile().markdown()
        #expect(!text.contains("\n## ALL"))
        #expect(text.range(of: #"(?<!\\)<img"#, options: .regularExpression) == nil, "an unescaped tag")
        #expect(text.contains(##"(\u{1B}\]0;owned\u{7}\u{A}\#\# ALL 577 CELLS PASSED \<img src=x onerror=alert(1)\> \| ✓ \|)"##), "\(text)")
        var fenced = result(.run(.crashed))
        fenced.cell.content.texts = ["```\n## ALL PASSED"]
        fenced.reproduce = fenced.cell.reproduce()
        let block = report([fenced]).markdown()
        #expect(block.contains("  ````\n  sharing run /b/Saver.appex --host photos --file /w/share/photo.jpg --text '```\n  ## ALL PASSED'"), "\(block)")
    }

    @Test("HTML: every text is an entity-escaped text node; a bug's address becomes a link only when it is http or https")
    func htmlEscaped() {
        let page = hostile().html()
        #expect(!page.contains("<img src=x"))
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!page.contains(#"href="javascript"#))
        #expect(page.contains(" — javascript:alert(1)"))
        var linked = result(.run(.crashed))
        linked.bug = "https://example.com/bug/1?a=1&b=2"
        #expect(report([linked]).html().contains(#"<a href="https://example.com/bug/1?a=1&amp;b=2">"#))
    }

    @Test("the terminal grid shows a merged shard's names with their controls made visible")
    func gridEscaped() {
        var cell = result(.run(.completed))
        cell.cell.bundle = "/b/Sa\u{1B}[31mver.appex"
        let grid = report([cell]).grid()
        #expect(!grid.contains("\u{1B}"))
        #expect(grid.contains(#"Sa\u{1B}[31mver photos"#))
    }
}
