#if canImport(ExtensionRuntime)
import ArgumentParser
import ExtensionManifest
import ExtensionRuntime
import Foundation

/// `sharing extensions`: which installed extensions would be offered for a share.
struct ExtensionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extensions",
        abstract: "Find the share and action extension bundles (Name.appex) in directories and say which would appear for a share.",
        discussion: "Exit status: 0 when at least one extension would appear, 1 when none would, 2 on bad input (a broken bundle)."
    )

    @Argument(help: ArgumentHelp("Directories holding .appex bundles, like an app's PlugIns.", valueName: "directory"))
    var directories: [String]

    @OptionGroup var source: ShareOptions

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if !source.isGiven { throw ValidationError("Give the share: --share FIXTURE, or --host NAME with --file, --url, --text.") }
    }

    func run() async throws {
        let bundles: [ExtensionBundle]
        do {
            bundles = try ExtensionBundle.discover(in: directories.map { URL(fileURLWithPath: $0, isDirectory: true) })
        } catch {
            throw BadInput("\(error)")
        }
        let input = try source.activationInput()
        var answers: [ActivationAnswer] = []
        // Only extensions of a point the system offers for shares (share and action extensions): a
        // notification service is never offered one.
        for bundle in bundles where ExtensionPoint.named(bundle.extensionPointIdentifier)?.usesActivationRule ?? true {
            var answer = try ActivationAnswer(manifest: bundle.manifest, source: bundle.url.path, input: input, explain: false)
            answer.name = bundle.name
            answers.append(answer)
        }
        try ActivationAnswer.print(answers, json: json)
        if !answers.contains(where: \.appears) { throw ExitCode.failure }
    }
}
#endif
