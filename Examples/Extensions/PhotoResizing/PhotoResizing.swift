// Resizing a shared photo for upload, the two ways share extensions do it, and a preview maker: code as it is
// written for iOS, importing only SharingShim.
//
// The situation (blog.kulman.sk/dealing-with-memory-limits-in-app-extensions, nutrient.io/blog/
// image-loading-and-cropping-on-ios): a share extension that resized the photo it was given through UIImage
// was killed on devices at its 120 MB limit with large photos; decoding a photo of 48 megapixels whole takes
// some 190 MB. The fix in both was ImageIO's downsample, which never decodes the whole photo.
public import SharingShim

public enum PhotoResizing {
    /// The photo at `url` as a JPEG no longer than `longestSide` points, the naive way: the whole photo is
    /// decoded to be drawn into a renderer, which draws at the screen's scale (a scale-3 phone's renderer is 9
    /// times the pixels of its size), as `UIImage` and `UIGraphicsImageRenderer` do on a device.
    public static func naivelyResized(photoAt url: URL, longestSide: CGFloat) -> Data? {
        guard let photo = UIImage(contentsOfFile: url.path) else { return nil }
        let ratio = min(1, longestSide / max(photo.size.width, photo.size.height))
        let size = CGSize(width: (photo.size.width * ratio).rounded(), height: (photo.size.height * ratio).rounded())
        let resized = UIGraphicsImageRenderer(size: size).image { _ in
            photo.draw(in: CGRect(origin: .zero, size: size))
        }
        return resized.jpegData(compressionQuality: 0.8)
    }

    /// The same, ImageIO's way: a thumbnail made a band at a time, turned upright, written straight to JPEG.
    public static func downsampled(photoAt url: URL, longestSide: CGFloat) -> Data? {
        guard let source = CGImageSourceCreateWithURL(url as CFURL, [kCGImageSourceShouldCache: false] as CFDictionary) else { return nil }
        let options = [
            kCGImageSourceCreateThumbnailFromImageAlways: true,
            kCGImageSourceCreateThumbnailWithTransform: true,
            kCGImageSourceShouldCacheImmediately: true,
            kCGImageSourceThumbnailMaxPixelSize: longestSide,
        ] as CFDictionary
        guard let thumbnail = CGImageSourceCreateThumbnailAtIndex(source, 0, options) else { return nil }
        return UIImage(cgImage: thumbnail).jpegData(compressionQuality: 0.8)
    }

    /// A square-bounded preview, as a custom share sheet shows one per attachment: ImageIO's thumbnail, into
    /// a `UIImage`, as PNG.
    public static func preview(ofPhotoAt url: URL, side: Int = 300) -> UIImage? {
        guard let source = CGImageSourceCreateWithURL(url as CFURL, nil) else { return nil }
        let options: [CFString: Any] = [
            kCGImageSourceCreateThumbnailFromImageIfAbsent: true,
            kCGImageSourceCreateThumbnailWithTransform: true,
            kCGImageSourceThumbnailMaxPixelSize: side,
        ]
        return CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary).map { UIImage(cgImage: $0) }
    }
}

/// A share extension on the system's compose sheet that resizes the photo it is given for upload: Post saves
/// the JPEG it would upload into the app group's Uploads folder, then completes. Subclasses choose the way
/// (`resized(photoAt:)`).
open class PhotoUploadViewController: SLComposeServiceViewController {
    private var photo: NSItemProvider?

    /// The photo at `url` resized for upload, as a JPEG; called on the thread the load answers on.
    nonisolated open func resized(photoAt url: URL) -> Data? {
        nil
    }

    override open func viewDidLoad() {
        super.viewDidLoad()
        placeholder = "Say something about the photo"
        let providers = extensionContext?.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments }.joined()
        photo = providers?.first { $0.hasItemConformingToTypeIdentifier(UTType.image.identifier) }
    }

    override open func isContentValid() -> Bool {
        photo != nil
    }

    override open func didSelectPost() {
        guard let photo else { return }
        _ = photo.loadFileRepresentation(forTypeIdentifier: UTType.image.identifier) { [self, extensionContext] url, error in
            guard let url, let resized = resized(photoAt: url) else {
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
