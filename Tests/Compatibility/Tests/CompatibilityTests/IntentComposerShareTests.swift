import CompatibilityHarness
import Foundation
import HostProfiles
@testable import IntentComposerShare
import Testing

@Suite("Compatibility: a compose-intent share extension (Bluesky's pattern)")
@MainActor
struct IntentComposerShareTests {
    @Test("a web page from Safari opens the composer with the page's URL as its text")
    func safariPage() async throws {
        let run = try await ExtensionHarness.present(ComposeIntentViewController(), share: "safari")
        #expect(run.completed)
        #expect(run.openedURLs.map(\.scheme) == ["bluesky"])
        #expect(run.openedURLs.first?.host == "intent")
        #expect(run.openedQuery()["text"] == ["https://www.apple.com/newsroom/"])
    }

    @Test("a note's text (the first attachment, plain text) is composed")
    func notesText() async throws {
        let run = try await ExtensionHarness.present(ComposeIntentViewController(), share: "notes")
        #expect(run.completed)
        #expect(run.openedQuery()["text"] == ["Shopping: milk, bread"])
    }

    @Test("photos arrive as file URLs; each is decoded, re-encoded as JPEG into the app group, sized upright")
    func photos() async throws {
        let files = ExtensionHarness.examples.appendingPathComponent("files")
        let run = try await ExtensionHarness.present(ComposeIntentViewController(), profile: "photos", sharing: SharedContent(
            files: [files.appendingPathComponent("sunset.jpg"), files.appendingPathComponent("diagram.png")]))
        #expect(run.completed)
        let uris = try #require(run.openedQuery()["imageUris"]?.first)
        let images = uris.split(separator: ",").map { $0.split(separator: "|").map(String.init) }
        // sunset.jpg is stored 1200 × 800 with EXIF orientation 6: UIImage's size is the upright 800 × 1200.
        #expect(images.map { Array($0.dropFirst()) } == [["800.0", "1200.0"], ["400.0", "300.0"]])
        let group = try #require(ExtensionHarness.appGroupDirectory("group.app.bsky"))
        defer { try? FileManager.default.removeItem(at: group) }
        for image in images {
            let file = try #require(URL(string: image[0]))
            #expect(file.deletingLastPathComponent().standardizedFileURL.path == group.standardizedFileURL.path)
            #expect(try Data(contentsOf: file).prefix(3) == Data([0xFF, 0xD8, 0xFF]), "\(file.path) is not a JPEG")
        }
    }

    @Test("a movie among the photos fails the image load: nothing is composed, the request still completes")
    func photosWithMovie() async throws {
        let run = try await ExtensionHarness.present(ComposeIntentViewController(), share: "photos")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }

    @Test("Messages: the public.url is a file URL to an image whose path cannot be read; nothing is composed")
    func messagesUnreadablePath() async throws {
        let run = try await ExtensionHarness.present(ComposeIntentViewController(), share: "messages")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
    }

    @Test("no items at all: the request completes at once")
    func empty() async throws {
        let run = try await ExtensionHarness.present(ComposeIntentViewController(), share: "empty")
        #expect(run.completed)
        #expect(run.openedURLs.isEmpty)
        #expect(run.misuses.isEmpty)
    }
}
