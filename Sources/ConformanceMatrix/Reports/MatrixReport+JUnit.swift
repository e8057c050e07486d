import Foundation
import PackageSupport
import ExtensionRuntime
import HostProfiles
import OpenExtensionUI

extension MatrixReport {
    /// JUnit XML: a test suite per bundle and host profile (or payload), a test case per cell named by its
    /// device, user and faults; a cell not as expected fails with its status as the type and its reproduce
    /// command first, a not-activated one is skipped; the cell's parameters are properties. Every text is
    /// escaped as XML.
    public func junit() -> String {
        let xml = Escaped.xml
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let skipped = { (results: [CellResult]) in results.filter { $0.status == .run(.notActivated) }.count }
        text += #"<testsuites name="sharing test" tests="\#(cells.count)" failures="\#(unexpected.count)" skipped="\#(skipped(cells))">"# + "\n"
        func suiteName(_ result: CellResult) -> String { "\(result.cell.bundleName).\(result.cell.subject)" }
        for suite in orderedUnique(cells.map(suiteName)) {
            let members = cells.filter { suiteName($0) == suite }
            let time = members.reduce(0) { $0 + $1.seconds }
            text += #"  <testsuite name="\#(xml(suite))" tests="\#(members.count)" failures="\#(members.filter(\.isUnexpected).count)" skipped="\#(skipped(members))" time="\#(String(format: "%.3f", time))">"# + "\n"
            for result in members {
                let cell = result.cell
                text += #"    <testcase classname="\#(xml(suite))" name="\#(xml(cell.name))" time="\#(String(format: "%.3f", result.seconds))">"# + "\n"
                text += "      <properties>\n"
                let subject: (String, String) = cell.kind == .notifications ? ("payload", cell.payloads.first ?? "") : ("host", cell.host?.name ?? "")
                var properties = [("bundle", cell.bundle), subject, ("device", cell.device?.name ?? "none"), ("user", cell.user.rawValue),
                                  ("fault", cell.faultName), ("status", result.status.rawValue), ("peakFootprint", String(result.peakFootprint)),
                                  ("flaky", String(result.isFlaky)), ("statuses", result.statuses.map(\.rawValue).joined(separator: " "))]
                if let bug = result.bug { properties.append(("bug", bug)) }
                for (name, value) in properties {
                    text += #"        <property name="\#(name)" value="\#(xml(value))"/>"# + "\n"
                }
                text += "      </properties>\n"
                if result.isUnexpected {
                    let body = ([result.reproduce, "status: \(result.status.rawValue), expected \(result.expected.map(\.rawValue).joined(separator: " or "))"]
                                + (result.reason.map { ["reason: \($0)"] } ?? []) + result.failingFindings.map { "finding: \($0)" } + result.logTail).joined(separator: "\n")
                    // A cell that ended as expected fails for its first finding.
                    let finding = result.statuses.allSatisfy(result.expected.contains) ? result.failingFindings.first : nil
                    let type = finding?.code.rawValue ?? result.status.rawValue
                    let message = finding?.message ?? result.reason ?? result.status.rawValue
                    text += #"      <failure type="\#(xml(type))" message="\#(xml(message))">\#(xml(body))</failure>"# + "\n"
                } else if result.status == .run(.notActivated) {
                    text += #"      <skipped message="\#(xml(result.reason ?? "not activated"))"/>"# + "\n"
                }
                text += "    </testcase>\n"
            }
            text += "  </testsuite>\n"
        }
        return text + "</testsuites>\n"
    }
}
