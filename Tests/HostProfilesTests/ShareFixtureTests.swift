import Foundation
@testable import HostProfiles
import SharingShim
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let examples = repositoryRoot.appendingPathComponent("Examples")

@Suite("Share fixtures")
struct ShareFixtureTests {
    @Test("every profile round-trips through JSON and through items", arguments: HostProfile.all.map(\.name))
    func roundTrip(_ name: String) async throws {
        let fixture = try ShareFixture.read(from: examples.appendingPathComponent("shares/\(name).json"))
        #expect(fixture.host == name)
        // JSON → fixture → JSON is the identity.
        #expect(try ShareFixture.read(from: fixture.jsonData()) == fixture)
        // Fixture → items → fixture (written beside the original) is the identity too.
        let base = examples.appendingPathComponent("shares")
        let items = try fixture.makeItems(relativeTo: base)
        let written = try await ShareFixture(items: items, host: fixture.host, summary: fixture.summary, writingFilesTo: base)
        #expect(written == fixture)
    }

    @Test("Examples/shares holds a fixture per profile, and nothing else")
    func examplesComplete() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: examples.appendingPathComponent("shares").path)
        #expect(Set(names) == Set(HostProfile.all.map { "\($0.name).json" }))
    }

    @Test("a profile built from content equals its committed fixture, once paths are made relative")
    func profilesMatchExamples() async throws {
        let files = examples.appendingPathComponent("files")
        let fixture = try HostProfile.named("photos")!.share(SharedContent(files: ["sunset.jpg", "diagram.png", "clip.mp4"].map { files.appendingPathComponent($0) }))
        let items = try fixture.makeItems(relativeTo: repositoryRoot)
        let written = try await ShareFixture(items: items, host: fixture.host, summary: fixture.summary,
                                             writingFilesTo: examples.appendingPathComponent("shares"))
        #expect(written == (try ShareFixture.read(from: examples.appendingPathComponent("shares/photos.json"))))
    }

    @Test("items from other providers are written through the public API, data inline or beside the fixture")
    func foreignProviders() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let item = NSExtensionItem()
        item.attributedContentText = NSAttributedString(string: "body")
        item.userInfo?["com.example.extra"] = 7
        let small = NSItemProvider(object: "small text" as NSString)
        let large = NSItemProvider()
        large.registerDataRepresentation(for: .png) { completion in
            completion(Data(count: 40_000), nil)
            return nil
        }
        item.attachments = [small, large]
        let fixture = try await ShareFixture(items: [item], writingFilesTo: directory)
        #expect(fixture.items[0].contentText == "body")
        #expect(fixture.items[0].userInfo == ["com.example.extra": .integer(7)])
        let representations = fixture.items[0].attachments!.map(\.representations)
        #expect(representations[0] == [.init(type: "public.utf8-plain-text", provide: .data, payload: .base64(Data("small text".utf8)))])
        #expect(representations[1] == [.init(type: "public.png", provide: .data, payload: .file("item0-attachment1-0.png"))])
        #expect(try Data(contentsOf: directory.appendingPathComponent("item0-attachment1-0.png")).count == 40_000)
        // And read back, it delivers the same bytes.
        let replayed = try ShareFixture.read(from: fixture.jsonData()).makeItems(relativeTo: directory)
        #expect(try await replayed[0].attachments![1].loadData(for: .png).count == 40_000)
    }

    @Test("an app's Transferable values are written as a fixture that replays them: Codable data inline, a file as a file")
    func transferableValues() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("original.png")
        try Data(repeating: 7, count: 30_000).write(to: photo)
        let recipe = NSItemProvider()
        recipe.register(AppRecipe(title: "Soup"))
        let picture = NSItemProvider()
        picture.register(AppPhoto(file: photo))
        let item = NSExtensionItem()
        item.attachments = [recipe, picture]

        let fixture = try await ShareFixture(items: [item], host: "my-app", writingFilesTo: directory)
        let representations = fixture.items[0].attachments!.map(\.representations)
        #expect(representations[0] == [
            .init(type: "com.example.app-recipe", provide: .data, payload: .base64(try JSONEncoder().encode(AppRecipe(title: "Soup")))),
            .init(type: "public.utf8-plain-text", provide: .data, payload: .base64(Data("Soup".utf8))),
        ])
        #expect(representations[1] == [.init(type: "public.png", provide: .file, payload: .file("item0-attachment1-0.png"))])
        #expect(fixture.items[0].attachments![1].suggestedName == "Photo.png")

        let replayed = try ShareFixture.read(from: fixture.jsonData()).makeItems(relativeTo: directory)
        let providers = replayed[0].attachments!
        #expect(try await transferable(AppRecipe.self, from: providers[0]) == AppRecipe(title: "Soup"))
        #expect(try await transferable(AppPhoto.self, from: providers[1]).size == 30_000)
    }

    private func transferable<T: Transferable>(_ type: T.Type, from provider: NSItemProvider) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            _ = provider.loadTransferable(type: type) { continuation.resume(with: $0) }
        }
    }

    @Test("malformed fixtures: the error names the JSON path", arguments: [
        ("{", "$: not valid JSON"),
        (#"{"format": "opensharing-share/1"}"#, #"$: missing "items""#),
        (#"{"format": "other/9", "items": []}"#, "$.format: unsupported format 'other/9' (this reads opensharing-share/1)"),
        (#"{"format": "opensharing-share/1", "items": {}}"#, "$.items: expected an array"),
        (#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "public.jpeg", "provide": "data"}]}]}]}"#,
         #"$.items[0].attachments[0].representations[0]: missing "payload""#),
        (#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "public.jpeg", "provide": "teleport", "payload": {"text": ""}}]}]}]}"#,
         "$.items[0].attachments[0].representations[0].provide: 'teleport' is not one of data, file, openInPlace, directory, object, item"),
        (#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "x", "provide": "data", "payload": {}}]}]}]}"#,
         "$.items[0].attachments[0].representations[0].payload: a payload has exactly one of text, base64, file, url, plist, image; found none"),
        (#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "x", "provide": "data", "payload": {"text": "a", "url": "b"}}]}]}]}"#,
         "$.items[0].attachments[0].representations[0].payload: a payload has exactly one of text, base64, file, url, plist, image; found text, url"),
        (#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "x", "provide": "file", "payload": {"text": "a"}}]}]}]}"#,
         "$.items[0].attachments[0].representations[0].payload: a file representation takes a file payload"),
        (#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "x", "provide": "data", "payload": {"url": "not a url"}}]}]}]}"#,
         "$.items[0].attachments[0].representations[0].payload.url: 'not a url' is not an absolute URL"),
        (#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "x", "provide": "data", "payload": {"base64": "!!"}}]}]}]}"#,
         "$.items[0].attachments[0].representations[0].payload.base64: not valid base64"),
        (#"{"format": "opensharing-share/1", "items": [{"attachments": [{"representations": [{"type": "x", "provide": "data", "payload": {"text": "a"}, "fault": {"kind": "explode"}}]}]}]}"#,
         "$.items[0].attachments[0].representations[0].fault.kind: unknown fault 'explode' (fails, neverCompletes, slow, unreadableURL, unexpectedClass)"),
        (#"{"format": "opensharing-share/1", "items": [{"userInfo": {"k": null}}]}"#,
         "$.items[0].userInfo.k: expected a string, number, boolean, array or object (null has no property-list form)"),
    ])
    func malformed(_ json: String, _ message: String) {
        do {
            _ = try ShareFixture.read(from: Data(json.utf8))
            Issue.record("read a malformed fixture")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test("payloads that cannot be used are refused when the items are made, with the path")
    func unusablePayloads() throws {
        let missing = ShareFixture(items: [.init(attachments: [.init(representations: [
            .init(type: "public.jpeg", provide: .file, payload: .file("no/such.jpg")),
        ])])])
        #expect(throws: ShareFixtureError(.noSuchFile, path: "$.items[0].attachments[0].representations[0].payload", message: "no such file: /tmp/no/such.jpg")) {
            try missing.makeItems(relativeTo: URL(fileURLWithPath: "/tmp"))
        }
        let directoryAsFile = ShareFixture(items: [.init(attachments: [.init(representations: [
            .init(type: "public.folder", provide: .file, payload: .file(examples.appendingPathComponent("files/Sunset.pvt").path)),
        ])])])
        #expect(throws: ShareFixtureError(.noSuchFile, path: "$.items[0].attachments[0].representations[0].payload",
                                          message: "\(examples.appendingPathComponent("files/Sunset.pvt").path) is a directory (use \"provide\": \"directory\")")) {
            try directoryAsFile.makeItems(relativeTo: examples)
        }
        let wrongObjectType = ShareFixture(items: [.init(attachments: [.init(representations: [
            .init(type: "public.jpeg", provide: .object, payload: .text("words")),
        ])])])
        #expect(throws: ShareFixtureError(.invalidPayload, path: "$.items[0].attachments[0].representations[0].type", message: "NSString registers public.utf8-plain-text, not public.jpeg")) {
            try wrongObjectType.makeItems(relativeTo: examples)
        }
    }
}

/// What an app shares, declared as an app declares it.
private struct AppRecipe: Codable, Equatable, Transferable {
    var title: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: UTType(exportedAs: "com.example.app-recipe"))
        ProxyRepresentation(exporting: \.title)
    }
}

private struct AppPhoto: Transferable {
    var file: URL
    var size = 0

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(contentType: .png) { SentTransferredFile($0.file) } importing: { received in
            let size = try Data(contentsOf: received.file).count
            return AppPhoto(file: received.file, size: size)
        }
        .suggestedFileName("Photo.png")
    }
}
