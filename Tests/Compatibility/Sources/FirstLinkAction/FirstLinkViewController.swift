import SharingShim

// The pattern of Brave's "Open in Brave" controller, shared by its share and action extensions (README.md):
// all attachments of all items flattened; the first with a URL, else the first with text; `loadItem` with a
// trailing closure whose answer hops to the main queue; a URL's first link found by `NSDataDetector`; the app
// opened with `open(_:options:completionHandler:)` up the responder chain, the request completed 0.1 s later.

extension NSItemProvider {
    var hasText: Bool { hasItemConformingToTypeIdentifier(UTType.text.identifier) }
    var hasURL: Bool { hasItemConformingToTypeIdentifier(UTType.url.identifier) }
}

class FirstLinkViewController: UIViewController {
    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        let providers = (extensionContext?.inputItems as? [NSExtensionItem] ?? []).compactMap(\.attachments).flatMap { $0 }
        guard let provider = providers.first(where: \.hasURL) ?? providers.first(where: \.hasText) else {
            done()
            return
        }
        let isLink = provider.hasURL
        provider.loadItem(forTypeIdentifier: isLink ? UTType.url.identifier : UTType.text.identifier) { value, _ in
            DispatchQueue.main.async {
                guard let target = isLink ? self.pageURL(value) : self.searchURL(value) else { return self.done() }
                self.openApp(target)
            }
        }
    }

    func done() {
        extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
    }

    private func searchURL(_ value: NSSecureCoding?) -> URL? {
        guard let text = value as? String else { return nil }
        return appURL(host: "search", query: URLQueryItem(name: "q", value: text))
    }

    private func pageURL(_ value: NSSecureCoding?) -> URL? {
        guard let text = (value as? URL)?.absoluteString,
              let detector = try? NSDataDetector(types: NSTextCheckingResult.CheckingType.link.rawValue),
              let match = detector.firstMatch(in: text, options: [], range: NSRange(location: 0, length: text.count)),
              let range = Range(match.range, in: text),
              let link = URL(string: String(text[range]))?.absoluteString
        else { return nil }
        return appURL(host: "open-url", query: URLQueryItem(name: "url", value: link))
    }

    private func appURL(host: String, query: URLQueryItem) -> URL? {
        var components = URLComponents()
        components.scheme = Bundle.main.infoDictionary?["BRAVE_URL_SCHEME"] as? String ?? "brave"
        components.host = host
        components.queryItems = [query]
        return components.url
    }

    private func openApp(_ url: URL) {
        var responder = self as UIResponder?
        while let current = responder {
            if let application = current as? UIApplication {
                DispatchQueue.main.async { application.open(url, options: [:], completionHandler: nil) }
            }
            responder = current.next
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { self.done() }
    }
}
