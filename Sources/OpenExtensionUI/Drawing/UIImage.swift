public import Foundation
public import OpenImageIO
public import OpenItemProvider
import OpenCoreFoundation
import Thumbnails

/// An image: encoded bytes kept as they came and decoded whole the first time its pixels are needed (drawn,
/// re-encoded, or its `cgImage` read), then kept decoded, as UIKit's are; or a `CGImage` already decoded.
/// Decoded, it costs width × height × 4 bytes, whatever size it is drawn at: the memory that ends share
/// extensions on devices. `preparingThumbnail(of:)` never decodes the whole image.
///
/// Stands in for UIKit's `UIImage`. It is an item-provider object as Apple's is: hosts share images as
/// `UIImage` objects (the screenshot editor does), and `loadObject(ofClass: UIImage.self)` reads one.
// @unchecked: UIKit's UIImage is immutable and Sendable in Apple's SDK; its one cache of decoded pixels is under a lock.
public final class UIImage: NSObject, NSSecureCoding, @unchecked Sendable {
    /// How stored pixels are turned to be seen upright, with UIKit's raw values (not EXIF's).
    ///
    /// Stands in for `UIImage.Orientation`.
    public enum Orientation: Int, Sendable {
        case up = 0, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    private enum Content {
        /// An encoded image: its bytes (mapped, for a file), its header, and the file it can be decoded from.
        case encoded(Data, ImageHeader, file: URL?)
        case decoded(CGImage)
    }

    private let content: Content
    /// The whole image, decoded, once it has been: shared with the copies made from it (`withRenderingMode(_:)`),
    /// as UIKit's share their bitmap.
    private let decoded: DecodedImage

    /// Stands in for `UIImage.scale`.
    public let scale: CGFloat
    /// Stands in for `UIImage.imageOrientation`.
    public let imageOrientation: Orientation
    /// Whether the image is a system symbol's (`init(systemName:)`). Stands in for `UIImage.isSymbolImage`.
    public internal(set) var isSymbolImage = false
    /// How the image is drawn: its own colours, or as a template tinted with a view's tint colour. Stands in
    /// for `UIImage.renderingMode`.
    public private(set) var renderingMode = RenderingMode.automatic

    /// Reads `data` as an image (JPEG, PNG, GIF, WebP, HEIF, TIFF, BMP), turned as its metadata says; `nil` when
    /// it is none. Nothing is decoded yet.
    ///
    /// Stands in for `UIImage.init?(data:)`.
    public convenience init?(data: Data) {
        self.init(data: data, scale: 1)
    }

    /// Stands in for `UIImage.init?(data:scale:)`.
    public init?(data: Data, scale: CGFloat) {
        guard let header = try? Thumbnailer.header(of: data) else { return nil }
        content = .encoded(data, header, file: nil)
        decoded = DecodedImage()
        self.scale = max(scale, 1)
        imageOrientation = Orientation(header.orientation)
    }

    /// Reads the image file at `path`, mapped rather than read (it costs no memory until decoded); a name
    /// ending in `@2x` or `@3x` gives the scale.
    ///
    /// Stands in for `UIImage.init?(contentsOfFile:)`.
    public init?(contentsOfFile path: String) {
        let file = URL(fileURLWithPath: path)
        guard let data = try? Data(contentsOf: file, options: .alwaysMapped), let header = try? Thumbnailer.header(of: data) else { return nil }
        content = .encoded(data, header, file: file)
        decoded = DecodedImage()
        let stem = file.deletingPathExtension().lastPathComponent
        scale = stem.hasSuffix("@3x") ? 3 : stem.hasSuffix("@2x") ? 2 : 1
        imageOrientation = Orientation(header.orientation)
    }

    /// The image named `name` among the running program's resources (beside it in its bundle): `name`, or
    /// `name.png`, at the screen's scale first (`name@3x.png`, `name@2x.png`), then other image extensions,
    /// then an asset catalog's image set of that name.
    ///
    /// Stands in for `UIImage.init?(named:)`.
    public convenience init?(named name: String) {
        guard let path = Self.resource(named: name, in: Bundle.main) else { return nil }
        self.init(contentsOfFile: path.path)
    }

