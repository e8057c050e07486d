import ArgumentParser
import Foundation
import HostProfiles
import ShareInbox
import ShareIntake
import SharingShim

/// `sharing receive`: what a share extension does, on files, URLs, a host profile or a share fixture.
struct ReceiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Receive a share into an inbox, as a share extension would.",
        discussion: """
            The share is the files and URLs given (offered as the Files app offers documents, openable in \
            place), or --host NAME applied to them, or a --share fixture. Each attachment arrives in the inbox \
            as its best accepted representation. Exit status 1 when an attachment failed.
            """
    )

    @Argument(help: ArgumentHelp("Files and URLs to share.", valueName: "path-or-url"))
    var things: [String] = []

    @OptionGroup var source: ShareOptions

    @Option(help: ArgumentHelp("The inbox directory (created if missing).", valueName: "dir"))
    var inbox: String

    @Option(help: ArgumentHelp("Accepted types, most wanted first, comma-separated: identifiers, .extensions, MIME types.", valueName: "types"))
    var accept: String = "public.item"

    @Option(name: .customLong("memory-budget"), help: ArgumentHelp("The memory the intake may use (24MB, 120MB).", valueName: "size"))
    var memoryBudget: ByteCount = ByteCount(bytes: 24 << 20)

    @Option(name: .customLong("max-size"), help: ArgumentHelp("The largest item received.", valueName: "size"))
    var maximumSize: ByteCount?

    @Option(help: ArgumentHelp("Seconds to wait for the host to answer a load.", valueName: "seconds"))
    var timeout: Double = 30

    @Option(help: ArgumentHelp("Preview sizes for images, in pixels on the longer side, comma-separated (300,1200).", valueName: "sizes"))
    var previews: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        if source.isGiven && !things.isEmpty && source.fixturePath != nil {
            throw ValidationError("Files and URLs go with --host, or alone; a --share fixture says everything itself.")
        }
        if !source.isGiven && things.isEmpty && source.files.isEmpty && source.urls.isEmpty && source.texts.isEmpty {
            throw ValidationError("Give files or URLs to receive, or --host NAME with them, or --share FIXTURE.")
        }
        if timeout <= 0 { throw ValidationError("--timeout must be positive.") }
        if let previews, previewSizes == nil { throw ValidationError("--previews takes sizes in pixels, like 300,1200; not '\(previews)'.") }
    }

    var previewSizes: [Int]? {
        guard let previews else { return [] }
        let sizes = previews.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) >= 1 }) else { return nil }
        return sizes.compactMap(\.self)
    }

    func run() async throws {
        let accepted: [UTType]
        do {
            accepted = try accept.split(separator: ",").map { query in
                try UTType(TypeAnswer(query: query.trimmingCharacters(in: .whitespaces)).identifier) ?? .item
            }
        } catch {
            throw BadInput("--accept: \(error)")
        }
        let policy = IntakePolicy(acceptedTypes: accepted, maximumItemSize: maximumSize.map { Int64($0.bytes) },
                                  memoryBudget: memoryBudget.bytes, previewSizes: previewSizes ?? [],
                                  loadTimeout: .milliseconds(Int(timeout * 1000)))
        let intake: ShareIntake
        let destination: ShareInbox
        let items: [NSExtensionItem]
        let host: String?
        do {
            intake = try ShareIntake(policy: policy)
            destination = try ShareInbox(at: URL(fileURLWithPath: inbox))
            (items, host) = try share()
        } catch {
            throw BadInput("\(error)")
        }
        let progress = SynchronizedProgress(totalUnitCount: 0)
        let bar = json ? nil : ProgressBar.onTerminal(progress)
        let report: IntakeReport
        do {
            report = try await intake.receive(items, into: destination, host: host, progress: progress)
            bar?.finish()
        } catch {
            bar?.finish()
            Output.error("\(error)")
            throw ExitCode.failure
        }
        if json {
            try Output.json(report)
        } else {
            Output.line(Self.table(report))
        }
        if report.failureCount > 0 { throw ExitCode.failure }
    }

    /// The share: a fixture, a host profile applied to what was given, or the files and URLs as they are.
    private func share() throws -> ([NSExtensionItem], String?) {
        var options = source
        for thing in things {
            if let url = URL(string: thing), let scheme = url.scheme, scheme.count > 1 { options.urls.append(thing) } else { options.files.append(thing) }
        }
        return try options.share()
    }

    static func table(_ report: IntakeReport) -> String {
        let typeWidth = report.received.map(\.type.count).max() ?? 0
        var lines: [String] = []
        for entry in report.entries {
            let place = ("\(entry.item)" + (entry.attachment.map { ".\($0)" } ?? "")).padding(toLength: 6, withPad: " ", startingAt: 0)
            switch entry.outcome {
            case .received(let received):
                let size = ByteCount(bytes: Int(received.size)).description.leftPadded(to: 9)
                lines.append("\(place)received  \(received.type.padding(toLength: typeWidth, withPad: " ", startingAt: 0))  \(size)  \(received.name)")
                for note in received.notes { lines.append("      note: \(note)") }
            case .skipped(let reason):
                lines.append("\(place)skipped   \(reason)")
            case .failed(let reasons):
                lines.append("\(place)FAILED")
                for reason in reasons { lines.append("      \(reason)") }
            }
        }
        let received = report.received.count, failed = report.failureCount
        let skipped = report.entries.count - received - failed
        lines.append("\(received) received, \(skipped) skipped, \(failed) failed")
        return lines.joined(separator: "\n")
    }
}
