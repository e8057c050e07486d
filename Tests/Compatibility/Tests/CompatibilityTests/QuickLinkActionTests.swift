import CompatibilityHarness
import Foundation
@testable import QuickLinkAction
import Testing

@Suite("Compatibility: a quick-link action extension (DuckDuckGo's pattern)")
@MainActor
struct QuickLinkActionTests {
    @Test("a page from a browser opens the app at it", arguments: [
        ("safari", "https://www.apple.com/newsroom/"),
        ("safari-javascript", "https://www.apple.com/newsroom/"),
        ("chrome", "https://www.swift.org/blog/"),
    ])
    func page(share: String, url: String) async throws {
        let run = try await ExtensionHarness.present(QuickLinkViewController(), share: share)
        #expect(run.completed)
        #expect(run.misuses.isEmpty)
        #expect(run.openedURLs.map(\.absoluteString) == ["ddgQuickLink://\(url)"])
    }

    @Test("Firefox's share (a URL and its text, one item): the first provider, the URL, is the one opened")
    func firefoxPage() async throws {
        let run = try await ExtensionHarness.present(QuickLinkViewController(), share: "firefox")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.absoluteString) == ["ddgQuickLink://https://www.mozilla.org/firefox/"])
    }

    @Test("a note's text is searched for; the image beside it in the same item is passed over")
    func noteSearch() async throws {
        let run = try await ExtensionHarness.present(QuickLinkViewController(), share: "notes")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.absoluteString) == ["ddgQuickLink://https://duckduckgo.com/?q=Shopping:%20milk,%20bread&t=ddg_ios"])
    }

    @Test("one page as several items: each item launches the app and completes; the second completion is a misuse")
    func severalItems() async throws {
        let run = try await ExtensionHarness.present(QuickLinkViewController(), share: "duplicates")
        #expect(run.completed)
        // The URL item opens the page, the text item (the URL again) a search for it; the property list is
        // neither.
        #expect(run.openedURLs.map(\.absoluteString).sorted() == [
            "ddgQuickLink://https://duckduckgo.com/?q=https://www.apple.com/newsroom/&t=ddg_ios",
            "ddgQuickLink://https://www.apple.com/newsroom/",
        ])
        #expect(run.misuses == ["NSExtensionContext: completeRequest(returningItems:) called after the request was already completed; ignored."])
    }
}
