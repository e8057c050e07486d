#if os(Linux)
import ConformanceMatrix
import ExtensionRuntime
import Foundation
import HostProfiles
import Testing

/// The matrix from Swift Testing, as docs/conformance.md shows an author: `ExtensionUnderTest`, host profiles
/// as arguments, one cell per case; and the reports the library writes of the results.
@Suite("The matrix from Swift")
struct FromSwiftTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let products = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        .deletingLastPathComponent()

    /// The example Uppercase as a bundle: its Info.plist and its program from this build, in `directory`.
    static func uppercase(in directory: URL) throws -> URL {
        let bundle = directory.appending(component: "Uppercase.appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appending(path: "Examples/Extensions/Uppercase/Info.plist"), to: bundle.appending(component: "Info.plist"))
        try FileManager.default.copyItem(at: products.appending(component: "Uppercase"), to: bundle.appending(component: "Uppercase"))
        return bundle
    }

    // The example in docs/conformance.md, as written there.
    static let uppercase = ExtensionUnderTest(bundle: try! uppercase(in: FileManager.default.temporaryDirectory.appending(component: "from-swift-\(UUID().uuidString)")))

    @Test("Uppercase on each host, each standard fault: completed or cancelled where its rule lets it appear, not activated elsewhere",
          arguments: ["notes", "photos", "safari"].compactMap(HostProfile.named), Fault.standard)
    func share(host: HostProfile, fault: Fault) async throws {
        let result = try await Self.uppercase.run(on: host, fault: fault)
        #expect(result.isExpected, "\(result.status): \(result.reason ?? "") — \(result.reproduce)")
        switch (host.name, fault) {
        case ("photos", _):
            #expect(result.status == .run(.notActivated))
            #expect(result.reason == "item 1, attachment 1 (public.jpeg) is an image; the rule takes text")
        case ("safari", _):
            #expect(result.status == .run(.notActivated))
        case (_, .loadFails):
            #expect(result.status == .run(.cancelled))
            #expect(result.loads.first?.failure == "the host fails load 1 (fault load-fails)")
        default:
            #expect(result.status == .run(.completed))
            #expect(result.returned.map(\.text) == [DefaultShare.note.uppercased()])
        }
    }

    @Test("a fault that kills the host is sharing test's alone: from Swift it is refused, not played on the test's own process")
    func hostKilled() async throws {
        await #expect {
            _ = try await Self.uppercase.run(on: .named("notes")!, fault: .hostKilled(after: .milliseconds(100)))
        } throws: { error in
            (error as? CellError)?.code == .needsOwnProcess
        }
    }

    @Test("the JUnit of results gathered from Swift is sharing test's for the same cells, times and footprints aside")
    func sameJUnit() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(component: "from-swift-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try Self.uppercase(in: directory)
        let tested = ExtensionUnderTest(bundle: bundle, work: directory.appending(component: "swift"))
        var results: [CellResult] = []
        for host in ["notes", "photos", "safari"].compactMap(HostProfile.named) { results.append(try await tested.run(on: host, fault: .none)) }
        let fromSwift = MatrixReport(collecting: results).junit()

        let junit = directory.appending(component: "matrix.xml")
        let process = Process()
        process.executableURL = Self.products.appending(component: "sharing")
        process.arguments = ["test", bundle.path, "--hosts", "notes,photos,safari", "--faults", "none", "--work", directory.appending(component: "cli").path,
                             "--junit", junit.path, "--seed", "1"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let fromCLI = try String(contentsOf: junit, encoding: .utf8)
        #expect(Self.normalized(fromSwift) == Self.normalized(fromCLI))
        #expect(fromCLI.contains(#"<testsuite name="Uppercase.notes" tests="1" failures="0" skipped="0""#))
    }

    /// JUnit with what differs between two runs of the same cells blanked: times and footprints.
    static func normalized(_ xml: String) -> String {
        xml.replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="""#, options: .regularExpression)
            .replacingOccurrences(of: #"name="peakFootprint" value="[0-9]+""#, with: #"name="peakFootprint" value="""#, options: .regularExpression)
    }
}
#endif
