// A share extension that receives the way code written since iOS 16 does: the app declares what a recipe can be
// shared as with `Transferable`, and the extension loads it with `loadTransferable`. It answers with one item
// whose text says what arrived: the recipe's title and steps, and its photo's size and whether it came as the
// original file or a copy.
import ExtensionRuntime
import SharingShim

extension UTType {
    static let recipe = UTType(exportedAs: "org.opensharing.examples.recipe")
}

/// What the app shares: a recipe as its own Codable type, or failing that as text ("Title: step; step").
struct Recipe: Codable, Transferable {
    var title: String
    var steps: [String]

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .recipe)
        ProxyRepresentation(exporting: { "\($0.title): \($0.steps.joined(separator: "; "))" })
    }
}

/// The recipe's photo, which travels as a file.
struct RecipePhoto: Transferable {
    var bytes: Int
    var wasOriginal: Bool

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(importedContentType: .image) { received in
            let size = try FileManager.default.attributesOfItem(atPath: received.file.path)[.size] as? Int ?? -1
            return RecipePhoto(bytes: size, wasOriginal: received.isOriginalFile)
        }
    }
}

final class RecipeShare: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let providers = context.inputItems.flatMap { ($0 as? NSExtensionItem)?.attachments ?? [] }
        Task { await RecipeShare.answer(context, from: providers) }
    }

    private static func answer(_ context: NSExtensionContext, from providers: [NSItemProvider]) async {
        do {
            var lines: [String] = []
            for provider in providers {
                if provider.hasItemConformingToTypeIdentifier(UTType.recipe.identifier) {
                    let recipe = try await load(Recipe.self, from: provider)
                    lines.append("recipe \(recipe.title) with \(recipe.steps.count) steps: \(recipe.steps.joined(separator: ", "))")
                } else if provider.hasItemConformingToTypeIdentifier(UTType.image.identifier) {
                    let photo = try await load(RecipePhoto.self, from: provider)
                    lines.append("photo of \(photo.bytes) bytes, \(photo.wasOriginal ? "the original" : "a copy")")
                }
            }
            let answer = NSExtensionItem()
            answer.attachments = [NSItemProvider(item: lines.joined(separator: "\n") as NSString, typeIdentifier: UTType.plainText.identifier)]
            context.completeRequest(returningItems: [answer], completionHandler: nil)
        } catch {
            context.cancelRequest(withError: error)
        }
    }

    private static func load<T: Transferable>(_ type: T.Type, from provider: NSItemProvider) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            _ = provider.loadTransferable(type: type) { continuation.resume(with: $0) }
        }
    }
}

ExtensionProcess.run(RecipeShare.init)
