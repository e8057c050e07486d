public import Foundation
import Thumbnails

/// An image decoded from data: its size in points (one pixel each), upright, and its encodings.
///
/// Stands in for UIKit's `UIImage`.
public final class UIImage: NSObject, @unchecked Sendable {
    private let image: Thumbnail

    /// Decodes `data` as any image format OpenSharing reads; `nil` if it is not one.
    ///
    /// Stands in for `UIImage.init?(data:)`.
    public init?(data: Data) {
        guard let header = try? Thumbnailer.header(of: data),
              let image = try? Thumbnailer(maxPixelSize: max(header.width, header.height), memoryBudget: 120 << 20).thumbnail(of: data)
        else { return nil }
        self.image = image
    }

    /// Stands in for `UIImage.size`.
    public var size: CGSize { CGSize(width: image.width, height: image.height) }

    /// Stands in for `UIImage.jpegData(compressionQuality:)`.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        encoded(as: .jpeg(quality: Int((compressionQuality * 100).rounded())))
    }

    /// Stands in for `UIImage.pngData()`.
    public func pngData() -> Data? { encoded(as: .png) }

    private func encoded(as encoding: Thumbnail.Encoding) -> Data? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("uiimage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? image.write(to: file, as: encoding)) != nil else { return nil }
        return try? Data(contentsOf: file)
    }
}
