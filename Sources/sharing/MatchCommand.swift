import ArgumentParser
import ExtensionManifest
import Foundation
import HostProfiles
import SharingShim

/// `sharing match`: would these extensions be offered for this share?
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Say whether extensions would be offered for a share, and if not, which clause fails for which attachment.",
        discussion: "Exit status, as grep's: 0 when every extension would be offered, 1 when one would not, 2 on bad input."
    )

    @Argument(help: ArgumentHelp("Extension Info.plists, or .appex and other bundle directories.", valueName: "manifest"))
    var manifests: [String]

    @OptionGroup var source: ShareOptions

    @Flag(help: "Print each rule as the predicate it is evaluated as (dictionary rules translated).")
    var explain = false

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if !source.isGiven { throw ValidationError("Give the share: --share FIXTURE, or --host NAME with --file, --url, --text.") }
    }

    func run() async throws {
        let input = try source.activationInput()
        var answers: [ActivationAnswer] = []
        for path in manifests {
            let manifest: ExtensionManifest
            do {
                manifest = try ExtensionManifest.read(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw BadInput("\(error)")
            }
            answers.append(try ActivationAnswer(manifest: manifest, source: path, input: input, explain: explain))
        }
        try ActivationAnswer.print(answers, json: json)
        if answers.contains(where: { !$0.appears }) { throw ExitCode.failure }
    }
}

/// Whether an extension would be offered for a share, and why not: what `match` and `extensions` print.
struct ActivationAnswer: Encodable {
    var manifest: String
    var name: String
    var appears: Bool
    var reasons: [String]
    var predicate: String?

    /// Evaluates `manifest`'s activation rule (the types its Info.plist declares taking part, as on a device).
    init(manifest: ExtensionManifest, source: String, input: ActivationInput, explain: Bool) throws {
        self.manifest = source
        name = manifest.displayName.flatMap { $0.contains("$(") ? nil : $0 } ?? manifest.bundleIdentifier ?? source
        do {
            let result = try manifest.activation(for: input)
            appears = result.matches
            reasons = result.reasons
            predicate = explain && manifest.activationRule != nil ? result.predicate : nil
        } catch {
            throw BadInput("\(source): NSExtensionActivationRule does not parse: \(error)")
        }
    }

    static func print(_ answers: [ActivationAnswer], json: Bool) throws {
        if json { return try Output.json(answers) }
        for answer in answers {
            Output.line("\(answer.name): \(answer.appears ? "would appear" : "would not appear")")
            if let predicate = answer.predicate { Output.line("  rule: \(predicate)") }
            for reason in answer.reasons { Output.line("  " + reason) }
        }
    }
}
