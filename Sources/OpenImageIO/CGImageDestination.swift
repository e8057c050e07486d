public import Foundation
public import OpenCoreFoundation
import PackageSupport
import Thumbnails

/// An image file to write, to a URL or into data: JPEG or PNG (those this writes; HEIC and WebP
/// destinations are not made, as on devices without their encoders), written when finalized.
///
/// Stands in for ImageIO's `CGImageDestination`.
// @unchecked: used from one thread at a time, as ImageIO documents its destinations; its CFMutableData target Swift cannot check.
public final class CGImageDestination: @unchecked Sendable {
    fileprivate enum Target {
        case file(URL)
        case data(CFMutableData)
    }

    private struct Pending {
        var image: CGImage
        var orientation: ImageOrientation
        var quality: Double?
        var maxPixelSize: Int?
    }

    private struct State {
        var images: [Pending] = []
        var properties = ImageOptions(nil)
        var finalized = false
    }

    private let target: Target
    private let encoding: (Double?) -> Thumbnail.Encoding
    private let count: Int
    private let state = Locked(State())

    fileprivate init?(_ target: Target, type: CFString, count: Int) {
        switch type as String {
        case "public.jpeg": encoding = { .jpeg(quality: Int((($0 ?? 0.75) * 100).rounded())) }
        case "public.png": encoding = { _ in .png }
        default: return nil
        }
        guard count >= 1 else { return nil }
        self.target = target
        self.count = count
    }

    fileprivate func add(_ image: CGImage, orientation: ImageOrientation?, properties: ImageOptions) {
        state.withLock { state in
            // Past its count, or once written, an image is not added (ImageIO logs an error).
            guard !state.finalized, state.images.count < count else { return }
            let given = properties.number(kCGImageDestinationOrientation) ?? properties.number(kCGImagePropertyOrientation)
            state.images.append(Pending(
                image: image,
                orientation: given.flatMap { ImageOrientation(rawValue: Int($0)) } ?? orientation ?? .up,
                quality: properties.number(kCGImageDestinationLossyCompressionQuality) ?? state.properties.number(kCGImageDestinationLossyCompressionQuality),
                maxPixelSize: (properties.number(kCGImageDestinationImageMaxPixelSize) ?? state.properties.number(kCGImageDestinationImageMaxPixelSize)).map { Int($0) }))
        }
    }

    fileprivate func setProperties(_ properties: ImageOptions) {
        state.withLock { $0.properties = properties }
    }

    /// Writes the first image (JPEG and PNG hold one); `false` when there is none, it was written already, or
    /// writing failed.
    fileprivate func finalize() -> Bool {
        guard let first = state.withLock({ state -> Pending? in
            guard !state.finalized else { return nil }
            state.finalized = true
            return state.images.first
        }) else { return false }
        var pixels = first.image.thumbnail
        if let maximum = first.maxPixelSize, maximum >= 1 { pixels = pixels.resized(maxPixelSize: maximum) }
        let quality = first.quality.map { min(1, max(0, $0)) }
        switch target {
        case .file(let url):
            return (try? pixels.write(to: url, as: encoding(quality), orientation: first.orientation)) != nil
        case .data(let data):
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("image-destination-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            guard (try? pixels.write(to: file, as: encoding(quality), orientation: first.orientation)) != nil,
                  let bytes = try? Data(contentsOf: file) else { return false }
            data.append(bytes)
            return true
        }
    }
}

/// A destination writing an image of `type` (`public.jpeg` or `public.png`) to the file at `url`; `nil` for
/// a type this does not write (`public.heic`, `org.webmproject.webp`: devices without those encoders give
/// `nil` too). `count` is the number of images; JPEG and PNG hold one. `options` is unused, as Apple's is.
///
/// Stands in for ImageIO's `CGImageDestinationCreateWithURL(_:_:_:_:)`.
public func CGImageDestinationCreateWithURL(_ url: CFURL, _ type: CFString, _ count: Int, _ options: CFDictionary?) -> CGImageDestination? {
    let file = url as URL
    guard file.isFileURL else { return nil }
    return CGImageDestination(.file(file), type: type, count: count)
}

/// A destination appending an image of `type` to `data` when finalized.
///
/// Stands in for ImageIO's `CGImageDestinationCreateWithData(_:_:_:_:)`.
public func CGImageDestinationCreateWithData(_ data: CFMutableData, _ type: CFString, _ count: Int, _ options: CFDictionary?) -> CGImageDestination? {
    CGImageDestination(.data(data), type: type, count: count)
}

/// Properties for every image: `kCGImageDestinationLossyCompressionQuality` (0.0 to 1.0) and
/// `kCGImageDestinationImageMaxPixelSize`.
///
/// Stands in for ImageIO's `CGImageDestinationSetProperties(_:_:)`.
public func CGImageDestinationSetProperties(_ idst: CGImageDestination, _ properties: CFDictionary?) {
    idst.setProperties(ImageOptions(properties))
}

/// Adds `image`, with `properties`: `kCGImageDestinationLossyCompressionQuality`,
/// `kCGImageDestinationImageMaxPixelSize`, and the orientation its metadata gives
/// (`kCGImagePropertyOrientation` or `kCGImageDestinationOrientation`). Past the count it is not added.
///
/// Stands in for ImageIO's `CGImageDestinationAddImage(_:_:_:)`.
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    idst.add(image, orientation: nil, properties: ImageOptions(properties))
}

/// Adds image `index` of `isrc`, decoded whole, with its orientation unless `properties` gives another.
/// Other metadata of the source (EXIF, GPS) is not written.
///
/// Stands in for ImageIO's `CGImageDestinationAddImageFromSource(_:_:_:_:)`.
public func CGImageDestinationAddImageFromSource(_ idst: CGImageDestination, _ isrc: CGImageSource, _ index: Int, _ properties: CFDictionary?) {
    guard let image = isrc.image(at: index, subsample: 1), case .success(let metadata) = isrc.metadata else { return }
    idst.add(image, orientation: metadata.header.orientation, properties: ImageOptions(properties))
}

/// Writes the file or the data; `false` when nothing was added, it was finalized already, or writing failed.
///
/// Stands in for ImageIO's `CGImageDestinationFinalize(_:)`.
@discardableResult
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool {
    idst.finalize()
}

/// The types destinations write. Stands in for ImageIO's `CGImageDestinationCopyTypeIdentifiers()`.
public func CGImageDestinationCopyTypeIdentifiers() -> CFArray {
    ["public.jpeg" as NSString, "public.png" as NSString] as NSArray
}
