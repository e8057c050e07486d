import ArgumentParser
import Foundation

/// `sharing`: Apple's app-extension sharing system on the command line.
@main
struct Sharing: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "sharing",
        abstract: "Uniform Type Identifiers, item providers, extension manifests and share intake, portably.",
        version: version,
        subcommands: [TypesCommand.self, ShareCommand.self, LintCommand.self, MatchCommand.self, ReceiveCommand.self, InboxCommand.self, ThumbnailCommand.self]
    )

    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            // `sharing match` answers like grep, whose status for bad usage is 2, not the usual 64.
            if CommandLine.arguments.dropFirst().first == "match", exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
