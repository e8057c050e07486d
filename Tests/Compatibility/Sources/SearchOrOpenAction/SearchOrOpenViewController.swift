import SharingShim

// The pattern of Brave's first action extension (README.md): in `viewWillAppear`, every item's attachments in
// turn, the first with text (`UTType.text`) or else a URL (`UTType.url`) loaded, then `break`; the answer
// hops to the main queue; text becomes a search and a URL (its first link, found by `NSDataDetector`) a page,
// as a URL built with `URLComponents` whose scheme the Info.plist may give; the app opened through the
// responder chain, and the request completed 0.1 s later, once per item loaded.

class SearchOrOpenViewController: UIViewController {
    enum Destination { case page, search }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        for item in extensionContext?.inputItems as? [NSExtensionItem] ?? [] {
            for provider in item.attachments ?? [] {
                if provider.hasItemConformingToTypeIdentifier(UTType.text.identifier) {
                    load(.search, from: provider)
                    break
                }
                if provider.hasItemConformingToTypeIdentifier(UTType.url.identifier) {
                    load(.page, from: provider)
                    break
                }
            }
        }
    }

    func done() {
        extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
    }

    private func load(_ destination: Destination, from provider: NSItemProvider) {
        let identifier = destination == .search ? UTType.text.identifier : UTType.url.identifier
        provider.loadItem(forTypeIdentifier: identifier) { value, _ in
            DispatchQueue.main.async {
                guard let target = self.appURL(destination, value) else { return self.done() }
                self.openApp(target)
            }
        }
    }

    private func appURL(_ destination: Destination, _ value: NSSecureCoding?) -> URL? {
        switch destination {
        case .search:
            guard let text = value as? String else { return nil }
            return appURL(host: "search", name: "q", value: text)
        case .page:
            guard let text = (value as? URL)?.absoluteString,
                  let detector = try? NSDataDetector(types: NSTextCheckingResult.CheckingType.link.rawValue),
                  let match = detector.firstMatch(in: text, options: [], range: NSRange(location: 0, length: text.count)),
                  let range = Range(match.range, in: text),
                  let link = URL(string: String(text[range]))?.absoluteString
            else { return nil }
            return appURL(host: "open-url", name: "url", value: link)
        }
    }

    private func appURL(host: String, name: String, value: String) -> URL? {
        var components = URLComponents()
        components.scheme = Bundle.main.infoDictionary?["BRAVE_URL_SCHEME"] as? String ?? "brave"
        components.host = host
        components.queryItems = [URLQueryItem(name: name, value: value)]
        return components.url
    }

    private func openApp(_ url: URL) {
        var responder = self as UIResponder?
        while let current = responder {
            if let application = current as? UIApplication {
                DispatchQueue.main.asyncAfter(deadline: .now() + 0) { application.open(url) }
            }
            responder = current.next
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { self.done() }
    }
}
