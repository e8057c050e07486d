import CompatibilityHarness
import Foundation
import Testing

/// Brave's "Open in Brave" view controller (share and action extension): `UTType` identifiers, a link found
/// with `NSDataDetector`, the app opened through the responder chain.
@Suite("Compatibility: Brave's Open in Brave extension")
@MainActor
struct BraveOpenInTests {
    @Test("a page from Safari opens Brave at it", arguments: ["safari", "safari-javascript"])
    func safariPage(share: String) async throws {
        let run = try await ExtensionHarness.present(OpenInBraveViewController(), share: share)
        #expect(run.completed)
        #expect(run.openedURLs.map(\.host) == ["open-url"])
        #expect(run.openedQuery()["url"] == ["https://www.apple.com/newsroom/"])
    }

    @Test("text (a note) becomes a search")
    func noteSearch() async throws {
        let run = try await ExtensionHarness.present(OpenInBraveViewController(), share: "notes")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.host) == ["search"])
        #expect(run.openedQuery()["q"] == ["Shopping: milk, bread"])
    }

    @Test("photos carry neither a URL nor text: done at once, nothing opened")
    func photos() async throws {
        let run = try await ExtensionHarness.present(OpenInBraveViewController(), share: "photos")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }
}
