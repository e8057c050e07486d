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

    // The example in docs/conformance.md word for word, on every host: green for an example that is right.
    @Test("the docs' example as written, on every host profile: each runs (no host lacks its content) and Uppercase is as expected",
          arguments: HostProfile.allCases)
    func docsExample(host: HostProfile) async throws {
        let result = try await Self.uppercase.run(on: host, device: .named("iphone-13"))
        #expect(result.isExpected, "\(result.summary)")
    }

    @Test("the same example on an extension that uploads after completing is red, its message one line naming the finding")
    func docsExampleRed() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(component: "from-swift-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appending(component: "UploadsAfterPost.appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repository.appending(path: "Examples/Extensions/UploadsAfterPost/Info.plist"), to: bundle.appending(component: "Info.plist"))
        try FileManager.default.copyItem(at: Self.products.appending(component: "UploadsAfterPost"), to: bundle.appending(component: "UploadsAfterPost"))
        let result = try await ExtensionUnderTest(bundle: bundle, work: directory.appending(component: "work")).run(on: .notes, device: .named("iphone-13"))
        #expect(!result.isExpected)
        #expect(result.summary.hasPrefix("UploadsAfterPost notes device=iphone-13 user=post fault=none: completed — finding work-lost-at-exit: it looked up api.example.com"),
                "\(result.summary)")
        #expect(result.summary.contains(" — reproduce: sharing run "))
        #expect(!result.summary.contains("\n"))
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
        process.arguments = ["test", bundle.path, "--devices", "iphone-13", "--hosts", "notes,photos,safari", "--faults", "none", "--work", directory.appending(component: "cli").path,
                             "--junit", junit.path, "--seed", "1"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let fromCLI = try String(contentsOf: junit, encoding: .utf8)
        #expect(Self.normalized(fromSwift) == Self.normalized(fromCLI))
        #expect(fromCLI.contains(#"<testsuite name="Uppercase.notes" tests="1" failures="0" skipped="0""#))
    }

    @Test("Matrix.run is sharing test from Swift: the shard's share of the planned cells, each its own process, checked against the expectations")
    func matrixRun() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(component: "from-swift-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try Self.uppercase(in: directory)
        let matrix = Matrix(bundles: [bundle.path], hosts: ["notes", "photos", "safari"].compactMap(HostProfile.named), devices: [.default], faults: [.none, .loadFails(nth: 1)],
                            work: directory.appending(component: "work"))
        let expectations = Expectations([Expectations.Entry(cell: "Uppercase notes *load-fails*", statuses: [.run(.completed)])])
        var said: [String] = []
        let ended = Ended()
        let report = try await matrix.run(MatrixRunOptions(program: Self.products.appending(component: "sharing"), jobs: 2, seed: 7, shard: (1, 2),
                                                           expectations: expectations, version: "test"), said: { said.append($0) },
                                          finished: { ended.add($0) })
        // Told of each run as it ended, each with its own count, out of the shard's three.
        #expect(ended.all.map(\.finished).sorted() == [1, 2, 3] && ended.all.allSatisfy { $0.total == 3 })
        #expect(Set(ended.all.map { $0.result.cell.host?.name ?? "" }) == ["notes", "photos", "safari"])
        // Six cells planned, the first shard every second one of them: notes none, photos none, safari none.
        #expect(report.cells.map { "\($0.cell.host?.name ?? "") \($0.status.rawValue)" } == ["notes completed", "photos not-activated", "safari not-activated"])
        #expect(report.runInfo.shard == "1/2" && report.runInfo.seed == 7 && report.runInfo.jobs == 2)
        #expect(said.last == "3 cells, 2 at a time, seed 7")
        let second = try await matrix.run(MatrixRunOptions(program: Self.products.appending(component: "sharing"), jobs: 2, seed: 7, shard: (2, 2),
                                                           expectations: expectations, version: "test"))
        let cancelled = try #require(second.cells.first { $0.cell.host?.name == "notes" })
        #expect(cancelled.status == .run(.cancelled) && cancelled.isUnexpected, "the expectation said completed")
        #expect(report.exitStatus == 0 && second.exitStatus == 1)
    }

    /// The runs a matrix said had ended.
    // @unchecked: its one array is only touched under its lock.
    final class Ended: @unchecked Sendable {
        private let lock = NSLock()
        private var progress: [MatrixProgress] = []
        func add(_ one: MatrixProgress) { lock.withLock { progress.append(one) } }
        var all: [MatrixProgress] { lock.withLock { progress } }
    }

    /// JUnit with what differs between two runs of the same cells blanked: times and footprints.
    static func normalized(_ xml: String) -> String {
        xml.replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="""#, options: .regularExpression)
            .replacingOccurrences(of: #"name="peakFootprint" value="[0-9]+""#, with: #"name="peakFootprint" value="""#, options: .regularExpression)
    }
}
#endif
