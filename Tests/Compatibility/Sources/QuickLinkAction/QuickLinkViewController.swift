import SharingShim

// The pattern of DuckDuckGo's "Open in DuckDuckGo" action extension (README.md): in `viewWillAppear`, per item
// per provider, text (`kUTTypeText as String`) before a URL (`kUTTypeURL as String`), each loaded with
// `loadItem(forTypeIdentifier:options:completionHandler:)` and `break`; text becomes a search URL and a URL
// is taken as it is; on the main queue the app is opened with its quick-link scheme up the responder chain and
// the request completed, once per item that yielded something.

enum QuickLink {
    static let scheme = "ddgQuickLink://"

    /// The search the app runs for `text`, or `nil` when the text makes no URL.
    static func search(_ text: String) -> URL? {
        guard let query = text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) else { return nil }
        return URL(string: "https://duckduckgo.com/?q=\(query)&t=ddg_ios")
    }
}

class QuickLinkViewController: UIViewController {
    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        for item in extensionContext?.inputItems as? [NSExtensionItem] ?? [] {
            for provider in item.attachments ?? [] {
                if provider.hasItemConformingToTypeIdentifier(kUTTypeText as String) {
                    provider.loadItem(forTypeIdentifier: kUTTypeText as String, options: nil) { text, _ in
                        guard let text = text as? String, let url = QuickLink.search(text) else { return }
                        self.launch(url)
                    }
                    break
                }
                if provider.hasItemConformingToTypeIdentifier(kUTTypeURL as String) {
                    provider.loadItem(forTypeIdentifier: kUTTypeURL as String, options: nil) { url, _ in
                        guard let url = url as? URL else { return }
                        self.launch(url)
                    }
                    break
                }
            }
        }
    }

    func launch(_ url: URL) {
        DispatchQueue.main.async {
            guard let link = URL(string: QuickLink.scheme + url.absoluteString) else { return }
            var responder = self as UIResponder?
            while let current = responder {
                if let application = current as? UIApplication {
                    application.open(link)
                    break
                }
                responder = current.next
            }
            self.extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
        }
    }
}
