import PackageSupport
import SharingShim
import Testing

/// Loads a value through `loadTransferable`, failing the test if the handler is called other than once.
private func load<T: Transferable>(_ type: T.Type, from provider: NSItemProvider) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        _ = provider.loadTransferable(type: type) { result in continuation.resume(with: result) }
    }
}

private func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("transferable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    return directory
}

@Suite("Transferable: representations in order of preference")
struct TransferableRepresentationTests {
    @Test("a value exports as each representation's type, most preferred first, proxies last as written")
    func exportedTypesKeepTheirOrder() {
        #expect(Note.exportedContentTypes() == [.note, .noteArchive, .utf8PlainText])
        #expect(Destination.exportedContentTypes() == [.url])
        #expect(String.exportedContentTypes() == [.utf8PlainText])
    }

    @Test("a representation limited to the team is left out for everyone else")
    func visibilityNarrowsTheTypes() {
        #expect(Settings.exportedContentTypes() == [.utf8PlainText])
        #expect(Settings.exportedContentTypes(visibility: .team) == [.settings, .utf8PlainText])
        #expect(Settings.exportedContentTypes(visibility: .ownProcess) == [.settings, .utf8PlainText])
    }

    @Test("a Codable representation is JSON by default and round-trips")
    func codableIsJSON() async throws {
        let note = Note(title: "Groceries", body: "eggs, milk")
        let data = try await note.exported(as: .note)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(json == ["title": "Groceries", "body": "eggs, milk"])
        #expect(try await Note(importing: data, contentType: .note) == note)
    }

    @Test("a Codable representation uses the coders it is given")
    func codableUsesItsCoders() async throws {
        let data = try await Settings(volume: 7).exported(as: .settings)
        #expect(data.starts(with: Data("<?xml".utf8)) || data.starts(with: Data("bplist".utf8)))
        #expect(try await Settings(importing: data, contentType: .settings) == Settings(volume: 7))
    }

    @Test("exporting as a broader type takes the first representation conforming to it")
    func exportChoosesByConformance() async throws {
        let note = Note(title: "Title", body: "Body text")
        #expect(try await note.exported(as: .plainText) == Data("Body text".utf8))
        #expect(try JSONDecoder().decode(Note.self, from: try await note.exported(as: nil)) == note)
    }

    @Test("importing with no type tries each representation until one reads the data")
    func importWithoutTypeTriesEach() async throws {
        // Not JSON, so the Codable representation fails and the archive's reads it.
        let note = try await Note(importing: Data("Title\nBody".utf8), contentType: nil)
        #expect(note == Note(title: "Title", body: "Body"))
    }

    @Test("a type a value cannot import is an error naming what it imports")
    func unknownImportTypeIsAnError() async throws {
        let error = await #expect(throws: NSError.self) {
            try await Note(importing: Data("x".utf8), contentType: .png)
        }
        #expect(error?.domain == NSItemProviderErrorDomain)
        #expect(error?.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue)
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("public.png"))
        #expect(message.contains("com.example.note, com.example.note-archive"))
    }

    @Test("an exporting condition removes the representation for values that fail it, and only for those")
    func exportingCondition() async throws {
        let full = Table(rows: ["a,b", "c,d"])
        #expect(try await full.exported(as: .commaSeparatedText) == Data("a,b\nc,d".utf8))
        let empty = Table(rows: [])
        // The proxy's plain text is the only export left, and it does not conform to CSV.
        await #expect(throws: NSError.self) { try await empty.exported(as: .commaSeparatedText) }
        #expect(try await empty.exported(as: nil) == Data())
        #expect(try await full.exported(as: nil) == Data("a,b\nc,d".utf8))
    }

    @Test("an enum proxies to URL both ways")
    func enumThroughURL() async throws {
        let page = Destination.page(URL(string: "https://example.com/docs")!)
        #expect(try await page.exported(as: .url) == Data("https://example.com/docs".utf8))
        #expect(try await Destination(importing: Data("https://example.com/".utf8), contentType: .url) == .home)
        #expect(try await Destination(importing: Data("https://example.com/a".utf8), contentType: .url)
                == .page(URL(string: "https://example.com/a")!))
    }

    @Test("a file representation exports under its suggested name and imports a copy unless it asks for the original")
    func fileRepresentation() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("source.png")
        try Data("PNG bytes".utf8).write(to: original)
        let picture = Picture(file: original, caption: "Sunset")
        #expect(picture.suggestedFilename == "Sunset.png")

        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let first = try await picture.export(to: out, contentType: .png)
        let second = try await picture.export(to: out, contentType: nil)
        #expect(first.lastPathComponent == "Sunset.png")
        #expect(second.lastPathComponent == "Sunset 2.png")
        #expect(try Data(contentsOf: second) == Data("PNG bytes".utf8))

        let imported = try await Picture(importing: original, contentType: nil)
        defer { try? FileManager.default.removeItem(at: imported.file) }
        #expect(imported.caption == "copy")
        #expect(try Data(contentsOf: imported.file) == Data("PNG bytes".utf8))

        let (kept, bytes) = try await picture.withExportedFile(contentType: .image) { url in
            (url, try Data(contentsOf: url))
        }
        #expect(bytes == Data("PNG bytes".utf8))
        #expect(!FileManager.default.fileExists(atPath: kept.path))
    }
}

