public import Foundation
public import SharingShim

extension ShareFixture {
    /// The extension items the fixture describes, backed by real item providers (`ReplayItemProvider`).
    ///
    /// The host is another process with the fixture's `origin` team and groups; the extension loading the
    /// items is this process with the `consumer` team and groups, so visibility applies as it would.
    ///
    /// - Parameter baseDirectory: where relative payload paths start (the fixture file's directory).
    /// - Throws: `ShareFixtureError` with the JSON path of a payload that cannot be used (a missing file, a
    ///   file where a directory belongs, an object of the wrong type).
    public func makeItems(relativeTo baseDirectory: URL) throws(ShareFixtureError) -> [NSExtensionItem] {
        var items: [NSExtensionItem] = []
        for (itemIndex, spec) in self.items.enumerated() {
            let item = NSExtensionItem()
            if let userInfo = spec.userInfo {
                item.userInfo = userInfo.mapValues { $0.foundationObject as Any }
            }
            if let title = spec.title { item.attributedTitle = NSAttributedString(string: title) }
            if let text = spec.contentText { item.attributedContentText = NSAttributedString(string: text) }
            if let attachments = spec.attachments {
                var providers: [NSItemProvider] = []
                for (index, attachment) in attachments.enumerated() {
                    let provider = try ReplayItemProvider(attachment: attachment, baseDirectory: baseDirectory,
                                                          path: "$.items[\(itemIndex)].attachments[\(index)]")
                    provider.origin = hostParty
                    provider.consumer = extensionParty
                    providers.append(provider)
                }
                item.attachments = providers
            }
            items.append(item)
        }
        return items
    }

    /// The host app: a process other than this one.
    var hostParty: NSItemProvider.Party {
        let current = ProcessInfo.processInfo.processIdentifier
        return .init(processIdentifier: current == 1 ? 2 : 1, teamIdentifier: origin?.team, applicationGroups: Set(origin?.groups ?? []))
    }

    /// The extension: this process.
    var extensionParty: NSItemProvider.Party {
        .init(processIdentifier: ProcessInfo.processInfo.processIdentifier, teamIdentifier: consumer?.team,
              applicationGroups: Set(consumer?.groups ?? []))
    }
}
