public import Foundation
public import ShareInbox
public import SharingShim
import Thumbnails

/// Previews made by `Thumbnails`: one JPEG per size, `preview-SIZE.jpg`, upright, never larger than the image.
public struct ThumbnailPreviews: PreviewMaking {
    public init() {}

    /// Decoding works a band of rows at a time within its budget; the largest preview, kept whole to be
    /// turned upright, is most of the rest.
    public func memoryNeeded(for type: UTType, sizes: [Int]) -> Int {
        let largest = sizes.max() ?? 0
        return (4 << 20) + largest * largest * 4 * 2
    }

    public func makePreviews(of file: URL, type: UTType, sizes: [Int], into directory: URL, memoryBudget: Int) throws -> [InboxManifest.Preview] {
        // One decode, at the largest size; the smaller previews are made from it.
        let sizes = Set(sizes).sorted()
        guard let largest = sizes.last else { return [] }
        let decoded = try Thumbnailer(maxPixelSize: largest, memoryBudget: memoryBudget).thumbnail(of: file)
        return try sizes.map { size in
            let thumbnail = decoded.resized(maxPixelSize: size)
            let name = "preview-\(size).jpg"
            try thumbnail.write(to: directory.appendingPathComponent(name), as: .jpeg(quality: 85))
            return InboxManifest.Preview(name: name, width: thumbnail.width, height: thumbnail.height)
        }
    }
}
