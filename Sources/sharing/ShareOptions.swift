import ArgumentParser
import ExtensionManifest
import Foundation
import HostProfiles
import SharingShim

/// Where a command's share comes from: a fixture file, or a host profile applied to files, URLs and text.
struct ShareOptions: ParsableArguments {
    @Option(name: .customLong("share"), help: ArgumentHelp("A share fixture (JSON).", valueName: "fixture"))
    var fixturePath: String?

    @Option(name: .customLong("host"), help: ArgumentHelp("A host profile (see sharing share --list-hosts).", valueName: "name"))
    var hostName: String?

    @Option(name: .customLong("file"), help: ArgumentHelp("A file the host shares.", valueName: "path"))
    var files: [String] = []

    @Option(name: .customLong("url"), help: ArgumentHelp("A URL the host shares.", valueName: "url"))
    var urls: [String] = []

    @Option(name: .customLong("text"), help: ArgumentHelp("Text the host shares.", valueName: "text"))
    var texts: [String] = []

    @Option(name: .customLong("title"), help: "The title of what is shared (a page's, a note's).")
    var title: String?

    func validate() throws {
        if fixturePath != nil && hostName != nil { throw ValidationError("Give --share or --host, not both.") }
        if fixturePath != nil && !(files.isEmpty && urls.isEmpty && texts.isEmpty && title == nil) {
            throw ValidationError("--file, --url, --text and --title go with --host, not --share.")
        }
        if let hostName, HostProfile.named(hostName) == nil {
            throw ValidationError("Unknown host '\(hostName)'. Hosts: \(HostProfile.all.map(\.name).joined(separator: ", ")).")
        }
        for url in urls where URL(string: url)?.scheme == nil {
            throw ValidationError("'\(url)' is not an absolute URL.")
        }
    }

    var isGiven: Bool { fixturePath != nil || hostName != nil }

    /// The share's items, as the host makes them; without a host or fixture, the files, URLs and text as
    /// they are.
    func items() throws(BadInput) -> [NSExtensionItem] {
        try share().items
    }

    /// The share's items and the host that shares them (none for the files, URLs and text as they are).
    func share() throws(BadInput) -> (items: [NSExtensionItem], host: String?) {
        do {
            return try source().items()
        } catch let error as HostProfileError {
            throw BadInput(error)
        } catch {
            throw BadInput("\(error)")
        }
    }

    /// Where the share comes from: the fixture, the host's share of the content, or the content as it is.
    func source() throws(BadInput) -> ShareSource {
        if let fixturePath { return .fixture(URL(fileURLWithPath: fixturePath)) }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let content = SharedContent(files: files.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL },
                                    urls: urls.compactMap(URL.init(string:)), texts: texts, title: title)
        guard let hostName else { return .plain(content) }
        guard let profile = HostProfile.named(hostName) else { throw BadInput("--host \(hostName): no host profile has this name") }
        return .host(profile, content)
    }

    /// What activation rules are evaluated against for the share.
    func activationInput() throws(BadInput) -> ActivationInput {
        ActivationInput(try items())
    }

    /// The fixture, and the directory its relative paths start from.
    func fixture() throws -> (ShareFixture, URL) {
        guard let fixture = try source().fixture() else { throw ValidationError("Give --share FIXTURE or --host NAME.") }
        return fixture
    }
}

extension BadInput {
    /// A host profile not given what it shares, and the option that gives it.
    init(_ error: HostProfileError) {
        self.init("--host \(error): give one with --\(error.missing.rawValue)")
    }
}