    /// Stands in for `UIImage.init(cgImage:)`.
    public convenience init(cgImage: CGImage) {
        self.init(cgImage: cgImage, scale: 1, orientation: .up)
    }

    /// Stands in for `UIImage.init(cgImage:scale:orientation:)`.
    public init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        content = .decoded(cgImage)
        decoded = DecodedImage()
        self.scale = scale > 0 ? scale : 1
        imageOrientation = orientation
    }

    /// `image` drawn as `renderingMode` says: the same content, decoded once for both.
    private init(_ image: UIImage, renderingMode: RenderingMode) {
        content = image.content
        decoded = image.decoded
        scale = image.scale
        imageOrientation = image.imageOrientation
        isSymbolImage = image.isSymbolImage
        self.renderingMode = renderingMode
    }

    /// This image, drawn as `renderingMode` says. Stands in for `UIImage.withRenderingMode(_:)`.
    public func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage {
        renderingMode == self.renderingMode ? self : UIImage(self, renderingMode: renderingMode)
    }

    /// How an image is drawn. Stands in for UIKit's `UIImage.RenderingMode`.
    public enum RenderingMode: Int, Sendable {
        /// As its context decides: a template in a bar or a button, its own colours elsewhere.
        case automatic = 0
        case alwaysOriginal = 1
        case alwaysTemplate = 2
    }

    /// The stored size in pixels, before the orientation is applied.
    private var pixelSize: (width: Int, height: Int) {
        switch content {
        case .encoded(_, let header, _): (header.width, header.height)
        case .decoded(let image): (image.width, image.height)
        }
    }

    /// The size in points: the upright pixel size over the scale. Stands in for `UIImage.size`.
    public var size: CGSize {
        let (width, height) = pixelSize
        let upright = ImageOrientation(imageOrientation).swapsAxes ? (height, width) : (width, height)
        return CGSize(width: CGFloat(upright.0) / scale, height: CGFloat(upright.1) / scale)
    }

    /// The pixels, as stored (not turned), decoded whole the first time and then kept.
    ///
    /// Stands in for `UIImage.cgImage`.
    public var cgImage: CGImage? {
        switch content {
        case .decoded(let image):
            return image
        case .encoded(let data, _, let file):
            return decoded.image {
                let source = file.flatMap { CGImageSourceCreateWithURL($0 as NSURL, nil) } ?? CGImageSourceCreateWithData(data as NSData, nil)
                return source.flatMap { CGImageSourceCreateImageAtIndex($0, 0, [kCGImageSourceShouldCache: false] as NSDictionary) }
            }
        }
    }

