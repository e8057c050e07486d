import CompatibilityHarness
import Foundation
@testable import DeepLinkShare
import Testing

@Suite("Compatibility: a deep-link share extension (Loadify's pattern)")
@MainActor
struct DeepLinkShareTests {
    @Test("a page from Chrome: the request completes, then the app is opened with the URL")
    func chromePage() async throws {
        let run = try await ExtensionHarness.present(DeepLinkViewController(), share: "chrome")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.absoluteString) == ["loadify://?url=https://www.swift.org/blog/"])
    }

    @Test("Safari with JavaScript preprocessing registers a property list first; public.url is still found")
    func safariJavaScript() async throws {
        let run = try await ExtensionHarness.present(DeepLinkViewController(), share: "safari-javascript")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.absoluteString) == ["loadify://?url=https://www.apple.com/newsroom/"])
    }

    @Test("Notes registers public.utf8-plain-text, not public.plain-text: the exact match fails and it closes at once")
    func notesNotMatched() async throws {
        let run = try await ExtensionHarness.present(DeepLinkViewController(), share: "notes")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }
}
