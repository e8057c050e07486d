import ArgumentParser
import Foundation

/// `sharing`: Apple's app-extension sharing system on the command line.
///
/// One exit-status rule for every subcommand: 0 success, 1 when the work itself failed (or, for `match` and
/// `lint`, found what they look for), 2 for bad input — a usage error, an unknown option, a bad value, a
/// missing or unreadable input — with a message naming what was wrong.
@main
struct Sharing: AsyncParsableCommand {
    /// The checkout's version (`git describe --tags --always`), stamped at build time by the VersionStamp plugin.
    static let version = stampedVersion

    static let configuration = CommandConfiguration(
        commandName: "sharing",
        abstract: "Uniform Type Identifiers, item providers, extension manifests and share intake, portably.",
        version: version,
        subcommands: subcommands
    )

    static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [TypesCommand.self, ShareCommand.self, LintCommand.self, MatchCommand.self,
                                                    ReceiveCommand.self, InboxCommand.self, ThumbnailCommand.self, BundleCommand.self]
        #if canImport(ExtensionRuntime)
        commands += [ExtensionsCommand.self, RunCommand.self, NotifyCommand.self, TestCommand.self, FuzzCommand.self]
        #endif
        return commands
    }

    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as BadInput {
            Output.error(error.message)
            exit(withError: ExitCode(2))
        } catch {
            // ArgumentParser's own usage errors (64, EX_USAGE) are bad input like any other.
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}

/// Bad input found while running: printed as `sharing: error: MESSAGE`, exit status 2.
struct BadInput: Error, CustomStringConvertible {
    var message: String

    var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}
