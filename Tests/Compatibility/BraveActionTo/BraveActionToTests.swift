import CompatibilityHarness
import Foundation
import Testing

/// Brave's action extension: every attachment of every item is loaded, text before URL.
@Suite("Compatibility: Brave's action extension")
@MainActor
struct BraveActionToTests {
    @Test("a page from Safari opens Brave at it")
    func safariPage() async throws {
        let run = try await ExtensionHarness.present(ActionToBraveViewController(), share: "safari")
        #expect(run.completed)
        #expect(run.openedQuery()["url"] == ["https://www.apple.com/newsroom/"])
        #expect(run.misuses.isEmpty)
    }

    @Test("Firefox's URL and its plain-text copy are one item: the first attachment wins, the loop breaks")
    func firefoxFirstAttachment() async throws {
        let run = try await ExtensionHarness.present(ActionToBraveViewController(), share: "firefox")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.host) == ["open-url"])
        #expect(run.misuses.isEmpty)
    }

    @Test("one page as three items: the URL and the text each open Brave, and the second completion is a misuse iOS logs")
    func duplicates() async throws {
        let run = try await ExtensionHarness.present(ActionToBraveViewController(), share: "duplicates")
        #expect(run.completed)
        #expect(run.openedURLs.compactMap(\.host).sorted() == ["open-url", "search"])
        #expect(run.misuses == ["NSExtensionContext: completeRequest(returningItems:) called after the request was already completed; ignored."])
    }
}
