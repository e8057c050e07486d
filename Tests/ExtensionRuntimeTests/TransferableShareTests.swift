import ExtensionRuntime
import Foundation
import OpenItemProvider
import OpenTransferable
import OpenUniformTypeIdentifiers
import Testing

// What the sending app declares (its own copies of the types, as an app and its extension each compile theirs):
// a recipe as Codable under the type both agree on, and a photo as a file.

private struct SharedRecipe: Codable, Transferable {
    var title: String
    var steps: [String]

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: UTType(exportedAs: "org.opensharing.examples.recipe"))
    }
}

private struct SharedPhoto: Transferable {
    var file: URL

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(exportedContentType: .png) { SentTransferredFile($0.file) }
    }
}

@Suite("Transferable across the process boundary")
struct TransferableShareTests {
    @Test("an extension loads with loadTransferable the values a host registered, a file crossing as a file")
    func recipeAndPhotoCross() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("RecipeShare", in: directory))
        let photoFile = directory.appendingPathComponent("pancakes.png")
        try Data(repeating: 0x89, count: 4096).write(to: photoFile)

        let recipe = NSItemProvider()
        recipe.register(SharedRecipe(title: "Pancakes", steps: ["mix", "rest", "fry"]))
        let photo = NSItemProvider()
        photo.register(SharedPhoto(file: photoFile))
        let item = NSExtensionItem()
        item.attachments = [recipe, photo]

        let run = try await ExtensionHost().run(bundle, items: [item])
        guard case .completed(let items) = run.outcome else {
            Issue.record("expected completion, got \(run.outcome) after \(run.requestTime) of request time (\(run.waitedForCore) waited for a core); loads: \(run.loads); log: \(run.log)")
            return
        }
        let answer = try await items.first?.attachments?.first?.loadItem(forTypeIdentifier: "public.plain-text", options: nil)
        #expect(answer as Any as? String == "recipe Pancakes with 3 steps: mix, rest, fry\nphoto of 4096 bytes, a copy")
        // The recipe came as the Codable representation's data, the photo as a file (a descriptor).
        #expect(run.loads.map(\.typeIdentifier) == ["org.opensharing.examples.recipe", "public.png"])
        #expect(run.loads.map(\.form) == [.data, .file])
        #expect(run.exitStatus == .exited(0))
    }

    @Test("an extension's loadTransferable of a type the host did not send fails with the error naming both, and the extension cancels")
    func nothingToLoad() async throws {
        let directory = try ExampleBundles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try ExtensionBundle(url: ExampleBundles.make("RecipeShare", in: directory))
        // Registered under the recipe type (so the extension activates and tries), but as bytes that are not one.
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: UTType(exportedAs: "org.opensharing.examples.recipe")) { completion in
            completion(Data("not json".utf8), nil)
            return nil
        }
        let item = NSExtensionItem()
        item.attachments = [provider]
        let run = try await ExtensionHost().run(bundle, items: [item])
        guard case .cancelled(let error) = run.outcome else {
            Issue.record("expected cancellation, got \(run.outcome); log: \(run.log)")
            return
        }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == CocoaError.coderReadCorrupt.rawValue)
    }
}
