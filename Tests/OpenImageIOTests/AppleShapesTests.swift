// Code in the three shapes real extensions write ImageIO in (../shared/reference/apple/imageio.md, §1.6): each
// function below is written as it would be for iOS, with `import SharingShim` for `import ImageIO` and `import
// UIKit`. This file also imports CoreFoundation, as some do: Linux's toolchain has a module of that name whose
// CFString, CFDictionary and CFURL are other types, and SharingShim's must still be the ones meant.
import CoreFoundation
import Foundation
import SharingShim
import Testing

/// The downsampling shape of WWDC 2018 session 219: options as a literal `as CFDictionary`, a URL `as CFURL`, a
/// maximum in pixels as a `CGFloat`, the thumbnail straight into `UIImage(cgImage:)`.
private func downsampledImage(at url: URL, fitting size: CGSize, screenScale: CGFloat) -> UIImage? {
    let sourceOptions = [kCGImageSourceShouldCache: false] as CFDictionary
    guard let source = CGImageSourceCreateWithURL(url as CFURL, sourceOptions) else { return nil }
    let longestSide = max(size.width, size.height) * screenScale
    let thumbnailOptions = [
        kCGImageSourceCreateThumbnailFromImageAlways: true,
        kCGImageSourceShouldCacheImmediately: true,
        kCGImageSourceCreateThumbnailWithTransform: true,
        kCGImageSourceThumbnailMaxPixelSize: longestSide,
    ] as CFDictionary
    guard let thumbnail = CGImageSourceCreateThumbnailAtIndex(source, 0, thumbnailOptions) else { return nil }
    return UIImage(cgImage: thumbnail)
}

/// The properties shape of a share extension that sizes uploads: read as `NSDictionary`, keys as string literals.
private func pixelSizeFromLiterals(of data: Data) -> (Int, Int)? {
    guard let source = CGImageSourceCreateWithData(data as CFData, nil),
          let properties: NSDictionary = CGImageSourceCopyPropertiesAtIndex(source, 0, nil),
          let width = properties["PixelWidth"] as? Int, let height = properties["PixelHeight"] as? Int else { return nil }
    return (width, height)
}

/// The same read as `[String: Any]` with the constants, and a number through `CFNumberGetValue`.
private func pixelSizeFromConstants(of url: URL) -> (Int, Int)? {
    guard let source = CGImageSourceCreateWithURL(url as CFURL, nil),
          let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any],
          let width = properties[kCGImagePropertyPixelWidth as String] as? Int else { return nil }
    var height: Int32 = 0
    guard let number = properties[kCGImagePropertyPixelHeight as String].map({ $0 as! CFNumber }),
          CFNumberGetValue(number, .sInt32Type, &height) else { return nil }
    return (width, Int(height))
}

/// The `[NSString: Any]` shape, keyed by the constants, given an `NSURL` where a `CFURL` is taken.
private func previewData(of path: String, maximum: Int) -> Data? {
    let options: [NSString: Any] = [
        kCGImageSourceCreateThumbnailFromImageIfAbsent: kCFBooleanTrue!,
        kCGImageSourceThumbnailMaxPixelSize: maximum,
        kCGImageSourceCreateThumbnailWithTransform: true,
    ]
    guard let source = CGImageSourceCreateWithURL(NSURL(fileURLWithPath: path), nil),
          let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary) else { return nil }
    let output = NSMutableData()
    guard let destination = CGImageDestinationCreateWithData(output, UTType.jpeg.identifier as CFString, 1, nil) else { return nil }
    CGImageDestinationAddImage(destination, image, [kCGImageDestinationLossyCompressionQuality: 0.8] as CFDictionary)
    return CGImageDestinationFinalize(destination) ? output as Data : nil
}

@Suite("ImageIO code as extensions write it compiles with import SharingShim, beside import CoreFoundation, and answers right")
struct AppleShapesTests {
    @Test("the WWDC downsample: upright, no larger than the points times the scale")
    func downsample() throws {
        let image = try #require(downsampledImage(at: Fixture.url("camera.jpg"), fitting: CGSize(width: 100, height: 100), screenScale: 3))
        #expect(image.size == CGSize(width: 225, height: 300))
    }

    @Test("a file that imports CoreFoundation uses it too: its own functions stay reachable beside SharingShim's names")
    func coreFoundationItself() {
        // Without a use of CoreFoundation's own names the compiler need not load it, and the test would prove nothing.
        #expect(CFAbsoluteTimeGetCurrent() > 0)
        let identifiers = [CFStringGetTypeID(), CFDictionaryGetTypeID(), CFURLGetTypeID(), CFDataGetTypeID(), CFNumberGetTypeID(), CFArrayGetTypeID()]
        #expect(Set(identifiers).count == identifiers.count)
    }

    @Test("properties read as NSDictionary with literal keys, and as [String: Any] with the constants and CFNumberGetValue")
    func properties() throws {
        #expect(pixelSizeFromLiterals(of: try Data(contentsOf: Fixture.url("camera.jpg"))).map { [$0.0, $0.1] } == [640, 480])
        #expect(pixelSizeFromConstants(of: Fixture.url("plain.jpg")).map { [$0.0, $0.1] } == [300, 200])
    }

    @Test("[NSString: Any] options and an NSURL: the carried thumbnail, turned, as a JPEG")
    func nsStringOptions() throws {
        let data = try #require(previewData(of: Fixture.url("camera.jpg").path, maximum: 400))
        let written = try #require(CGImageSourceCreateWithData(data as CFData, nil))
        let properties = try #require(CGImageSourceCopyPropertiesAtIndex(written, 0, nil) as? [String: Any])
        #expect(properties["PixelWidth"] as? Int == 120 && properties["PixelHeight"] as? Int == 160)
    }
}
