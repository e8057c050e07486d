import SharingShim

// The pattern of Firefox's "Open in Firefox" action extension (README.md): a `@MainActor final` controller with
// an injected URL builder beside `init(nibName:bundle:)` and `init?(coder:)`; `viewDidLoad` sets up its view and
// starts a `Task`; the legacy `loadItem(forTypeIdentifier:options:completionHandler:)` wrapped in
// `withCheckedThrowingContinuation`, a wrong class an error; every item's URL attachments first (the item's
// `attributedContentText` as the title), then its text, which becomes a URL when it names a host and a search
// otherwise; the app opened with `open(_:options:completionHandler:)` up the responder chain; the request
// completed (or cancelled with an error, which never happens here).

protocol AppURLBuilding {
    func appURL(for content: String, isSearch: Bool) -> URL?
}

struct AppURLBuilder: AppURLBuilding {
    /// The app's internal scheme, from the extension's Info.plist when it says.
    let scheme: String = {
        guard let value = Bundle.main.object(forInfoDictionaryKey: "MozInternalURLScheme") as? String, !value.isEmpty else { return "firefox" }
        return value
    }()

    func appURL(for content: String, isSearch: Bool) -> URL? {
        guard let encoded = content.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { return nil }
        let action = isSearch ? "open-text?text" : "open-url?url"
        return URL(string: "\(scheme)://\(action)=\(encoded)&openWithFirefox=true")
    }
}

enum SharedContent {
    case page(url: String, title: String?)
    case text(String)
}

extension NSItemProvider {
    var offersText: Bool { hasItemConformingToTypeIdentifier(UTType.text.identifier) }
    var offersURL: Bool { hasItemConformingToTypeIdentifier(UTType.url.identifier) }

    func loadURLValue() async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            loadItem(forTypeIdentifier: UTType.url.identifier, options: nil) { item, error in
                if let error { return continuation.resume(throwing: error) }
                guard let url = item as? URL else {
                    return continuation.resume(throwing: NSError(domain: "ContinuationAction", code: 1, userInfo: ["problem": "not a URL"]))
                }
                continuation.resume(returning: url)
            }
        }
    }

    func loadTextValue() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            loadItem(forTypeIdentifier: UTType.text.identifier, options: nil) { item, error in
                if let error { return continuation.resume(throwing: error) }
                guard let text = item as? String else {
                    return continuation.resume(throwing: NSError(domain: "ContinuationAction", code: 2, userInfo: ["problem": "not a string"]))
                }
                continuation.resume(returning: text)
            }
        }
    }
}

@MainActor
final class ContinuationViewController: UIViewController {
    private let builder: any AppURLBuilding

    override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        builder = AppURLBuilder()
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    init(builder: any AppURLBuilding) {
        self.builder = builder
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) is not supported")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .clear
        view.alpha = 0
        Task { await handleShare() }
    }

    private func handleShare() async {
        guard let items = extensionContext?.inputItems as? [NSExtensionItem] else { return finish(nil) }
        if let page = await firstPage(in: items) {
            open(page)
        } else if let text = await firstText(in: items) {
            open(text)
        } else {
            finish(nil)
        }
    }

    private func firstPage(in items: [NSExtensionItem]) async -> SharedContent? {
        for item in items {
            for provider in item.attachments ?? [] where provider.offersURL {
                if let url = try? await provider.loadURLValue() {
                    return .page(url: url.absoluteString, title: item.attributedContentText?.string)
                }
            }
        }
        return nil
    }

    private func firstText(in items: [NSExtensionItem]) async -> SharedContent? {
        for item in items {
            for provider in item.attachments ?? [] where provider.offersText {
                guard let text = try? await provider.loadTextValue() else { continue }
                if let url = webAddress(in: text) { return .page(url: url.absoluteString, title: nil) }
                return .text(text)
            }
        }
        return nil
    }

    /// Text that names a host (a dot in it) as a web address, `http://` added when it has no scheme.
    private func webAddress(in text: String) -> URL? {
        guard text.contains(".") else { return nil }
        let candidate = text.hasPrefix("http") ? text : "http://\(text)"
        guard let url = URL(string: candidate), let host = url.host, host.contains(".") else { return nil }
        return url
    }

    private func open(_ content: SharedContent) {
        let url: URL?
        switch content {
        case .page(let address, _): url = builder.appURL(for: address, isSearch: false)
        case .text(let text): url = builder.appURL(for: text, isSearch: true)
        }
        if let url {
            var responder: UIResponder? = self
            while let current = responder {
                if let application = current as? UIApplication {
                    application.open(url, options: [:], completionHandler: nil)
                    break
                }
                responder = current.next
            }
        }
        finish(nil)
    }

    private func finish(_ error: (any Error)?) {
        if let error {
            extensionContext?.cancelRequest(withError: error)
        } else {
            extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
        }
    }
}
