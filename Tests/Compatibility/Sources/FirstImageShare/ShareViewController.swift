import SharingShim

// The pattern share-extension tutorials teach, as a new user writes it: the system's compose sheet; on Post,
// the first attachment that has an image is loaded with `loadItem(forTypeIdentifier:)`, the item cast to
// `URL`, and the file at that URL copied into the app group; then the request completes. It works from Photos,
// which hands a file URL (cordova-plugin-openwith-ios#32); from Messages the URL is a path the extension may
// not read (openradar 16668), from the screenshot editor the item is an image object, not a URL
// (react-native-share-extension#47), and from Safari there is no image: each completes having saved nothing.
class ShareViewController: SLComposeServiceViewController {
    static let appGroup = "group.org.opensharing.compatibility"

    override func isContentValid() -> Bool {
        true
    }

    override func didSelectPost() {
        let item = extensionContext?.inputItems.first as? NSExtensionItem
        guard let provider = item?.attachments?.first(where: { $0.hasItemConformingToTypeIdentifier("public.image") }) else {
            extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
            return
        }
        provider.loadItem(forTypeIdentifier: "public.image", options: nil) { [weak self] item, error in
            if let url = item as? URL,
               let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: ShareViewController.appGroup) {
                try? FileManager.default.copyItem(at: url, to: container.appendingPathComponent(url.lastPathComponent))
            }
            self?.extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
        }
    }

    override func configurationItems() -> [Any]! {
        []
    }
}
