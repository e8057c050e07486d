import CompatibilityHarness
@testable import ComposeSheetOpener
@testable import FirstLinkAction
import Foundation
@testable import SearchOrOpenAction
import Testing

@Suite("Compatibility: an action extension that loads every item (Brave's first pattern)")
@MainActor
struct SearchOrOpenActionTests {
    @Test("a page from Safari opens the browser at it")
    func safariPage() async throws {
        let run = try await ExtensionHarness.present(SearchOrOpenViewController(), share: "safari")
        #expect(run.completed)
        #expect(run.openedQuery()["url"] == ["https://www.apple.com/newsroom/"])
        #expect(run.misuses.isEmpty)
    }

    @Test("Firefox's URL and its plain-text copy are one item: the first attachment wins, the loop breaks")
    func firefoxFirstAttachment() async throws {
        let run = try await ExtensionHarness.present(SearchOrOpenViewController(), share: "firefox")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.host) == ["open-url"])
        #expect(run.misuses.isEmpty)
    }

    @Test("one page as three items: the URL and the text each open the browser, and the second completion is a misuse iOS logs")
    func duplicates() async throws {
        let run = try await ExtensionHarness.present(SearchOrOpenViewController(), share: "duplicates")
        #expect(run.completed)
        #expect(run.openedURLs.compactMap(\.host).sorted() == ["open-url", "search"])
        #expect(run.misuses == ["NSExtensionContext: completeRequest(returningItems:) called after the request was already completed; ignored."])
    }
}

@Suite("Compatibility: the first link or text of a share (Brave's Open in pattern)")
@MainActor
struct FirstLinkActionTests {
    @Test("a page from Safari opens the browser at it", arguments: ["safari", "safari-javascript"])
    func safariPage(share: String) async throws {
        let run = try await ExtensionHarness.present(FirstLinkViewController(), share: share)
        #expect(run.completed)
        #expect(run.openedURLs.map(\.host) == ["open-url"])
        #expect(run.openedQuery()["url"] == ["https://www.apple.com/newsroom/"])
    }

    @Test("text (a note) becomes a search")
    func noteSearch() async throws {
        let run = try await ExtensionHarness.present(FirstLinkViewController(), share: "notes")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.host) == ["search"])
        #expect(run.openedQuery()["q"] == ["Shopping: milk, bread"])
    }

    @Test("photos carry neither a URL nor text: done at once, nothing opened")
    func photos() async throws {
        let run = try await ExtensionHarness.present(FirstLinkViewController(), share: "photos")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }
}

@Suite("Compatibility: a compose sheet that opens its app and cancels (Brave's Share to pattern)")
@MainActor
struct ComposeSheetOpenerTests {
    @Test("a page from Chrome opens the browser at it; the sheet then cancels, as it does on iOS")
    func chromePage() async throws {
        let run = try await ExtensionHarness.present(ComposeSheetOpenerViewController(), share: "chrome")
        #expect(run.openedQuery()["url"] == ["https://www.swift.org/blog/"])
        let error = try #require(run.cancellation)
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSUserCancelledError)
    }

    @Test("text becomes a search")
    func noteSearch() async throws {
        let run = try await ExtensionHarness.present(ComposeSheetOpenerViewController(), share: "notes")
        #expect(run.openedQuery()["q"] == ["Shopping: milk, bread"])
        #expect(run.cancellation?.domain == NSCocoaErrorDomain)
        #expect(run.cancellation?.code == NSUserCancelledError)
    }

    @Test("Mail's share has no attachment: cancelled at once, nothing opened")
    func mail() async throws {
        let run = try await ExtensionHarness.present(ComposeSheetOpenerViewController(), share: "mail")
        #expect(run.openedURLs.isEmpty)
        let error = try #require(run.cancellation)
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSUserCancelledError)
    }
}
