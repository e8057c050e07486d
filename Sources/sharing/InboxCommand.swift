import ArgumentParser
import Foundation
import ShareInbox

/// `sharing inbox`: the main app's side of the inbox.
struct InboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "List, claim, acknowledge and clean up an inbox, as the main app does.",
        subcommands: [List.self, Claim.self, Acknowledge.self, CollectGarbage.self]
    )

    struct Location: ParsableArguments {
        @Argument(help: ArgumentHelp("The inbox directory.", valueName: "dir"))
        var directory: String

        func open() throws -> ShareInbox {
            guard FileManager.default.fileExists(atPath: directory) else { throw BadInput("\(directory): no such inbox") }
            do {
                return try ShareInbox(at: URL(fileURLWithPath: directory))
            } catch {
                throw BadInput("\(directory): \(error)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the pending items (and the claimed ones), oldest first.")

        @OptionGroup var location: Location

        @Flag(help: "Check each payload against its manifest's size and SHA-256.")
        var verify = false

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let inbox = try location.open()
            let items = try inbox.pending() + inbox.claimed()
            var damaged = false
            struct Listed: Encodable {
                var id: String
                var state: String
                var manifest: InboxManifest
                var intact: Bool?
            }
            var listed: [Listed] = []
            for item in items {
                let intact = verify ? try item.verify() : nil
                if intact == false { damaged = true }
                listed.append(Listed(id: item.id, state: item.state.rawValue, manifest: item.manifest, intact: intact))
            }
            if json {
                try Output.json(listed)
            } else {
                let typeWidth = listed.map(\.manifest.type.count).max() ?? 0
                for entry in listed {
                    let check = entry.intact.map { $0 ? "  intact" : "  DAMAGED" } ?? ""
                    let size = ByteCount(bytes: Int(entry.manifest.size)).description.leftPadded(to: 9)
                    Output.line("\(entry.id)  \(entry.state.padding(toLength: 7, withPad: " ", startingAt: 0))  \(entry.manifest.type.padding(toLength: typeWidth, withPad: " ", startingAt: 0))  \(size)  \(entry.manifest.name)\(check)")
                }
                Output.line("\(items.filter { $0.state == .pending }.count) pending, \(items.filter { $0.state == .claimed }.count) claimed")
            }
            if damaged { throw ExitCode.failure }
        }
    }

    struct Claim: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Claim an item (the oldest pending one unless named) and print where it is.",
            discussion: "Exit status 1 when there was nothing to claim, or another reader won it."
        )

        @OptionGroup var location: Location

        @Argument(help: ArgumentHelp("The item to claim.", valueName: "id"))
        var id: String?

        func run() throws {
            let inbox = try location.open()
            if let id, !ShareInbox.isIdentifier(id) { throw BadInput("'\(id)' is not an inbox item identifier") }
            let claimed = try id.map { try inbox.claim(id: $0) } ?? inbox.claimNext()
            guard let claimed else { throw ExitCode.failure }
            Output.line("\(claimed.id)  \(claimed.payloadURL.path)")
        }
    }

    struct Acknowledge: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ack", abstract: "Acknowledge claimed items: they are done with, and removed.")

        @OptionGroup var location: Location

        @Argument(help: ArgumentHelp("The claimed items.", valueName: "id"))
        var ids: [String]

        func run() throws {
            let inbox = try location.open()
            let claimed = try inbox.claimed()
            var failed = false
            for id in ids {
                guard let item = claimed.first(where: { $0.id == id }) else {
                    Output.error("\(id) is not claimed")
                    failed = true
                    continue
                }
                try inbox.acknowledge(item)
            }
            if failed { throw ExitCode.failure }
        }
    }

    struct CollectGarbage: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gc",
            abstract: "Return expired claims to pending, and remove what dead writers left behind."
        )

        @OptionGroup var location: Location

        @Option(help: ArgumentHelp("Seconds a claim holds.", valueName: "seconds"))
        var lease: Int = 600

        func validate() throws {
            if lease < 0 { throw ValidationError("--lease must not be negative.") }
        }

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let inbox = try ShareInbox(at: try location.open().url, claimLease: .seconds(lease))
            let report = try inbox.collectGarbage()
            if json {
                try Output.json(report)
            } else {
                Output.line("\(report.returned.count) claim\(report.returned.count == 1 ? "" : "s") returned, \(report.removed.count) leftover\(report.removed.count == 1 ? "" : "s") removed")
            }
        }
    }
}
