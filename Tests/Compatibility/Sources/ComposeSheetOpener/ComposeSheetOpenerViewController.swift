import SharingShim

// The pattern of Brave's older "Share to Brave" compose sheet (README.md): an `SLComposeServiceViewController`
// that does its work in `configurationItems()`: the first attachment with a URL, else with text, loaded; the
// value read as `NSSecureCoding` and cast to `String` (a search) or `URL` (its first link); the app opened up
// the responder chain, then the sheet `cancel()`s 0.1 s later instead of posting; with nothing to open, it
// cancels at once. It hides its text view in `viewDidAppear` and its view in `willMove(toParent:)`.

extension String {
    /// The first link in the text, as `NSDataDetector` finds it.
    var firstLink: URL? {
        guard let detector = try? NSDataDetector(types: NSTextCheckingResult.CheckingType.link.rawValue),
              let match = detector.firstMatch(in: self, options: [], range: NSRange(location: 0, length: count)),
              let range = Range(match.range, in: self)
        else { return nil }
        return URL(string: String(self[range]))
    }
}

/// Where the app is opened: a page, or a search.
struct BraveDestination {
    let isSearch: Bool
    let value: String

    init?(_ item: NSSecureCoding) {
        if let text = item as? String {
            isSearch = true
            value = text
        } else if let link = (item as? URL)?.absoluteString.firstLink?.absoluteString {
            isSearch = false
            value = link
        } else {
            return nil
        }
    }

    var url: URL? {
        var components = URLComponents()
        components.scheme = Bundle.main.infoDictionary?["BRAVE_URL_SCHEME"] as? String ?? "brave"
        components.host = isSearch ? "search" : "open-url"
        components.queryItems = [URLQueryItem(name: isSearch ? "q" : "url", value: value)]
        return components.url
    }
}

class ComposeSheetOpenerViewController: SLComposeServiceViewController {
    override func configurationItems() -> [Any]! {
        guard let items = extensionContext?.inputItems as? [NSExtensionItem] else { return [] }
        let providers = items.compactMap(\.attachments).flatMap { $0 }
        let hasURL = { (provider: NSItemProvider) in provider.hasItemConformingToTypeIdentifier(UTType.url.identifier) }
        let hasText = { (provider: NSItemProvider) in provider.hasItemConformingToTypeIdentifier(UTType.text.identifier) }
        guard let provider = providers.first(where: hasURL) ?? providers.first(where: hasText) else {
            cancel()
            return []
        }
        provider.loadItem(forTypeIdentifier: hasURL(provider) ? UTType.url.identifier : UTType.text.identifier) { item, _ in
            DispatchQueue.main.async {
                guard let item, let url = BraveDestination(item)?.url else { return self.cancel() }
                self.openApp(url)
            }
        }
        return []
    }

    private func openApp(_ url: URL) {
        var responder = self as UIResponder?
        while let current = responder {
            if let application = current as? UIApplication {
                DispatchQueue.main.async { application.open(url, options: [:], completionHandler: nil) }
            }
            responder = current.next
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { self.cancel() }
    }

    override func viewDidAppear(_ animated: Bool) {
        textView.resignFirstResponder()
        textView.isEditable = false
        super.viewDidAppear(animated)
    }

    override func willMove(toParent parent: UIViewController?) {
        view.alpha = 0
    }
}
