import SharingShim

// The pattern of Loadify's share extension (README.md): the first attachment of the first item; the first of
// `[UTType.url, .plainText]`'s identifiers that its `registeredTypeIdentifiers` contains exactly (no
// conformance); `loadItem` with a `[weak self]` closure; the value taken as `URL`, or as `String` parsed into
// one; two seconds later on the main queue the request completes, and only then is the app opened with a
// deep link.

class DeepLinkViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        guard let item = extensionContext?.inputItems.first as? NSExtensionItem,
              let provider = item.attachments?.first
        else {
            close()
            return
        }
        let accepted = [UTType.url, .plainText].map(\.identifier)
        guard let identifier = accepted.first(where: provider.registeredTypeIdentifiers.contains) else {
            close()
            return
        }
        provider.loadItem(forTypeIdentifier: identifier, options: nil) { [weak self] value, error in
            guard let self else { return }
            guard error == nil, let url = value as? URL ?? (value as? String).flatMap({ URL(string: $0) }) else {
                self.close()
                return
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                self.close()
                self.open(URL(string: "loadify://?url=\(url.absoluteString)")!)
            }
        }
    }

    private func close() {
        extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
    }

    @discardableResult
    private func open(_ url: URL) -> Bool {
        guard let application = try? application() else { return false }
        application.open(url)
        return true
    }

    private func application() throws -> UIApplication {
        var responder: UIResponder? = self
        while let current = responder {
            if let application = current as? UIApplication { return application }
            responder = current.next
        }
        throw NSError(domain: "DeepLinkShare", code: 1)
    }
}
