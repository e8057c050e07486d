#if os(Linux)
import Foundation
import HostProfiles
import SharingShim
import Testing

/// What a recipe app shares, declared as the app declares it.
private struct SharedRecipe: Codable, Transferable {
    var title: String
    var steps: [String]

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: UTType(exportedAs: "org.opensharing.examples.recipe"))
    }
}

@Suite("Your app as a host")
struct AppAsHostTests {
    @Test("an app writes its Transferable values as a share fixture, and sharing run runs an extension against it")
    func fixtureFromTransferableValues() async throws {
        try await withTemporaryDirectory { directory in
            let provider = NSItemProvider()
            provider.register(SharedRecipe(title: "Bread", steps: ["knead", "proof", "bake"]))
            let item = NSExtensionItem()
            item.attachments = [provider]
            let fixture = try await ShareFixture(items: [item], host: "recipes", writingFilesTo: directory)
            let file = directory.appending(path: "recipe.json")
            try fixture.jsonData().write(to: file)

            let bundle = try ExampleBundle.make("RecipeShare", in: directory)
            let result = try await Sharing.run(["run", bundle.path, "--share", file.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("recipe Bread with 3 steps: knead, proof, bake"), "\(result.standardOutput)")
        }
    }

    /// A fixture of the recipe app's share, written as the app writes it.
    private func recipeFixture(in directory: URL) async throws -> URL {
        let provider = NSItemProvider()
        provider.register(SharedRecipe(title: "Bread", steps: ["knead", "proof", "bake"]))
        let item = NSExtensionItem()
        item.attachments = [provider]
        let file = directory.appending(path: "recipe.json")
        try await ShareFixture(items: [item], host: "recipes", writingFilesTo: directory).jsonData().write(to: file)
        return file
    }

    @Test("sharing test --share runs the matrix on the app's fixture in place of the hosts, and a retry must be given it again")
    func matrixOnFixture() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await recipeFixture(in: directory)
            let bundle = try ExampleBundle.make("RecipeShare", in: directory)
            let report = directory.appending(path: "report.json")
            let result = try await Sharing.run(["test", bundle.path, "--share", fixture.path, "--devices", "iphone-13",
                                                "--work", directory.appending(path: "work").path, "--json", report.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
            let cells = try #require(json["cells"] as? [[String: Any]])
            let rows = cells.map { cell in
                let spec = cell["cell"] as? [String: Any] ?? [:]
                return "\(spec["fixture"] as? String ?? "-") \(spec["host"] as? String ?? "-") \((spec["faults"] as? [String])?.first ?? "none") \(cell["status"] as? String ?? "")"
            }.sorted()
            #expect(rows == ["\(fixture.path) - load-fails(nth=1) cancelled", "\(fixture.path) - none completed",
                             "\(fixture.path) - slow-host(delay=2s) completed"])
            #expect((json["runInfo"] as? [String: Any])?["shares"] as? [String] == [fixture.path])

            let retry = try await Sharing.run(["test", "--retry", report.path, "--work", directory.appending(path: "again").path])
            #expect(retry.status == 2)
            #expect(retry.standardError.contains("runInfo.shares"), "\(retry.standardError)")
            #expect(retry.standardError.contains("give them again (--share)"), "\(retry.standardError)")
        }
    }

    @Test("--share with --hosts or with content is bad input: exit status 2, the clash named", arguments: [
        ["--hosts", "notes"], ["--text", "hello"],
    ])
    func shareClashes(extra: [String]) async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await recipeFixture(in: directory)
            let bundle = try ExampleBundle.make("RecipeShare", in: directory)
            let result = try await Sharing.run(["test", bundle.path, "--share", fixture.path] + extra)
            #expect(result.status == 2)
            #expect(result.standardError.contains("--share"), "\(result.standardError)")
            #expect(result.standardError.contains(extra[0] == "--hosts" ? "--hosts" : "--text"), "\(result.standardError)")
        }
    }
}
#endif
