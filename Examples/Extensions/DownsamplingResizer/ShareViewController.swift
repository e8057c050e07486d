// A share extension on the system's compose sheet that resizes the photo it is given to 2,000 points for
// upload, through ImageIO's thumbnail: the photo is never decoded whole
// (PhotoResizing). Post saves the JPEG it would upload into the app group's Uploads folder, then completes.
import PhotoResizing
import SharingShim

final class ShareViewController: SLComposeServiceViewController {
    private var photo: NSItemProvider?

    override func viewDidLoad() {
        super.viewDidLoad()
        placeholder = "Say something about the photo"
        let providers = extensionContext?.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        photo = providers?.first { $0.hasItemConformingToTypeIdentifier(UTType.image.identifier) }
    }

    override func isContentValid() -> Bool {
        photo != nil
    }

    override func didSelectPost() {
        guard let photo else { return }
        _ = photo.loadFileRepresentation(forTypeIdentifier: UTType.image.identifier) { [extensionContext] url, error in
            guard let url, let resized = PhotoResizing.downsampled(photoAt: url, longestSide: 2000) else {
                extensionContext?.cancelRequest(withError: error ?? NSError(domain: NSCocoaErrorDomain, code: NSFileReadCorruptFileError))
                return
            }
            let uploads = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.org.opensharing.examples")?
                .appendingPathComponent("Uploads")
            if let uploads {
                try? FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
                try? resized.write(to: uploads.appendingPathComponent("resized.jpg"))
            }
            extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
        }
    }
}
