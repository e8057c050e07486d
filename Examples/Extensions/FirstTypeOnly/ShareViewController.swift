// A share extension on the system's compose sheet that saves the shared item into its app group, as a new
// extension's author writes one: Post loads the attachment's first registered type — its highest fidelity, in
// Apple's order — and cancels with the error when that load fails. On a Live Photo the first type cannot be
// loaded (deltachat/deltachat-ios#3193), so the share the person posted fails. The Info.plist key `FallsBack`
// true makes the fix: each registered type in turn, until one loads.
import SharingShim

final class ShareViewController: SLComposeServiceViewController {
    override func didSelectPost() {
        let providers = (extensionContext?.inputItems ?? []).compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        guard let provider = providers.first else {
            extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
            return
        }
        let fallsBack = Bundle.main.object(forInfoDictionaryKey: "FallsBack") as? Bool ?? false
        let types = fallsBack ? provider.registeredTypeIdentifiers : Array(provider.registeredTypeIdentifiers.prefix(1))
        save(provider, trying: types[...], lastError: nil)
    }

    private func save(_ provider: NSItemProvider, trying types: ArraySlice<String>, lastError: (any Error)?) {
        guard let type = types.first else {
            extensionContext?.cancelRequest(withError: lastError ?? NSError(domain: NSCocoaErrorDomain, code: NSFileReadUnknownError))
            return
        }
        provider.loadDataRepresentation(forTypeIdentifier: type) { [self] data, error in
            guard let data else {
                DispatchQueue.main.async { self.save(provider, trying: types.dropFirst(), lastError: error) }
                return
            }
            if let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.org.opensharing.examples")?
                .appendingPathComponent("Saved") {
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let name = UTType(type)?.preferredFilenameExtension.map { "shared.\($0)" } ?? "shared"
                try? data.write(to: folder.appendingPathComponent(name))
            }
            extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
        }
    }
}
