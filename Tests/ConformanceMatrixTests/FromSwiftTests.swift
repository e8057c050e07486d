#if os(Linux)
import ConformanceMatrix
import ExtensionRuntime
import Foundation
import HostProfiles
import Testing

/// The matrix written as Swift Testing tests, as docs/conformance.md shows an author: host profiles and faults
/// as arguments, one run per case.
@Suite("The matrix from Swift")
struct FromSwiftTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let products = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        .deletingLastPathComponent()

    @Test("Uppercase, one call per cell: on Notes' share it completes without a fault and with a slow host, and cancels when its load fails; Photos' share does not activate it",
          arguments: ["notes", "photos"].compactMap(HostProfile.named), Fault.standard)
    func uppercase(host: HostProfile, fault: Fault) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        // The bundle: the example's Info.plist and its program from this build.
        let bundleURL = work.appendingPathComponent("Uppercase.appex")
        try FileManager.default.createDirectory(at: bundleURL, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("Examples/Extensions/Uppercase/Info.plist"),
                                         to: bundleURL.appendingPathComponent("Info.plist"))
        try FileManager.default.copyItem(at: Self.products.appendingPathComponent("Uppercase"), to: bundleURL.appendingPathComponent("Uppercase"))
        let bundle = try ExtensionBundle(url: bundleURL)

        let content = try DefaultShare.write(into: work.appendingPathComponent("share"))
        let items = try host.share(DefaultShare.content(for: host.name, from: content)).makeItems(relativeTo: work)
        let report = try await RunReport.run(bundle, items: items, faults: [fault])
        switch (host.name, fault) {
        case ("photos", _):
            #expect(report.status == .notActivated)
            #expect(report.reason == "item 1, attachment 1 (public.jpeg) is an image; the rule takes text")
            #expect(report.sandbox == "not started")
        case (_, .loadFails):
            #expect(report.status == .cancelled)
            #expect(report.loads.first?.failure == "the host fails load 1 (fault load-fails)")
        default:
            #expect(report.status == .completed)
            #expect(report.returned.map(\.text) == [DefaultShare.note.uppercased()])
        }
    }
}
#endif
