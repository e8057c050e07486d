import SharingShim

// The pattern of Discourse's share extension (README.md): in `viewDidLoad`, every attachment of every item
// that has a URL (`kUTTypeURL` through `String(_:)`) or text (`kUTTypeText`) is loaded with the legacy
// `loadItem(forTypeIdentifier:options:completionHandler:)`, handed an `NSItemProvider.CompletionHandler?`; the
// URL is taken with `as? URL`, the text with `as! String`; each opens the app through the responder chain;
// the view fades out with `UIView.animate` and the request completes in its completion.

extension NSItemProvider {
    var carriesURL: Bool { hasItemConformingToTypeIdentifier(String(kUTTypeURL)) }
    var carriesText: Bool { hasItemConformingToTypeIdentifier(String(kUTTypeText)) }

    func loadURLItem(completion: CompletionHandler?) {
        loadItem(forTypeIdentifier: String(kUTTypeURL), options: nil, completionHandler: completion)
    }

    func loadTextItem(completion: CompletionHandler?) {
        loadItem(forTypeIdentifier: String(kUTTypeText), options: nil, completionHandler: completion)
    }
}

class SchemeOpenerViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        guard let context = extensionContext, let items = context.inputItems as? [NSExtensionItem] else { return }
        for item in items {
            for provider in item.attachments ?? [] {
                if provider.carriesURL {
                    provider.loadURLItem { value, error in
                        guard error == nil, let url = value as? URL else { return }
                        self.openApp(sharing: url)
                    }
                }
                if provider.carriesText {
                    provider.loadTextItem { value, error in
                        guard error == nil, let url = URL(string: value as! String) else { return }
                        self.openApp(sharing: url)
                    }
                }
            }
        }
        UIView.animate(withDuration: 0.2, delay: 0, options: [], animations: {
            self.view.alpha = 0
        }, completion: { _ in
            self.extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
        })
    }

    func openApp(sharing url: URL) {
        var responder: UIResponder? = self
        while responder != nil {
            if let application = responder as? UIApplication {
                application.open(URL(string: "discourse://share?sharedUrl=\(url)")!)
                break
            }
            responder = responder?.next
        }
    }
}
