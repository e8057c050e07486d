#if canImport(ExtensionRuntime)
import ArgumentParser
import ExtensionRuntime
import Foundation
import SharingShim

/// `sharing run`: one request to an extension, as its own process, under limits.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an extension bundle (Name.appex) on a share as a host would: its own process, its limits, one outcome.",
        discussion: """
            Prints each load the extension asked for, how the request ended and why, the returned items, and the \
            most memory the extension used. Exit status: 0 when the extension completed the request, 1 when it \
            cancelled it or was interrupted, 2 on bad input (a missing bundle, a broken Info.plist).
            """
    )

    @Argument(help: ArgumentHelp("The extension bundle.", valueName: "bundle"))
    var bundle: String

    /// The share: a fixture, a host profile's, or (with neither) the files, URLs and text as they are.
    @OptionGroup var source: ShareOptions

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("The memory limit (default: the extension point's, 120MB for share and action extensions).", valueName: "size"))
    var memoryLimit: ByteCount?

    @Option(help: ArgumentHelp("Seconds the extension has to end the request (default 60).", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("app-group"), help: ArgumentHelp("The directory of app group containers the extension is given (made if missing).", valueName: "directory"))
    var appGroup: String?

    @Option(help: ArgumentHelp("A delegated, writable cgroup v2 directory: the extension runs in a child cgroup of it whose memory.max is the limit.", valueName: "directory"))
    var cgroup: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if !source.isGiven && source.files.isEmpty && source.urls.isEmpty && source.texts.isEmpty {
            throw ValidationError("Give the share: --share FIXTURE, or --host NAME with --file, --url, --text, or those alone.")
        }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be more than 0 seconds.") }
        if let memoryLimit, memoryLimit.bytes < 1 << 20 { throw ValidationError("--memory-limit must be at least 1MB.") }
    }

    func run() async throws {
        let extensionBundle: ExtensionBundle
        do {
            extensionBundle = try ExtensionBundle(url: URL(fileURLWithPath: bundle, isDirectory: true))
        } catch {
            throw BadInput("\(error)")
        }
        // Made when missing, as `receive --inbox` makes its inbox.
        if let appGroup {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: appGroup, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw BadInput("--app-group \(appGroup): not a directory") }
            } else {
                do {
                    try FileManager.default.createDirectory(atPath: appGroup, withIntermediateDirectories: true)
                } catch {
                    throw BadInput("--app-group \(appGroup): cannot make the directory: \((error as NSError).localizedDescription)")
                }
            }
        }
        let items = try source.items()
        var limits = ExtensionLimits.defaults(forExtensionPoint: extensionBundle.extensionPointIdentifier)
        if let memoryLimit { limits.memory = memoryLimit.bytes }
        if let timeout { limits.request = .milliseconds(Int(timeout * 1000)) }
        let host = ExtensionHost(limits: limits, appGroupContainers: appGroup.map { URL(fileURLWithPath: $0, isDirectory: true) },
                                 cgroup: cgroup.map { URL(fileURLWithPath: $0, isDirectory: true) }, openURL: { _ in true })
        let run: ExtensionRun
        do {
            run = try await host.run(extensionBundle, items: items)
        } catch {
            throw BadInput("\(error)")
        }
        let report = await Report(run, bundle: extensionBundle)
        if json {
            try Output.json(report)
        } else {
            report.print()
        }
        if report.outcome != "completed" { throw ExitCode.failure }
    }

    /// What a run printed: the lifecycle, the outcome, the returned items, the footprint.
    struct Report: Encodable {
        struct Load: Encodable {
            var type: String
            var form: String
            var size: Int?
            var failure: String?
        }
        struct Returned: Encodable {
            var type: String
            var text: String?
            var size: Int?
        }
        var bundle: String
        var loads: [Load]
        var outcome: String
        var reason: String?
        var error: [String: String]?
        var returned: [Returned]
        var openedURLs: [String]
        var peakFootprint: Int
        var exitStatus: String?
        var confined: Bool

        init(_ run: ExtensionRun, bundle: ExtensionBundle) async {
            self.bundle = bundle.name
            loads = run.loads.map { Load(type: $0.typeIdentifier, form: $0.form, size: $0.size, failure: $0.failure) }
            returned = []
            switch run.outcome {
            case .completed(let items):
                outcome = "completed"
                for provider in items.flatMap({ $0.attachments ?? [] }) {
                    guard let type = provider.registeredTypeIdentifiers.first else { continue }
                    let data = await withCheckedContinuation { continuation in
                        provider.loadDataRepresentation(forTypeIdentifier: type) { data, _ in continuation.resume(returning: data) }
                    }
                    let isText = UTType(type)?.conforms(to: .text) == true
                    returned.append(Returned(type: type, text: isText ? data.map { String(decoding: $0, as: UTF8.self) } : nil, size: data?.count))
                }
            case .cancelled(let error):
                outcome = "cancelled"
                self.error = ["domain": error.domain, "code": String(error.code), "description": error.localizedDescription]
            case .interrupted(let reason):
                outcome = "interrupted"
                self.reason = reason.description
            }
            openedURLs = run.openedURLs.map(\.absoluteString)
            peakFootprint = run.peakFootprint
            exitStatus = run.exitStatus?.description
            confined = run.confined
        }

        func print() {
            for load in loads {
                let size = load.size.map { " " + ByteCount(bytes: $0).description } ?? ""
                Output.line("load: \(load.type) as \(load.form)\(size)\(load.failure.map { " failed: \($0)" } ?? "")")
            }
            for url in openedURLs { Output.line("open: \(url)") }
            switch outcome {
            case "completed": Output.line("\(bundle): completed, \(returned.count) item\(returned.count == 1 ? "" : "s") returned")
            case "cancelled": Output.line("\(bundle): cancelled: \(error?["domain"] ?? "") \(error?["code"] ?? ""): \(error?["description"] ?? "")")
            default: Output.line("\(bundle): interrupted: \(reason ?? "")")
            }
            for item in returned {
                if let text = item.text { Output.line("  \(item.type): \(text)") } else { Output.line("  \(item.type): \(ByteCount(bytes: item.size ?? 0))") }
            }
            Output.line("peak memory: \(ByteCount(bytes: peakFootprint))")
            Output.line("sandbox: \(confined ? "Landlock (writes in its container and app groups only)" : "none (the kernel has no Landlock)")")
        }
    }
}
#endif
