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
    /// they are (`plainItems()`).
    func items() throws(BadInput) -> [NSExtensionItem] {
        try share().items
    }

    /// The share's items and the host that shares them (none for the files, URLs and text as they are).
    func share() throws(BadInput) -> (items: [NSExtensionItem], host: String?) {
        // What no host shares, whoever is said to share it: a process's insides, the kernel's, a disk.
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for path in files {
            if let refusal = ShareFixture.refusal(of: URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL) {
                throw BadInput("--file \(refusal)")
            }
        }
        guard isGiven else { return (try plainItems(), nil) }
        do {
            let (fixture, base) = try fixture()
            return (try fixture.makeItems(relativeTo: base), fixture.host)
        } catch {
            throw BadInput("\(error)")
        }
    }

    /// One item holding the files (openable in place, named by their file names) and URLs as they are, with
    /// the first text as its content and the title as its title: no host's habits.
    private func plainItems() throws(BadInput) -> [NSExtensionItem] {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let item = NSExtensionItem()
        var attachments: [NSItemProvider] = []
        for path in files {
            let url = URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.path) else { throw BadInput("\(path): no such file or directory") }
            let provider = NSItemProvider(contentsOf: url, contentType: nil, openInPlace: true)
            provider.suggestedName = url.lastPathComponent
            attachments.append(provider)
        }
        for text in urls {
            guard let url = URL(string: text) else { continue }
            attachments.append(NSItemProvider(object: url as NSURL))
        }
        item.attachments = attachments
        if let text = texts.first { item.attributedContentText = NSAttributedString(string: text) }
        if let title { item.attributedTitle = NSAttributedString(string: title) }
        return [item]
    }

    /// What activation rules are evaluated against for the share.
    func activationInput() throws(BadInput) -> ActivationInput {
        ActivationInput(try items())
    }

    /// The fixture, and the directory its relative paths start from.
    func fixture() throws -> (ShareFixture, URL) {
        if let fixturePath {
            let url = URL(fileURLWithPath: fixturePath)
            return (try ShareFixture.read(from: url), url.deletingLastPathComponent())
        }
        guard let hostName, let profile = HostProfile.named(hostName) else { throw ValidationError("Give --share FIXTURE or --host NAME.") }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let content = SharedContent(files: files.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL },
                                    urls: urls.compactMap(URL.init(string:)), texts: texts, title: title)
        return (try profile.share(content), cwd)
    }
}
