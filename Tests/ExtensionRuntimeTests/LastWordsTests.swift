@testable import ExtensionRuntime
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An extension's own last words — what it logged, its fatal error, the backtrace of its crash — reach the
/// person running it.
@Suite("An extension's last words")
struct LastWordsTests {
    @Test("a fatal error mid-load: the outcome names the signal; the last words hold the message, the crash's line and the crashing frames")
    func crash() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("CrashesMidLoad", in: directory))
        let run = try await ExtensionHost().run(bundle, items: try ExampleBundles.text("to crash on"))
        #expect(run.status == .crashed)
        #expect(run.exitStatus == .signalled(SIGILL))
        let words = run.lastWords()
        #expect(words.contains { $0.hasSuffix("Fatal error: crashed with a load of public.utf8-plain-text in flight") }, "\(run.log)")
        #expect(words.contains { $0.hasPrefix("*** Program crashed: Illegal instruction") }, "\(run.log)")
        #expect(words.contains { $0.contains("CrashesMidLoad.beginRequest(with:)") }, "\(run.log)")
        // The report's registers and image list are left out.
        #expect(!words.contains { $0.hasPrefix("Registers") || $0.hasPrefix("Images") }, "\(words)")
    }

    @Test("a principal the Info.plist does not name: status 78, and the last line says both names")
    func wrongPrincipal() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("Uppercase", in: directory) {
            $0["NSExtension"] = ["NSExtensionPointIdentifier": "com.apple.share-services", "NSExtensionPrincipalClass": "Uppercase.Other",
                                 "NSExtensionAttributes": ["NSExtensionActivationRule": "TRUEPREDICATE"]]
        })
        let run = try await ExtensionHost().run(bundle, items: try ExampleBundles.text("hello"))
        #expect(run.exitStatus == .exited(78))
        #expect(run.lastWords().last?.hasPrefix("extension: the Info.plist beside ") == true, "\(run.log)")
        #expect(run.lastWords().last?.hasSuffix("names NSExtensionPrincipalClass \"Uppercase.Other\", but the program runs Uppercase.UppercaseAction") == true,
                "\(run.log)")
    }

    @Test("a log without a crash report: its last lines, as many as asked, empty trailing lines dropped")
    func plainLog() {
        let run = ExtensionRun(outcome: .interrupted(.timeout(.request)), loads: [], returned: [], openedURLs: [], peakFootprint: 0,
                               log: "one\ntwo\nthree\nfour\n\n", exitStatus: .signalled(SIGKILL),
                               sandbox: ExtensionSandbox(pidNamespace: true, landlock: 7, diskGate: true, connectionsSeen: true))
        #expect(run.lastWords(lines: 2) == ["three", "four"])
        #expect(run.lastWords(lines: 10) == ["one", "two", "three", "four"])
    }
}
