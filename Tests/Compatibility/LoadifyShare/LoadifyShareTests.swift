import CompatibilityHarness
import Foundation
import Testing

/// Loadify's share extension: `registeredTypeIdentifiers` matched exactly against `UTType` identifiers, a URL
/// taken as `URL` or parsed from a `String`, the request completed two seconds later.
@Suite("Compatibility: Loadify's share extension")
@MainActor
struct LoadifyShareTests {
    @Test("a page from Chrome: the request completes, then the app is opened with the URL")
    func chromePage() async throws {
        let run = try await ExtensionHarness.present(ShareViewController(), share: "chrome")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.absoluteString) == ["loadify://?url=https://www.swift.org/blog/"])
    }

    @Test("Safari with JavaScript preprocessing registers a property list first; public.url is still found")
    func safariJavaScript() async throws {
        let run = try await ExtensionHarness.present(ShareViewController(), share: "safari-javascript")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.absoluteString) == ["loadify://?url=https://www.apple.com/newsroom/"])
    }

    @Test("Notes registers public.utf8-plain-text, not public.plain-text: the exact match fails and it closes at once")
    func notesNotMatched() async throws {
        let run = try await ExtensionHarness.present(ShareViewController(), share: "notes")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }
}
