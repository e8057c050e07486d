import ArgumentParser

/// `sharing`: Apple's app-extension sharing system on the command line.
@main
struct Sharing: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "sharing",
        abstract: "Uniform Type Identifiers, item providers, extension manifests and share intake, portably.",
        version: version,
        subcommands: [TypesCommand.self, ShareCommand.self]
    )
}
