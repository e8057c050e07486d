import Foundation
import SharingShim
import Testing

/// The `async` conveniences, which OpenSharing adds over both Apple's Foundation and its own.
@Suite("async loading")
struct AsyncConvenienceTests {
    @Test("loadData(for:)")
    func data() async throws {
        let provider = NSItemProvider(object: "async text" as NSString)
        #expect(try await provider.loadData(for: .plainText) == Data("async text".utf8))
        await #expect(performing: { try await provider.loadData(for: .jpeg) },
                      throws: { error in let cocoa = error as NSError; return cocoa.domain == NSItemProviderErrorDomain && cocoa.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue })
    }

    @Test("loadFile(for:) keeps the file until the LoadedFile is released")
    func file() async throws {
        let provider = NSItemProvider(object: "kept" as NSString)
        var loaded: LoadedFile? = try await provider.loadFile(for: .plainText)
        let url = try #require(loaded?.url)
        try await Task.sleep(for: .milliseconds(50))
        #expect(try String(contentsOf: url, encoding: .utf8) == "kept")
        #expect(loaded?.isOpenedInPlace == false)
        loaded = nil
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("loadFile(for:openInPlace:) of an in-place file is the original, never removed")
    func inPlace() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-inplace-\(UUID().uuidString).txt")
        try Data("original".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let provider = NSItemProvider(contentsOf: file, contentType: .plainText, openInPlace: true)
        var loaded: LoadedFile? = try await provider.loadFile(for: .plainText, openInPlace: true)
        #expect(loaded?.url == file && loaded?.isOpenedInPlace == true)
        loaded = nil
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test("loadObject(ofClass:) for Swift values")
    func object() async throws {
        let provider = NSItemProvider(object: URL(string: "https://example.com/page")! as NSURL)
        #expect(try await provider.loadObject(ofClass: URL.self) == URL(string: "https://example.com/page"))
        #expect(try await provider.loadObject(ofClass: String.self) == "https://example.com/page")
    }

    @Test("cancelling the task cancels the load")
    func cancellation() async throws {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .plainText) { completion in
            let progress = Progress(totalUnitCount: 1)
            progress.cancellationHandler = { completion(nil, CocoaError(.userCancelled)) }
            return progress  // never completes by itself
        }
        let task = Task { try await provider.loadData(for: .plainText) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(performing: { try await task.value }, throws: { error in let cocoa = error as NSError; return cocoa.domain == NSCocoaErrorDomain && cocoa.code == CocoaError.userCancelled.rawValue })
    }
}