    /// The image as JPEG, its pixels as stored and its orientation in EXIF, as UIKit writes it: the image is
    /// decoded whole first. Stands in for `UIImage.jpegData(compressionQuality:)`.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        encoded(as: "public.jpeg", [kCGImageDestinationLossyCompressionQuality: Double(compressionQuality),
                                   kCGImagePropertyOrientation: ImageOrientation(imageOrientation).rawValue])
    }

    /// The image as PNG, its pixels as stored: PNG written this way keeps no orientation, so that a turned
    /// photo comes out turned, as from UIKit (see docs/images.md). The image is decoded whole first.
    ///
    /// Stands in for `UIImage.pngData()`.
    public func pngData() -> Data? {
        encoded(as: "public.png", [:])
    }

    private func encoded(as type: String, _ properties: [CFString: Any]) -> Data? {
        guard let image = cgImage else { return nil }
        let data = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(data, type as NSString, 1, nil) else { return nil }
        CGImageDestinationAddImage(destination, image, properties as NSDictionary)
        return CGImageDestinationFinalize(destination) ? data as Data : nil
    }

    /// A thumbnail of exactly `size` pixels (the image stretched to it, upright), made without decoding the
    /// whole image when it is still encoded; `nil` when the size is empty or the image does not decode.
    ///
    /// Stands in for `UIImage.preparingThumbnail(of:)`.
    public func preparingThumbnail(of size: CGSize) -> UIImage? {
        let (width, height) = (Int(size.width.rounded()), Int(size.height.rounded()))
        guard width >= 1, height >= 1 else { return nil }
        let orientation = ImageOrientation(imageOrientation)
        let reduced: Thumbnail
        switch content {
        case .decoded(let image):
            reduced = image.thumbnail
        case .encoded(let data, let header, let file):
            if let image = decoded.current {
                reduced = image.thumbnail
            } else {
                // Decoded only as large as the thumbnail needs, a band at a time.
                let upright = header.orientedSize
                let factor = max(Double(width) / Double(upright.width), Double(height) / Double(upright.height))
                let longer = Int((Double(max(header.width, header.height)) * factor).rounded(.up))
                let thumbnailer = Thumbnailer(maxPixelSize: max(1, longer), appliesOrientation: false, usesEmbeddedThumbnail: false)
                guard let made = try? (file.map { try thumbnailer.thumbnail(of: $0) } ?? thumbnailer.thumbnail(of: data)) else { return nil }
                reduced = made
            }
        }
        let thumbnail = CGContext.resample(reduced, orientation: orientation, width: width, height: height)
        let hasAlpha = cgImageHasAlpha
        return UIImage(cgImage: CGImage(consume thumbnail, hasAlpha: hasAlpha), scale: 1, orientation: .up)
    }

    /// Stands in for `UIImage.byPreparingThumbnail(ofSize:)`.
    public func byPreparingThumbnail(ofSize size: CGSize) async -> UIImage? {
        preparingThumbnail(of: size)
    }

    private var cgImageHasAlpha: Bool {
        switch content {
        case .encoded(_, let header, _): header.hasAlpha
        case .decoded(let image): image.alphaInfo == .last || image.alphaInfo == .premultipliedLast
        }
    }

    /// Draws the image, upright, into `rect` of the current image context (`UIGraphicsImageRenderer`'s, or
    /// `UIGraphicsBeginImageContextWithOptions`'s): it is decoded whole first. Nothing happens without a context.
    ///
    /// Stands in for `UIImage.draw(in:)`.
    public func draw(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext(), let image = cgImage else { return }
        context.draw(image, orientation: ImageOrientation(imageOrientation), in: rect, upright: true)
    }

    /// Draws the image at its size with its top left at `point`. Stands in for `UIImage.draw(at:)`.
    public func draw(at point: CGPoint) {
        draw(in: CGRect(origin: point, size: size))
    }

    /// A resource's file in `bundle`, as `UIImage(named:)` looks for it.
    static func resource(named name: String, in bundle: Bundle) -> URL? {
        let directory = bundle.resourceURL ?? bundle.bundleURL
        let given = URL(fileURLWithPath: name)
        let stem = given.pathExtension.isEmpty ? name : given.deletingPathExtension().lastPathComponent
        let extensions = given.pathExtension.isEmpty ? ["png", "jpg", "jpeg", "heic", "gif", "webp", "tiff", "bmp"] : [given.pathExtension]
        let screen = Int(UIScreen.environmentScale)
        let suffixes = ["@\(screen)x", "", "@3x", "@2x"]
        for suffix in suffixes {
            for pathExtension in extensions {
                let candidate = directory.appendingPathComponent(stem + suffix).appendingPathExtension(pathExtension)
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            }
        }
        return AssetCatalog.image(named: stem, in: directory, scale: screen)
    }

    // MARK: Secure coding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode((encodedBytes ?? pngData() ?? Data()) as NSData, forKey: "UIImageData")
    }

    public convenience init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: "UIImageData") else { return nil }
        self.init(data: data as Data)
    }

    /// The bytes the image was made from, if it was made from encoded bytes.
    private var encodedBytes: Data? {
        guard case .encoded(let data, _, _) = content else { return nil }
        return data
    }

    private var encodedFormat: ImageHeader.Format? {
        guard case .encoded(_, let header, _) = content else { return nil }
        return header.format
    }
}

