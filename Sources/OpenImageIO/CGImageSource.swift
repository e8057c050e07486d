public import Foundation
public import OpenCoreFoundation
import PackageSupport
import SharingSystem
import Thumbnails

/// An image file to read: its type, its images' properties, the images decoded whole, and thumbnails made a
/// band at a time (`Thumbnails`). Made from a URL or from data; data is kept, and decoded from a temporary
/// copy on disk, as the decoders read files.
///
/// Stands in for ImageIO's `CGImageSource`.
// @unchecked: ImageIO's image sources are thread-safe; its state is immutable once made, but for what it caches under a lock.
public final class CGImageSource: @unchecked Sendable {
    /// The file the images are read from.
    let file: URL
    /// The temporary copy made of data, removed with the source.
    private let temporary: URL?
    /// What the header says, or why it does not read.
    let metadata: Result<ImageMetadata, ThumbnailError>
    /// The file's size in bytes.
    let fileSize: Int
    /// Whether decoded images are kept (`kCGImageSourceShouldCache`, true by default).
    private let caches: Bool
    private let cache = Locked<[Int: CGImage]>([:])

    init(file: URL, temporary: URL?, options: ImageOptions) {
        self.file = file
        self.temporary = temporary
        metadata = Result { () throws(ThumbnailError) in try Thumbnailer.metadata(of: file) }
        fileSize = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        caches = options.flag(kCGImageSourceShouldCache, otherwise: true)
    }

    deinit {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    /// The type identifier of the file's format, as ImageIO names it.
    var typeIdentifier: String? {
        guard case .success(let metadata) = metadata else { return nil }
        return Self.typeIdentifiers[metadata.header.format]
    }

    static let typeIdentifiers: [ImageHeader.Format: String] = [
        .jpeg: "public.jpeg", .png: "public.png", .gif: "com.compuserve.gif", .webp: "org.webmproject.webp",
        .heif: "public.heic", .tiff: "public.tiff", .bmp: "com.microsoft.bmp",
    ]

    /// The decoded image at `index`, from the cache when kept.
    func image(at index: Int, subsample: Int) -> CGImage? {
        guard case .success(let metadata) = metadata, index == 0 else { return nil }
        if subsample == 1, let cached = cache.withLock({ $0[index] }) { return cached }
        let header = metadata.header
        let longer = max(header.width, header.height)
        // The whole image, as ImageIO decodes it: a budget of everything, and nothing held back.
        let decoder = Thumbnailer(maxPixelSize: max(1, longer / subsample), pixelLimit: .max, memoryBudget: .max / 4,
                                  appliesOrientation: false, usesEmbeddedThumbnail: false)
        guard let thumbnail = try? decoder.thumbnail(of: file) else { return nil }
        let image = CGImage(consume thumbnail, hasAlpha: header.hasAlpha, utType: typeIdentifier as CFString?)
        if caches && subsample == 1 { cache.withLock { $0[index] = image } }
        return image
    }
}

/// The state of an image source, with ImageIO's raw values. Stands in for ImageIO's `CGImageSourceStatus`.
public enum CGImageSourceStatus: Int32, Sendable {
    case statusUnexpectedEOF = -5
    case statusInvalidData = -4
    case statusUnknownType = -3
    case statusReadingHeader = -2
    case statusIncomplete = -1
    case statusComplete = 0
}

/// How the stored pixels are turned to be seen upright, with ImageIO's raw values (EXIF's).
///
/// Stands in for ImageIO's `CGImagePropertyOrientation`.
@frozen
public enum CGImagePropertyOrientation: UInt32, Sendable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left
}

/// An image source reading the file at `url`; `nil` when it is not a file that can be opened (missing, a
/// directory, unreadable). What the file holds is not checked here: a file that is not an image gives a
/// source with no images and status `.statusUnknownType`.
///
/// Stands in for ImageIO's `CGImageSourceCreateWithURL(_:_:)`.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    let file = url as URL
    guard file.isFileURL, (try? OpenFile.reading(file)) != nil else { return nil }
    return CGImageSource(file: file, temporary: nil, options: ImageOptions(options))
}

/// An image source reading `data`. The bytes are not checked: data that is no image gives a source with no
/// images and status `.statusUnknownType`, as Apple's does.
///
/// Stands in for ImageIO's `CGImageSourceCreateWithData(_:_:)`.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("image-source-\(UUID().uuidString)")
    guard (try? (data as Data).write(to: file, options: .withoutOverwriting)) != nil else { return nil }
    return CGImageSource(file: file, temporary: file, options: ImageOptions(options))
}

/// The type identifier of the source's format (`public.jpeg`, `public.heic` …); `nil` when it is none read here.
///
/// Stands in for ImageIO's `CGImageSourceGetType(_:)`.
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? {
    isrc.typeIdentifier as CFString?
}

/// How many images the source holds (frames of an animation, pages, images of a HEIF sequence), thumbnails
/// not counted; 0 when it reads as none.
///
/// Stands in for ImageIO's `CGImageSourceGetCount(_:)`.
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int {
    guard case .success(let metadata) = isrc.metadata else { return 0 }
    return metadata.header.frameCount
}

/// Whether the source reads: `.statusComplete`, `.statusUnknownType` for what is no image format read here,
/// `.statusUnexpectedEOF` for an image cut short before its header ends, `.statusInvalidData` for one whose
/// header contradicts itself.
///
/// Stands in for ImageIO's `CGImageSourceGetStatus(_:)`.
public func CGImageSourceGetStatus(_ isrc: CGImageSource) -> CGImageSourceStatus {
    switch isrc.metadata {
    case .success: .statusComplete
    case .failure(.unsupported): .statusUnknownType
    case .failure(.corrupt(let why)) where why.contains("ends before"): .statusUnexpectedEOF
    case .failure: .statusInvalidData
    }
}

