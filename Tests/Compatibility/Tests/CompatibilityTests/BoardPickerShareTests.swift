#if os(Linux)
import CompatibilityHarness
import Foundation
@testable import BoardPickerShare
import SharingShim
import Testing

/// A sheet built in code with a table of boards, as a pin-saving app's share extension is: the scripted user
/// picks the first board and taps Post in the navigation bar, from Photos and from Safari.
@Suite("Compatibility: a share sheet built in code, a table of boards and Post in a navigation bar")
struct BoardPickerShareTests {
    static let sunset = ExtensionHarness.examples.appendingPathComponent("files/sunset.jpg").path

    @Test("in this process: the table is asked for its counts, a cell per board (all fit the screen), then the person's choice; Post completes")
    @MainActor
    func asksAsUIKit() async throws {
        let sheet = ShareViewController()
        let run = try await ExtensionHarness.present(sheet, profile: "safari", sharing: .init(urls: [URL(string: "https://www.swift.org/blog/")!]))
        #expect(run.completed)
        let navigation = try #require(sheet.children.first as? UINavigationController)
        let picker = try #require(navigation.topViewController as? BoardPickerViewController)
        #expect(picker.asked == ["sections", "rows"] + (0..<5).map { "cell \($0)" } + ["select 0"])
        #expect(picker.navigationItem.title == "Save to Board" && picker.navigationItem.rightBarButtonItem?.isEnabled == true)
        #expect(picker.extensionContext != nil && picker.navigationController === navigation)
    }

    @Test("from Photos: the user picks a board and taps Post; it completes with the photo kept in the group")
    func photos() throws {
        let result = try SharingCommand.run("BoardPickerShare", ["--host", "photos", "--file", Self.sunset], group: ShareViewController.appGroup)
        #expect(result.status == 0 && result.report["status"] as? String == "completed", "\(result.report)")
        #expect(result.report["taps"] as? [String] == ["row 0.0", "bar item \"Post\""])
        #expect(result.kept.count == 1 && result.kept.allSatisfy { $0.hasPrefix("pending-sunset.") }, "\(result.kept)")
        #expect(result.findings.allSatisfy { $0["severity"] != "fail" }, "\(result.findings)")
    }

    /// Only in the group's defaults, which Foundation on Linux writes when the runtime synchronises them at the
    /// request's end (the group's container exists: the app made it).
    @Test("from Safari: the page's URL is pinned to the first board through the group's defaults, and nothing fails")
    func safari() throws {
        let result = try SharingCommand.run("BoardPickerShare", ["--host", "safari", "--url", "https://www.swift.org/"],
                                            group: ShareViewController.appGroup)
        #expect(result.status == 0 && result.report["status"] as? String == "completed", "\(result.report)")
        #expect(result.report["taps"] as? [String] == ["row 0.0", "bar item \"Post\""])
        #expect(result.findings.allSatisfy { $0["severity"] != "fail" }, "\(result.findings)")
    }

    @Test("a person who cancels taps the Cancel item: cancelled, no row chosen, as the matrix expects (exit 0)")
    func cancel() throws {
        let result = try SharingCommand.run("BoardPickerShare", ["--host", "safari", "--url", "https://www.swift.org/", "--user", "cancel"],
                                            group: ShareViewController.appGroup)
        #expect(result.status == 0 && result.report["status"] as? String == "cancelled", "\(result.report)")
        #expect(result.report["taps"] as? [String] == ["bar item cancel"])
    }

    /// A matrix cell's app groups start empty; the group the extension's entitlements name gets its container before
    /// it starts, as on iOS, so its defaults are kept from Safari, where it never asks for the container itself.
    @Test("sharing test on Photos and Safari: every cell as expected")
    func matrix() throws {
        let result = try SharingCommand.test("BoardPickerShare", ["--hosts", "photos,safari", "--faults", "none", "--devices", "iphone-13"])
        #expect(result.status == 0, "\(result.output)")
    }
}
#endif
