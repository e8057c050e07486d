import ArgumentParser
import Foundation
import HostProfiles
import SharingShim

/// `sharing share`: what a host app shares, as a fixture, and what each representation delivers.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Show, write or replay a share: a fixture, or a host profile applied to files, URLs and text.",
        discussion: "With --load every representation is loaded as data, as a file and with the legacy loadItem, and what arrives is shown."
    )

    @OptionGroup var source: ShareOptions

    @Option(name: .customLong("write"), help: ArgumentHelp("Write the share as a fixture file.", valueName: "fixture"))
    var outputPath: String?

    @Flag(help: "Load every representation and show what arrives.")
    var load = false

    @Flag(help: "List the host profiles.")
    var listHosts = false

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if !listHosts && !source.isGiven { throw ValidationError("Give --share FIXTURE, --host NAME, or --list-hosts.") }
    }

    func run() async throws {
        if listHosts { return try printHosts() }
        let (fixture, base) = try loadFixture()
        if let outputPath {
            let output = URL(fileURLWithPath: outputPath)
            let items = try makeItems(fixture, base)
            let written = try await ShareFixture(items: items, host: fixture.host, summary: fixture.summary,
                                                 writingFilesTo: output.deletingLastPathComponent())
            try written.jsonData().write(to: output)
        }
        if load {
            let probe = await ShareProbe.probe(try makeItems(fixture, base))
            if json { try Output.json(probe) } else { Output.line(probe.outline(of: fixture)) }
        } else if outputPath == nil {
            if json { try Output.json(fixture) } else { Output.line(fixture.outline) }
        }
    }

    private func loadFixture() throws -> (ShareFixture, URL) {
        do {
            return try source.fixture()
        } catch let error as ShareFixtureError {
            throw BadInput("\(error)")
        } catch let error as HostProfileError {
            throw BadInput(error)
        }
    }

    private func makeItems(_ fixture: ShareFixture, _ base: URL) throws -> [NSExtensionItem] {
        do {
            return try fixture.makeItems(relativeTo: base)
        } catch {
            throw BadInput("\(error)")
        }
    }

    private func printHosts() throws {
        if json {
            struct Host: Encodable { var name, host, sends, trap, report: String }
            try Output.json(HostProfile.all.map { Host(name: $0.name, host: $0.host, sends: $0.sends, trap: $0.trap, report: $0.report) })
        } else {
            for profile in HostProfile.all {
                Output.line("\(profile.name.padding(toLength: 20, withPad: " ", startingAt: 0))\(profile.host): \(profile.sends)")
            }
        }
    }
}
