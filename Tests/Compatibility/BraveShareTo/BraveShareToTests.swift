import CompatibilityHarness
import Foundation
import Testing

/// Brave's older "Share to Brave" compose sheet: `SLComposeServiceViewController`, work done in
/// `configurationItems()`, and the request cancelled (not completed) once the app is opened.
@Suite("Compatibility: Brave's Share to Brave compose sheet")
@MainActor
struct BraveShareToTests {
    @Test("a page from Chrome opens Brave at it; the sheet then cancels, as it does on iOS")
    func chromePage() async throws {
        let run = try await ExtensionHarness.present(ShareToBraveViewController(), share: "chrome")
        #expect(run.openedQuery()["url"] == ["https://www.swift.org/blog/"])
        let error = try #require(run.cancellation)
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSUserCancelledError)
    }

    @Test("text becomes a search")
    func noteSearch() async throws {
        let run = try await ExtensionHarness.present(ShareToBraveViewController(), share: "notes")
        #expect(run.openedQuery()["q"] == ["Shopping: milk, bread"])
        #expect(run.cancellation?.code == NSUserCancelledError)
    }

    @Test("Mail's share has no attachment: cancelled at once, nothing opened")
    func mail() async throws {
        let run = try await ExtensionHarness.present(ShareToBraveViewController(), share: "mail")
        #expect(run.openedURLs.isEmpty)
        let error = try #require(run.cancellation)
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSUserCancelledError)
    }
}
