public import Foundation
public import SharingShim

/// Where a share comes from: a fixture file, a host profile's way of sharing some content, or the content as it
/// is, with no host's habits. The one way a command or a test makes a share's items.
public enum ShareSource: Sendable {
    /// A share fixture; its relative paths start from its own directory.
    case fixture(URL)
    /// A host profile's share of the content.
    case host(HostProfile, SharedContent)
    /// The content as it is: one item holding the files (openable in place, named by their file names) and
    /// URLs, the first text as its content and the title as its title.
    case plain(SharedContent)

    /// The share's items, and the host profile that shares them (none for the content as it is).
    ///
    /// - Throws: `ShareFixtureError` for a fixture that does not read or replay, a file that is not there,
    ///   or one no host shares (`/proc`, `/sys`, a disk); `HostProfileError` when the host cannot share the
    ///   content.
    public func items(relativeTo directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws -> (items: [NSExtensionItem], host: String?) {
        if let (fixture, base) = try fixture(relativeTo: directory) {
            return (try fixture.makeItems(relativeTo: base), fixture.host)
        }
        guard case .plain(let content) = self else { return ([], nil) }
        try Self.check(content.files)
        let item = NSExtensionItem()
        var attachments: [NSItemProvider] = []
        for url in content.files {
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw ShareFixtureError(.noSuchFile, path: "", message: "\(url.path): no such file or directory")
            }
            let provider = NSItemProvider(contentsOf: url, contentType: nil, openInPlace: true)
            provider.suggestedName = url.lastPathComponent
            attachments.append(provider)
        }
        attachments += content.urls.map { NSItemProvider(object: $0 as NSURL) }
        item.attachments = attachments
        if let text = content.texts.first { item.attributedContentText = NSAttributedString(string: text) }
        if let title = content.title { item.attributedTitle = NSAttributedString(string: title) }
        return ([item], nil)
    }

    /// The share as a fixture, and the directory its relative paths start from: the fixture read, or the host's
    /// share of the content; `nil` for the content as it is.
    ///
    /// - Throws: as `items(relativeTo:)`.
    public func fixture(relativeTo directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws -> (fixture: ShareFixture, base: URL)? {
        switch self {
        case .fixture(let url):
            return (try ShareFixture.read(from: url), url.deletingLastPathComponent())
        case .host(let profile, let content):
            try Self.check(content.files)
            return (try profile.share(content), directory)
        case .plain:
            return nil
        }
    }

    /// Refuses what no host shares, whoever is said to share it: a process's insides, the kernel's, a disk.
    private static func check(_ files: [URL]) throws(ShareFixtureError) {
        for file in files {
            if let refusal = ShareFixture.refusal(of: file) { throw ShareFixtureError(.notShared, path: "", message: refusal) }
        }
    }
}
