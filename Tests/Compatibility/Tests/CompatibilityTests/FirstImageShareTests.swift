#if os(Linux)
import CompatibilityHarness
import Foundation
@testable import FirstImageShare
import SharingShim
import Testing

/// The tutorial's share extension, as its author would try it: made into FirstImageShare.appex by `swift package
/// appex` (`make test` does), run by the `sharing` tool built from this package's dependency, once per host.
@Suite("Compatibility: the tutorial's compose-sheet extension that saves the first image, run with sharing run")
struct FirstImageShareTests {
    static let sunset = ExtensionHarness.examples.appendingPathComponent("files/sunset.jpg").path

    /// `sharing run FirstImageShare.appex ARGUMENTS --json`: the report, the exit status, and the files the
    /// extension saved into its group.
    private func run(_ arguments: [String]) throws -> (report: [String: Any], status: Int32, saved: [String], findings: [[String: String]]) {
        let result = try SharingCommand.run("FirstImageShare", arguments, group: "group.org.opensharing.compatibility")
        return (result.report, result.status, result.kept, result.findings)
    }

    @Test("what a new user writes next compiles and holds: the template's unwrapped configuration row, system colours, accessibility, Mattermost's downsampling at the screen's scale")
    @MainActor
    func newUsersCode() throws {
        let controller = ShareViewController()
        let rows = try #require(controller.configurationItems() as? [SLComposeSheetConfigurationItem])
        #expect(rows.map(\.title) == ["Album"] && rows.map(\.value) == ["Camera Roll"])
        _ = controller.view
        #expect(controller.textView.accessibilityLabel == "Caption" && controller.textView.accessibilityTraits == .staticText)
        #expect(controller.view.backgroundColor?.cgColor.components == [1, 1], "systemBackground: white, in the light appearance")
        #expect(controller.textView.backgroundColor?.cgColor.components == [2.0 / 3, 1])
        let image = try #require(downsample(imageAt: URL(fileURLWithPath: Self.sunset), to: CGSize(width: 100, height: 100)))
        // The default scale is the screen's: 3 on the iPhone 13 a run plays unless told; 300 pixels on the longer side.
        #expect(max(image.size.width * image.scale, image.size.height * image.scale) == 100 * UIScreen.main.scale)
    }

    @Test("from Photos, a file URL: it completes and saves the photo")
    func photos() throws {
        let result = try run(["--host", "photos", "--file", Self.sunset])
        #expect(result.status == 0 && result.report["status"] as? String == "completed")
        #expect(result.saved == ["sunset.jpg"])
        #expect(result.findings.allSatisfy { $0["severity"] != "fail" }, "\(result.findings)")
    }

    @Test("from Messages (a path it may not read), the screenshot editor (an image object) and Safari (a page): it completes having saved nothing, and the run fails with nothing-kept",
          arguments: [["--host", "messages", "--file", sunset], ["--host", "screenshot", "--file", sunset], ["--host", "safari", "--url", "https://www.swift.org/"]])
    func savesNothing(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 1 && result.report["status"] as? String == "completed")
        #expect(result.saved.isEmpty, "\(result.saved)")
        let kept = result.findings.first { $0["code"] == "nothing-kept" }
        #expect(kept?["severity"] == "fail", "\(result.findings)")
        #expect(kept?["message"]?.hasPrefix("it completed having kept nothing of what it was given") == true)
    }

    @Test("sharing test from Messages: the cell is not as expected by default (exit 1), nothing-kept printed under it")
    func matrixFromMessages() throws {
        let result = try SharingCommand.test("FirstImageShare", ["--hosts", "messages", "--faults", "none", "--devices", "iphone-13"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("FirstImageShare messages device=iphone-13 user=post fault=none: completed\n  finding: nothing-kept: "),
                "\(result.output)")
    }

    @Test("a user who cancels: cancelled, as the matrix expects (exit 0); a user who does nothing: interrupted for time (exit 1)")
    func users() throws {
        let cancelled = try run(["--host", "photos", "--file", Self.sunset, "--user", "cancel"])
        #expect(cancelled.status == 0 && cancelled.report["status"] as? String == "cancelled", "\(cancelled.report)")
        #expect(cancelled.saved.isEmpty)
        let idle = try run(["--host", "photos", "--file", Self.sunset, "--user", "none", "--timeout", "3"])
        #expect(idle.status == 1 && idle.report["status"] as? String == "interrupted-timeout")
    }

    @Test("in this process and as a process it ends alike: from Photos and from Messages")
    @MainActor
    func bothWays() async throws {
        #expect(try await ExtensionHarness.present(ShareViewController(), profile: "photos", sharing: .init(files: [URL(fileURLWithPath: Self.sunset)])).completed)
        #expect(try await ExtensionHarness.present(ShareViewController(), share: "messages").completed)
    }
}
#endif