/// The status of image `index`: the source's, for an image it has; `.statusInvalidData` past its images.
///
/// Stands in for ImageIO's `CGImageSourceGetStatusAtIndex(_:_:)`.
public func CGImageSourceGetStatusAtIndex(_ isrc: CGImageSource, _ index: Int) -> CGImageSourceStatus {
    let status = CGImageSourceGetStatus(isrc)
    guard status == .statusComplete else { return status }
    return index >= 0 && index < CGImageSourceGetCount(isrc) ? .statusComplete : .statusInvalidData
}

/// The primary image's index: 0 (HEIF's primary image is the one this reads).
///
/// Stands in for ImageIO's `CGImageSourceGetPrimaryImageIndex(_:)`.
public func CGImageSourceGetPrimaryImageIndex(_ isrc: CGImageSource) -> Int { 0 }

/// The properties of the file as a whole: its size, and GIF's loop count and screen.
///
/// Stands in for ImageIO's `CGImageSourceCopyProperties(_:_:)`.
public func CGImageSourceCopyProperties(_ isrc: CGImageSource, _ options: CFDictionary?) -> CFDictionary? {
    guard case .success(let metadata) = isrc.metadata else { return nil }
    return ImageProperties.container(metadata, fileSize: isrc.fileSize)
}

/// The properties of image `index`: its size, orientation, depth, color model, alpha, resolution, and the
/// `{Exif}`, `{TIFF}`, `{GPS}`, `{JFIF}`, `{PNG}` and `{GIF}` dictionaries as the file holds them; `nil` past
/// the source's images.
///
/// Stands in for ImageIO's `CGImageSourceCopyPropertiesAtIndex(_:_:_:)`.
public func CGImageSourceCopyPropertiesAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CFDictionary? {
    guard case .success(let metadata) = isrc.metadata, index >= 0, index < metadata.header.frameCount else { return nil }
    return ImageProperties.image(metadata)
}

/// Image `index` decoded whole: width × height × 4 bytes for color, as ImageIO's bitmap costs.
/// `kCGImageSourceSubsampleFactor` (2, 4 or 8) decodes it smaller; `kCGImageSourceShouldCache` false keeps it
/// out of the source. Only a file's first image decodes here; `nil` for the others.
///
/// Stands in for ImageIO's `CGImageSourceCreateImageAtIndex(_:_:_:)`.
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    let options = ImageOptions(options)
    let factor = Int(options.number(kCGImageSourceSubsampleFactor) ?? 1)
    return isrc.image(at: index, subsample: [2, 4, 8].contains(factor) ? factor : 1)
}

/// A thumbnail of image `index`, never decoding the whole image, as ImageIO makes one:
/// - with neither `kCGImageSourceCreateThumbnailFromImageIfAbsent` nor `…Always`, only a thumbnail the file
///   carries (EXIF's, HEIF's), or `nil`;
/// - with `…IfAbsent`, the one the file carries if any, as it is (not enlarged, however small), else one made
///   from the image; with `…Always`, one made from the image;
/// - no larger than `kCGImageSourceThumbnailMaxPixelSize` (an `Int`, `Double`, `CGFloat` or `NSNumber`), never
///   larger than the image; the image's size when it is not given;
/// - turned upright only with `kCGImageSourceCreateThumbnailWithTransform`.
///
/// Stands in for ImageIO's `CGImageSourceCreateThumbnailAtIndex(_:_:_:)`.
public func CGImageSourceCreateThumbnailAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    guard case .success(let metadata) = isrc.metadata, index == 0 else { return nil }
    let options = ImageOptions(options)
    let header = metadata.header
    let maximum = options.number(kCGImageSourceThumbnailMaxPixelSize).map { Int($0.rounded(.down)) } ?? max(header.width, header.height)
    guard maximum >= 1 else { return nil }
    let always = options.flag(kCGImageSourceCreateThumbnailFromImageAlways)
    let ifAbsent = options.flag(kCGImageSourceCreateThumbnailFromImageIfAbsent)
    let thumbnailer = Thumbnailer(maxPixelSize: maximum, pixelLimit: .max, memoryBudget: .max / 4,
                                  appliesOrientation: options.flag(kCGImageSourceCreateThumbnailWithTransform), usesEmbeddedThumbnail: false)
    let utType = isrc.typeIdentifier as CFString?
    if !always, let embedded = try? thumbnailer.embeddedThumbnail(of: isrc.file) {
        return CGImage(consume embedded, hasAlpha: false, utType: utType)
    }
    guard always || ifAbsent, let made = try? thumbnailer.thumbnail(of: isrc.file) else { return nil }
    return CGImage(consume made, hasAlpha: header.hasAlpha, utType: utType)
}

/// Drops the decoded image `index` the source keeps. Stands in for ImageIO's `CGImageSourceRemoveCacheAtIndex(_:_:)`.
public func CGImageSourceRemoveCacheAtIndex(_ isrc: CGImageSource, _ index: Int) {
    isrc.forget(index)
}

/// The types image sources read. Stands in for ImageIO's `CGImageSourceCopyTypeIdentifiers()`.
public func CGImageSourceCopyTypeIdentifiers() -> CFArray {
    CGImageSource.typeIdentifiers.values.sorted().map { $0 as NSString } as NSArray
}

extension CGImageSource {
    func forget(_ index: Int) {
        cache.withLock { _ = $0.removeValue(forKey: index) }
    }
}