/// The decoded image a `UIImage` keeps once its pixels were needed.
// @unchecked: its mutable state is only touched under its lock.
private final class DecodedImage: @unchecked Sendable {
    private let lock = NSLock()
    private var image: CGImage?

    var current: CGImage? {
        lock.withLock { image }
    }

    func image(_ decode: () -> CGImage?) -> CGImage? {
        lock.withLock {
            if image == nil { image = decode() }
            return image
        }
    }
}

/// An asset catalog as it is in a source tree (`Assets.xcassets/NAME.imageset/Contents.json`): Xcode compiles
/// it into `Assets.car`, which is Apple's own format; a bundle made by OpenSharing's plugin keeps the folders.
enum AssetCatalog {
    private struct Contents: Decodable {
        struct Image: Decodable {
            var filename: String?
            var scale: String?
        }
        var images: [Image]
    }

    /// The image set `name`'s file for `scale` (else the largest), in any catalog in `directory`.
    static func image(named name: String, in directory: URL, scale: Int) -> URL? {
        let catalogs = ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "xcassets" }
        for catalog in catalogs {
            let set = catalog.appendingPathComponent("\(name).imageset")
            guard let data = try? Data(contentsOf: set.appendingPathComponent("Contents.json")),
                  let contents = try? JSONDecoder().decode(Contents.self, from: data) else { continue }
            let files = contents.images.compactMap { image in image.filename.map { (file: $0, scale: Int(image.scale?.dropLast() ?? "1") ?? 1) } }
            if let chosen = files.first(where: { $0.scale == scale }) ?? files.max(by: { $0.scale < $1.scale }) {
                return set.appendingPathComponent(chosen.file)
            }
        }
        return nil
    }
}

extension UIImage.Orientation {
    /// UIKit's orientation for EXIF's.
    init(_ orientation: ImageOrientation) {
        switch orientation {
        case .up: self = .up
        case .upMirrored: self = .upMirrored
        case .down: self = .down
        case .downMirrored: self = .downMirrored
        case .leftMirrored: self = .leftMirrored
        case .right: self = .right
        case .rightMirrored: self = .rightMirrored
        case .left: self = .left
        }
    }
}

extension ImageOrientation {
    /// EXIF's orientation for UIKit's.
    init(_ orientation: UIImage.Orientation) {
        switch orientation {
        case .up: self = .up
        case .upMirrored: self = .upMirrored
        case .down: self = .down
        case .downMirrored: self = .downMirrored
        case .leftMirrored: self = .leftMirrored
        case .right: self = .right
        case .rightMirrored: self = .rightMirrored
        case .left: self = .left
        }
    }
}

extension UIImage: NSItemProviderWriting {
    /// An image writes itself as PNG, as UIKit's does.
    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.png"] }

    public func loadData(withTypeIdentifier typeIdentifier: String,
                         forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress? {
        // Bytes that are already PNG go as they are.
        if encodedFormat == .png, let bytes = encodedBytes {
            completionHandler(bytes, nil)
        } else if let png = pngData() {
            completionHandler(png, nil)
        } else {
            completionHandler(nil, NSError(domain: NSItemProviderErrorDomain, code: NSItemProvider.ErrorCode.unknownError.rawValue,
                                           userInfo: [NSLocalizedDescriptionKey: "The image cannot be encoded as \(typeIdentifier)."]))
        }
        return nil
    }
}

extension UIImage: NSItemProviderReading {
    /// The image formats it reads.
    public static var readableTypeIdentifiersForItemProvider: [String] {
        ["public.png", "public.jpeg", "public.heic", "public.heif", "com.compuserve.gif", "public.tiff", "com.microsoft.bmp", "org.webmproject.webp", "public.image"]
    }

    public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> UIImage {
        guard let image = UIImage(data: data) else {
            throw NSError(domain: NSItemProviderErrorDomain, code: NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue,
                          userInfo: [NSLocalizedDescriptionKey: "The \(typeIdentifier) data is not an image this reads."])
        }
        return image
    }
}