@Suite("Transferable: the item-provider bridges")
struct TransferableItemProviderTests {
    @Test("register offers every exported representation once, in order, under its visibility")
    func registerOffersRepresentations() {
        let provider = NSItemProvider()
        provider.register(Note(title: "T", body: "B"))
        #expect(provider.registeredContentTypes == [.note, .noteArchive, .utf8PlainText])

        let settings = NSItemProvider()
        settings.register(Settings(volume: 1))
        #expect(settings.registeredContentTypes == [.settings, .utf8PlainText])
    }

    @Test("register leaves out what an exporting condition refuses this value, and names the provider")
    func registerAppliesConditionsAndNames() throws {
        let table = NSItemProvider()
        table.register(Table(rows: []))
        #expect(table.registeredContentTypes == [.utf8PlainText])

        let picture = NSItemProvider()
        picture.register(Picture(file: URL(fileURLWithPath: "/nonexistent.png"), caption: "Beach"))
        #expect(picture.suggestedName == "Beach.png")
    }

    @Test("loadTransferable takes the receiver's most preferred type the provider offers")
    func loadPrefersTheReceiversOrder() async throws {
        let note = Note(title: "Plan", body: "Ship it")
        let provider = NSItemProvider()
        provider.register(note)
        #expect(try await load(Note.self, from: provider) == note)
        #expect(try await load(String.self, from: provider) == "Ship it")

        // A provider with only the archive: the note comes through its second representation.
        let archive = NSItemProvider()
        archive.registerDataRepresentation(for: .noteArchive) { completion in
            completion(Data("From\nthe archive".utf8), nil)
            return nil
        }
        #expect(try await load(Note.self, from: archive) == Note(title: "From", body: "the archive"))
    }

    @Test("loadTransferable fails, once, naming what the provider offers and what the type imports")
    func loadFailsClearly() async throws {
        let provider = NSItemProvider()
        provider.register("just text")
        let error = await #expect(throws: NSError.self) { try await load(Note.self, from: provider) }
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("public.utf8-plain-text"))
        #expect(message.contains("com.example.note"))
        #expect(error?.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue)
    }

    @Test("a file representation crosses as a file and is imported from a copy that outlives the provider's")
    func fileCrossesAsFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("photo.png")
        try Data("pixels".utf8).write(to: original)
        let provider = NSItemProvider()
        provider.register(Picture(file: original, caption: "Photo"))
        #expect(provider.registeredContentTypes == [.png])

        let loaded = try await load(Picture.self, from: provider)
        defer { try? FileManager.default.removeItem(at: loaded.file) }
        #expect(loaded.caption == "copy")
        #expect(try Data(contentsOf: loaded.file) == Data("pixels".utf8))
        #expect(try Data(contentsOf: original) == Data("pixels".utf8))
    }

    @Test("a value registered by proxy loads as the proxy's type, and a URL as an enum proxying to it")
    func proxiesAcrossTheProvider() async throws {
        let provider = NSItemProvider()
        provider.register(URL(string: "https://example.com/page")!)
        #expect(try await load(Destination.self, from: provider) == .page(URL(string: "https://example.com/page")!))
        #expect(try await load(URL.self, from: provider) == URL(string: "https://example.com/page")!)
    }

    @Test("a registered value's exporter and a loaded value's importer run on the loaders' queue, not the cooperative pool")
    func offThePool() async throws {
        let provider = NSItemProvider()
        provider.register(QueueProbe(label: ""))
        let loaded = try await load(QueueProbe.self, from: provider)
        #expect(loaded.label == "org.opensharing.loaders exported, org.opensharing.loaders imported")
    }

    @Test("cancelling the load ends it once, with the user-cancelled error")
    func cancellation() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .note) { completion in
            Task {
                for await _ in gate {}
                completion(Data("{}".utf8), nil)
            }
            return nil
        }
        let calls = Locked(0)
        let result: Result<Note, any Error> = await withCheckedContinuation { continuation in
            let progress = provider.loadTransferable(type: Note.self) { result in
                calls.increment()
                continuation.resume(returning: result)
            }
            progress.cancel()
        }
        open.finish()
        #expect(calls.value == 1)
        #expect(throws: CocoaError.self) { try result.get() }
        if case .failure(let error as CocoaError) = result { #expect(error.code == .userCancelled) }
    }
}

/// A value whose representation records the dispatch queue each side runs on.
private struct QueueProbe: Transferable {
    var label: String

    /// Whether this runs on the loaders' executor.
    static var currentQueue: String {
        let onLoaders = withUnsafeCurrentTask { $0?.unownedTaskExecutor == QueueTaskExecutor.loaders.asUnownedTaskExecutor() }
        return onLoaders ? "org.opensharing.loaders" : "elsewhere"
    }

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: UTType(exportedAs: "org.opensharing.tests.queue-probe")) { _ in
            Data("\(currentQueue) exported".utf8)
        } importing: { data in
            QueueProbe(label: "\(String(decoding: data, as: UTF8.self)), \(currentQueue) imported")
        }
    }
}

/// A counter the handlers of one test touch from other threads.
private final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int

    init(_ count: Int) { self.count = count }

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
