#if os(Linux)
import ConformanceMatrix
import ExtensionRuntime
import Foundation
import HostProfiles
import OpenExtensionUI
import Testing

/// The matrix written as Swift Testing tests, as docs/conformance.md shows an author: host profiles and faults
/// as arguments, one run per case.
@Suite("The matrix from Swift")
struct FromSwiftTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let products = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        .deletingLastPathComponent()

    @Test("Uppercase on Notes' share: completes without a fault and with a slow host, cancels when its load fails",
          arguments: [HostProfile.named("notes")!], Fault.standard)
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
        var limits = ExtensionLimits.defaults(forExtensionPoint: bundle.extensionPointIdentifier)
        var faults = HostFaults()
        fault.apply(to: &limits, &faults)
        let items = try host.share(DefaultShare.content(for: host.name, from: content)).makeItems(relativeTo: work)
        let run = try await ExtensionHost(limits: limits, faults: faults).run(bundle, items: items)
        let report = await RunReport(run, bundle: bundle, user: .post, device: nil, limit: limits.memory)
        switch fault {
        case .loadFails:
            #expect(run.status == .cancelled)
            #expect(report.loads.first?.failure == "the host fails load 1 (fault load-fails)")
        default:
            #expect(run.status == .completed)
            #expect(report.returned.map(\.text) == [DefaultShare.note.uppercased()])
        }
    }
}
#endif
