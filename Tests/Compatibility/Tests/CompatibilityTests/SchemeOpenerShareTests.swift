import CompatibilityHarness
import Foundation
@testable import SchemeOpenerShare
import Testing

@Suite("Compatibility: a scheme-opening share extension (Discourse's pattern)")
@MainActor
struct SchemeOpenerShareTests {
    @Test("a page from Safari opens the app with the page's URL, then the request completes")
    func safariPage() async throws {
        let run = try await ExtensionHarness.present(SchemeOpenerViewController(), share: "safari")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.absoluteString) == ["discourse://share?sharedUrl=https://www.apple.com/newsroom/"])
    }

    @Test("Firefox sends the URL twice (public.url, then the same as plain text): the app is asked to open it twice")
    func firefoxTwice() async throws {
        let run = try await ExtensionHarness.present(SchemeOpenerViewController(), share: "firefox")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.absoluteString) == Array(repeating: "discourse://share?sharedUrl=https://www.mozilla.org/firefox/", count: 2))
    }

    @Test("Mail sends no attachments: nothing is opened and the request completes")
    func mail() async throws {
        let run = try await ExtensionHarness.present(SchemeOpenerViewController(), share: "mail")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }
}
