// A share sheet built in code, as a new extension's author writes one: a preview of the shared photo, Cancel,
// and Post, which is enabled once the photo is downsampled for upload. The downsample is ImageIO's thumbnail
// made on a queue of the sheet's own (Apple's "Image and Graphics Best Practices", WWDC 2018 session 219:
// downsample with CGImageSourceCreateThumbnailAtIndex, off the main thread, on a serial queue), which on a
// camera's 48 MP photo takes a second or two. Post saves the JPEG into the app group's Uploads folder and
// completes. The Info.plist key `EnablesPost` false makes the sheet that never enables Post (a bug a person
// meets as a sheet that cannot be posted).
import SharingShim

final class ShareViewController: UIViewController {
    private let postButton = UIButton(type: .system)
    private let cancelButton = UIButton(type: .system)
    private let preview = UIImageView()
    private var upload: Data?
    /// The downsamples run here, one at a time, off the main thread.
    private nonisolated static let downsampling = DispatchQueue(label: "downsampling")

    override func viewDidLoad() {
        super.viewDidLoad()
        postButton.setTitle("Post", for: .normal)
        postButton.isEnabled = false
        postButton.addAction(UIAction { [weak self] _ in self?.post() }, for: .touchUpInside)
        cancelButton.setTitle("Cancel", for: .normal)
        cancelButton.addAction(UIAction { [weak self] _ in
            self?.extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
        }, for: .touchUpInside)
        let stack = UIStackView(arrangedSubviews: [preview, cancelButton, postButton])
        stack.axis = .vertical
        view.addSubview(stack)

        let providers = (extensionContext?.inputItems ?? []).compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        guard let photo = providers.first(where: { $0.hasItemConformingToTypeIdentifier(UTType.image.identifier) }) else { return }
        let enablesPost = Bundle.main.object(forInfoDictionaryKey: "EnablesPost") as? Bool ?? true
        photo.loadDataRepresentation(forTypeIdentifier: UTType.image.identifier) { [weak self] data, _ in
            guard let data else { return }
            Self.downsampling.async {
                let resized = Self.downsampled(data, longestSide: 2000)
                DispatchQueue.main.async {
                    guard let self, let resized else { return }
                    let image = UIImage(cgImage: resized)
                    self.upload = image.jpegData(compressionQuality: 0.8)
                    self.preview.image = image
                    self.postButton.isEnabled = enablesPost && self.upload != nil
                }
            }
        }
    }

    /// The photo in `data`, no longer than `longestSide` pixels, turned upright: never decoded whole.
    private nonisolated static func downsampled(_ data: Data, longestSide: Int) -> CGImage? {
        guard let source = CGImageSourceCreateWithData(data as CFData, [kCGImageSourceShouldCache: false] as CFDictionary) else { return nil }
        let options = [
            kCGImageSourceCreateThumbnailFromImageAlways: true,
            kCGImageSourceCreateThumbnailWithTransform: true,
            kCGImageSourceShouldCacheImmediately: true,
            kCGImageSourceThumbnailMaxPixelSize: longestSide,
        ] as CFDictionary
        return CGImageSourceCreateThumbnailAtIndex(source, 0, options)
    }

    private func post() {
        guard let upload else { return }
        if let uploads = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.org.opensharing.examples")?
            .appendingPathComponent("Uploads") {
            try? FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
            try? upload.write(to: uploads.appendingPathComponent("photo.jpg"))
        }
        extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
    }
}
