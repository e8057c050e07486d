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

    // What a new user adds next, as Xcode's template invites: a row under the text (the template's
    // initializer is imported implicitly unwrapped, so the row is unwrapped with `!`), and the sheet's colours and
    // labels set in code.
    override func configurationItems() -> [Any]! {
        let album = SLComposeSheetConfigurationItem()!
        album.title = "Album"
        album.value = "Camera Roll"
        album.tapHandler = {}
        return [album]
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        textView.backgroundColor = UIColor.lightGray
        textView.accessibilityLabel = "Caption"
        textView.accessibilityTraits = .staticText
    }
}

// The image helper of Mattermost's share extension, as issue 39 describes it: a downsampling through ImageIO whose
// scale defaults to the screen's, read from a nonisolated function's default argument. Apple's UIKit is imported
// with Objective-C's looser checking, so in Swift 5 mode this compiles; so it must here.
func downsample(imageAt url: URL, to pointSize: CGSize, scale: CGFloat = UIScreen.main.scale) -> UIImage? {
    let options = [kCGImageSourceShouldCache: false] as CFDictionary
    guard let source = CGImageSourceCreateWithURL(url as CFURL, options) else { return nil }
    let largest = max(pointSize.width, pointSize.height) * scale
    let thumbnail = [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceShouldCacheImmediately: true,
                     kCGImageSourceCreateThumbnailWithTransform: true, kCGImageSourceThumbnailMaxPixelSize: largest] as CFDictionary
    guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, thumbnail) else { return nil }
    return UIImage(cgImage: image)
}
