public import Foundation
public import OpenItemProvider
import Thumbnails

/// An image from encoded data: its size in points (one pixel each), upright, and its encodings. It keeps the
/// encoded bytes and decodes them when its pixels are first needed, as UIKit's does.
///
/// Stands in for UIKit's `UIImage`. It is an item-provider object as Apple's is: hosts share images as
/// `UIImage` objects (the screenshot editor does), and `loadObject(ofClass: UIImage.self)` reads one.
public final class UIImage: NSObject, NSSecureCoding, @unchecked Sendable {
    private let encoded: Data
    private let header: ImageHeader

    /// Reads `data` as any image format OpenSharing reads; `nil` if it is not one.
    ///
    /// Stands in for `UIImage.init?(data:)`.
    public init?(data: Data) {
        guard let header = try? Thumbnailer.header(of: data) else { return nil }
        self.encoded = data
        self.header = header
    }

    /// Stands in for `UIImage.size`.
    public var size: CGSize {
        let upright = header.orientedSize
        return CGSize(width: upright.width, height: upright.height)
    }

    /// Stands in for `UIImage.jpegData(compressionQuality:)`.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        encoded(as: .jpeg(quality: Int((compressionQuality * 100).rounded())))
    }

    /// Stands in for `UIImage.pngData()`.
    public func pngData() -> Data? { encoded(as: .png) }

    /// The whole image decoded, then encoded anew.
    private func encoded(as encoding: Thumbnail.Encoding) -> Data? {
        guard let image = try? Thumbnailer(maxPixelSize: max(header.width, header.height), memoryBudget: 1 << 30).thumbnail(of: encoded)
        else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("uiimage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? image.write(to: file, as: encoding)) != nil else { return nil }
        return try? Data(contentsOf: file)
    }

    // MARK: Secure coding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(encoded as NSData, forKey: "UIImageData")
    }

    public convenience init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: "UIImageData") else { return nil }
        self.init(data: data as Data)
    }
}

extension UIImage: NSItemProviderWriting {
    /// An image writes itself as PNG, as UIKit's does.
    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.png"] }

    public func loadData(withTypeIdentifier typeIdentifier: String,
                         forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress? {
        // Bytes that are already PNG go as they are.
        if header.format == .png {
            completionHandler(encoded, nil)
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
