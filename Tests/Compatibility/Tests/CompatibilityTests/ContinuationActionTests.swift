import CompatibilityHarness
@testable import ContinuationAction
import Foundation
import HostProfiles
import Testing

@Suite("Compatibility: an action extension on Swift concurrency (Firefox's pattern)")
@MainActor
struct ContinuationActionTests {
    private func expectOpened(_ run: ExtensionRun, _ action: String, _ name: String, _ value: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.completed, sourceLocation: sourceLocation)
        #expect(run.misuses.isEmpty, sourceLocation: sourceLocation)
        #expect(run.openedURLs.map(\.scheme) == ["firefox"], sourceLocation: sourceLocation)
        #expect(run.openedURLs.map(\.host) == [action], sourceLocation: sourceLocation)
        #expect(run.openedQuery() == [name: [value], "openWithFirefox": ["true"]], sourceLocation: sourceLocation)
    }

    @Test("a page from a browser opens the app at it, a property list or text beside the URL or not", arguments: [
        ("safari", "https://www.apple.com/newsroom/"),
        ("safari-javascript", "https://www.apple.com/newsroom/"),
        ("chrome", "https://www.swift.org/blog/"),
        ("firefox", "https://www.mozilla.org/firefox/"),
    ])
    func page(share: String, url: String) async throws {
        let run = try await ExtensionHarness.present(ContinuationViewController(), share: share)
        expectOpened(run, "open-url", "url", url)
    }

    @Test("a note without a domain in it becomes a search for its text")
    func noteSearch() async throws {
        let run = try await ExtensionHarness.present(ContinuationViewController(), share: "notes")
        expectOpened(run, "open-text", "text", "Shopping: milk, bread")
    }

    @Test("text that names a host opens it as a web address")
    func textWithHost() async throws {
        let run = try await ExtensionHarness.present(ContinuationViewController(), profile: "notes",
                                                     sharing: SharedContent(texts: ["example.org/menu"]))
        expectOpened(run, "open-url", "url", "http://example.org/menu")
    }

    @Test("Files wraps its file URL in a property list: the URL load gives data, not a URL, so nothing opens")
    func files() async throws {
        let run = try await ExtensionHarness.present(ContinuationViewController(), share: "files")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }

    @Test("photos carry neither a URL nor text: the request completes and nothing opens")
    func photos() async throws {
        let run = try await ExtensionHarness.present(ContinuationViewController(), share: "photos")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }
}
