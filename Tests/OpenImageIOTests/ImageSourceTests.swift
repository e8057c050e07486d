import Foundation
import SharingShim
import Testing

@Suite("CGImageSource: what a file says, and images made from it")
struct ImageSourceTests {
    @Test("keys hold Apple's strings: properties the names EXIF and TIFF give, options their own names")
    func keyStrings() {
        let expected: [(CFString, String)] = [
            (kCGImagePropertyPixelWidth, "PixelWidth"), (kCGImagePropertyPixelHeight, "PixelHeight"), (kCGImagePropertyOrientation, "Orientation"),
            (kCGImagePropertyDPIWidth, "DPIWidth"), (kCGImagePropertyHasAlpha, "HasAlpha"), (kCGImagePropertyDepth, "Depth"),
            (kCGImagePropertyExifDictionary, "{Exif}"), (kCGImagePropertyTIFFDictionary, "{TIFF}"), (kCGImagePropertyGPSDictionary, "{GPS}"),
            (kCGImagePropertyPNGDictionary, "{PNG}"), (kCGImagePropertyGIFDictionary, "{GIF}"), (kCGImagePropertyJFIFDictionary, "{JFIF}"),
            (kCGImagePropertyExifDateTimeOriginal, "DateTimeOriginal"), (kCGImagePropertyExifLensModel, "LensModel"),
            (kCGImagePropertyGPSLatitude, "Latitude"), (kCGImagePropertyGPSVersion, "GPSVersion"), (kCGImagePropertyGIFDelayTime, "DelayTime"),
            (kCGImageSourceThumbnailMaxPixelSize, "kCGImageSourceThumbnailMaxPixelSize"),
            (kCGImageSourceCreateThumbnailFromImageIfAbsent, "kCGImageSourceCreateThumbnailFromImageIfAbsent"),
            (kCGImageDestinationLossyCompressionQuality, "kCGImageDestinationLossyCompressionQuality"),
        ]
        for (key, string) in expected { #expect(key as String == string) }
    }

    @Test("a camera's JPEG: size as stored, orientation, resolution, and {TIFF}, {Exif} and {GPS} as the file holds them")
    func cameraProperties() throws {
        let properties = try #require(CGImageSourceCopyPropertiesAtIndex(try Fixture.source("camera.jpg"), 0, nil) as? [String: Any])
        #expect(properties["PixelWidth"] as? Int == 640)
        #expect(properties["PixelHeight"] as? Int == 480)
        #expect(properties["Orientation"] as? Int == 6)
        #expect(properties["Depth"] as? Int == 8)
        #expect(properties["ColorModel"] as? String == "RGB")
        #expect(properties["DPIWidth"] as? Double == 72)
        #expect(properties["HasAlpha"] == nil)
        let tiff = try #require(properties["{TIFF}"] as? [String: Any])
        #expect(tiff["Make"] as? String == "OpenSharing")
        #expect(tiff["Model"] as? String == "Fixture Camera")
        #expect(tiff["Orientation"] as? Int == 6)
        #expect(tiff["XResolution"] as? Double == 72)
        #expect(tiff["ResolutionUnit"] as? Int == 2)
        #expect(tiff["DateTime"] as? String == "2026:11:25 10:00:00")
        let exif = try #require(properties["{Exif}"] as? [String: Any])
        #expect(exif["ExposureTime"] as? Double == 1.0 / 120)
        #expect(exif["FNumber"] as? Double == 1.8)
        #expect(exif["ISOSpeedRatings"] as? [Int] == [50])
        #expect(exif["ExifVersion"] as? [Int] == [2, 3, 2])
        #expect(exif["FlashPixVersion"] as? [Int] == [1, 0])
        #expect(exif["ComponentsConfiguration"] as? [Int] == [1, 2, 3, 0])
        #expect(exif["DateTimeOriginal"] as? String == "2026:11:25 09:59:58")
        #expect(exif["FocalLength"] as? Double == 4.25)
        #expect(exif["PixelXDimension"] as? Int == 640)
        #expect(exif["SceneType"] as? Int == 1)
        #expect(exif["UserComment"] as? String == "a comment")
        #expect(exif["LensModel"] as? String == "Fixture Lens")
        #expect(exif["LensSpecification"] as? [Double] == [4.25, 4.25, 1.8, 1.8])
        let gps = try #require(properties["{GPS}"] as? [String: Any])
        #expect(gps["GPSVersion"] as? [Int] == [2, 2, 0, 0])
        #expect(gps["LatitudeRef"] as? String == "N")
        #expect(abs((gps["Latitude"] as? Double ?? 0) - (48 + 51.0 / 60 + 24.0 / 3600)) < 1e-9)
        #expect(gps["LongitudeRef"] as? String == "E")
        #expect(abs((gps["Longitude"] as? Double ?? 0) - (2 + 17.0 / 60 + 24.0 / 3600)) < 1e-9)
        #expect(gps["Altitude"] as? Double == 35)
        #expect(gps["AltitudeRef"] as? Int == 0)
        #expect(gps["TimeStamp"] as? String == "09:59:58.00")
        #expect(gps["DateStamp"] as? String == "2026:11:25")
    }

    @Test("a property answers whichever way the dictionary is read: NSDictionary, [String: Any], [AnyHashable: Any], [NSString: Any]")
    func keysEitherWay() throws {
        let source = try Fixture.source("camera.jpg")
        let dictionary = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil))
        #expect(dictionary[kCGImagePropertyPixelWidth] as? Int == 640)
        #expect(dictionary["PixelWidth"] as? Int == 640)
        let strings = try #require(dictionary as? [String: Any])
        #expect(strings[kCGImagePropertyPixelHeight as String] as? Int == 480)
        // On Linux, AnyHashable(NSString) is not AnyHashable(String): the constants are made to be.
        let hashables = try #require(dictionary as? [AnyHashable: Any])
        #expect(hashables[kCGImagePropertyPixelWidth] as? Int == 640)
        #expect(hashables["PixelWidth"] as? Int == 640)
        let exif = try #require(hashables[kCGImagePropertyExifDictionary] as? [AnyHashable: Any])
        #expect(exif[kCGImagePropertyExifLensModel] as? String == "Fixture Lens")
        let nsStrings = try #require(dictionary as? [NSString: Any])
        #expect(nsStrings[kCGImagePropertyOrientation] as? Int == 6)
        // And options built every way are read alike.
        let ways: [CFDictionary] = [
            [kCGImageSourceThumbnailMaxPixelSize: 50, kCGImageSourceCreateThumbnailFromImageAlways: true] as CFDictionary,
            ["kCGImageSourceThumbnailMaxPixelSize": 50, "kCGImageSourceCreateThumbnailFromImageAlways": true] as CFDictionary,
            [AnyHashable(kCGImageSourceThumbnailMaxPixelSize): 50, AnyHashable(kCGImageSourceCreateThumbnailFromImageAlways): kCFBooleanTrue!] as NSDictionary,
        ]
        for options in ways {
            let thumbnail = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, options))
            #expect((thumbnail.width, thumbnail.height) == (50, 38))
        }
    }

    @Test("PNG: alpha, resolution from pHYs, and {PNG}'s texts")
    func pngProperties() throws {
        let properties = try #require(CGImageSourceCopyPropertiesAtIndex(try Fixture.source("alpha.png"), 0, nil) as? [String: Any])
        #expect(properties["HasAlpha"] as? Bool == true)
        #expect(properties["DPIWidth"] as? Double == 72)
        #expect(properties["Orientation"] == nil)
        let png = try #require(properties["{PNG}"] as? [String: Any])
        #expect(png["XPixelsPerMeter"] as? Int == 2835)
        #expect(png["InterlaceType"] as? Int == 0)
        #expect(png["Author"] as? String == "OpenSharing")
        #expect(png["Comment"] as? String == "made by make-imageio-fixtures")
        #expect(CGImageSourceGetType(try Fixture.source("alpha.png")) as String? == "public.png")
    }

    @Test("GIF: three images, the loop count for the file, each frame's delay clamped as players clamp it and as given")
    func gifProperties() throws {
        let source = try Fixture.source("animated.gif")
        #expect(CGImageSourceGetCount(source) == 3)
        let file = try #require(CGImageSourceCopyProperties(source, nil) as? [String: Any])
        let fileGIF = try #require(file["{GIF}"] as? [String: Any])
        #expect(fileGIF["LoopCount"] as? Int == 0)
        #expect(fileGIF["HasGlobalColorMap"] as? Bool == true)
        #expect((file["FileSize"] as? Int ?? 0) > 0)
        let first = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
        let gif = try #require(first["{GIF}"] as? [String: Any])
        #expect(gif["UnclampedDelayTime"] as? Double == 0.01)
        #expect(gif["DelayTime"] as? Double == 0.1)
        #expect(CGImageSourceCopyPropertiesAtIndex(source, 3, nil) == nil)
    }

    @Test("JFIF: the density in dots per inch, progressive or not; a gray JPEG's color model")
    func jfif() throws {
        let plain = try #require(CGImageSourceCopyPropertiesAtIndex(try Fixture.source("plain.jpg"), 0, nil) as? [String: Any])
        #expect(plain["DPIWidth"] as? Double == 300)
        #expect(plain["Orientation"] == nil)
        let jfif = try #require(plain["{JFIF}"] as? [String: Any])
        #expect(jfif["DensityUnit"] as? Int == 1)
        #expect(jfif["XDensity"] as? Int == 300)
        #expect(jfif["IsProgressive"] as? Bool == false)
        let gray = try #require(CGImageSourceCopyPropertiesAtIndex(try Fixture.source("gray-progressive.jpg"), 0, nil) as? [String: Any])
        #expect(gray["ColorModel"] as? String == "Gray")
        #expect((gray["{JFIF}"] as? [String: Any])?["IsProgressive"] as? Bool == true)
    }

    @Test("garbage makes a source with no images and status unknown type, not a crash; cut short, unexpected end; a missing file, no source")
    func garbage() throws {
        let garbage = Data("this is no image at all, just words".utf8)
        let source = try #require(CGImageSourceCreateWithData(garbage as CFData, nil))
        #expect(CGImageSourceGetCount(source) == 0)
        #expect(CGImageSourceGetStatus(source) == .statusUnknownType)
        #expect(CGImageSourceGetType(source) == nil)
        #expect(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) == nil)
        #expect(CGImageSourceCreateImageAtIndex(source, 0, nil) == nil)
        #expect(CGImageSourceCreateThumbnailAtIndex(source, 0, [kCGImageSourceCreateThumbnailFromImageAlways: true] as CFDictionary) == nil)
        let camera = try Data(contentsOf: Fixture.url("camera.jpg"))
        let cut = try #require(CGImageSourceCreateWithData(camera.prefix(40) as CFData, nil))
        #expect(CGImageSourceGetStatus(cut) == .statusUnexpectedEOF)
        #expect(CGImageSourceGetCount(cut) == 0)
        #expect(CGImageSourceCreateWithURL(URL(fileURLWithPath: "/nonexistent/photo.jpg") as CFURL, nil) == nil)
        #expect(CGImageSourceGetStatus(try Fixture.source("camera.jpg")) == .statusComplete)
        #expect(CGImageSourceGetStatusAtIndex(try Fixture.source("camera.jpg"), 1) == .statusInvalidData)
    }

    @Test("the whole image decoded: its bitmap as stored, 4 bytes a pixel, gray 1; cropping shares the rows; a subsample factor decodes smaller")
    func wholeImage() throws {
        let image = try #require(CGImageSourceCreateImageAtIndex(try Fixture.source("camera.jpg"), 0, nil))
        #expect((image.width, image.height) == (640, 480))
        #expect(image.bitsPerComponent == 8 && image.bitsPerPixel == 32 && image.bytesPerRow == 2560)
        #expect(image.alphaInfo == .noneSkipLast)
        #expect(image.colorSpace?.model == .rgb)
        #expect(image.utType as String? == "public.jpeg")
        #expect((image.dataProvider?.data as Data?)?.count == 640 * 480 * 4)
        // Stored turned: the upright scene's red disc (top left) is at the stored image's top right.
        let rgb = try pixels(of: image)
        let topRight = (40 * 640 + 560) * 3
        #expect(rgb[topRight] > 180 && rgb[topRight + 2] < 80, "\(rgb[topRight...(topRight + 2)])")
        let cropped = try #require(image.cropping(to: CGRect(x: 540, y: 20, width: 100, height: 50)))
        #expect((cropped.width, cropped.height, cropped.bytesPerRow) == (100, 50, 2560))
        #expect(try pixels(of: cropped)[(20 * 100 + 20) * 3] == rgb[topRight])
        #expect(image.cropping(to: CGRect(x: 700, y: 0, width: 10, height: 10)) == nil)
        let half = try #require(CGImageSourceCreateImageAtIndex(try Fixture.source("camera.jpg"), 0, [kCGImageSourceSubsampleFactor: 2] as CFDictionary))
        #expect((half.width, half.height) == (320, 240))
        let gray = try #require(CGImageSourceCreateImageAtIndex(try Fixture.source("gray-progressive.jpg"), 0, nil))
        #expect(gray.bitsPerPixel == 8 && gray.alphaInfo == CGImageAlphaInfo.none && gray.colorSpace?.model == .monochrome)
        let alpha = try #require(CGImageSourceCreateImageAtIndex(try Fixture.source("alpha.png"), 0, nil))
        #expect(alpha.alphaInfo == .last)
        #expect(CGImageSourceCreateImageAtIndex(try Fixture.source("animated.gif"), 1, nil) == nil)
    }
}

@Suite("CGImageSourceCreateThumbnailAtIndex: ImageIO's choices of which thumbnail, and how large")
struct ThumbnailChoiceTests {
    private func thumbnail(_ name: String, _ options: [CFString: Any]) throws -> CGImage? {
        CGImageSourceCreateThumbnailAtIndex(try Fixture.source(name), 0, options as CFDictionary)
    }

    @Test("with neither FromImage option, only the thumbnail the file carries, or none")
    func embeddedOnly() throws {
        let carried = try #require(try thumbnail("camera.jpg", [:]))
        #expect((carried.width, carried.height) == (160, 120))
        #expect(try thumbnail("plain.jpg", [kCGImageSourceThumbnailMaxPixelSize: 100]) == nil)
        let source = try #require(CGImageSourceCreateWithURL(Fixture.thumbnails("heic-thumbnail.heic") as CFURL, nil))
        let heif = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, nil))
        let full = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
        #expect(heif.width < full["PixelWidth"] as? Int ?? 0)
    }

    @Test("IfAbsent: the carried thumbnail as it is, not enlarged however large the maximum; made smaller when over it")
    func ifAbsent() throws {
        let small = try #require(try thumbnail("camera.jpg", [kCGImageSourceCreateThumbnailFromImageIfAbsent: true, kCGImageSourceThumbnailMaxPixelSize: 400]))
        #expect((small.width, small.height) == (160, 120))
        let reduced = try #require(try thumbnail("camera.jpg", [kCGImageSourceCreateThumbnailFromImageIfAbsent: true, kCGImageSourceThumbnailMaxPixelSize: 100]))
        #expect((reduced.width, reduced.height) == (100, 75))
        let turned = try #require(try thumbnail("camera.jpg", [kCGImageSourceCreateThumbnailFromImageIfAbsent: true, kCGImageSourceCreateThumbnailWithTransform: true]))
        #expect((turned.width, turned.height) == (120, 160))
        let made = try #require(try thumbnail("plain.jpg", [kCGImageSourceCreateThumbnailFromImageIfAbsent: true, kCGImageSourceThumbnailMaxPixelSize: 100]))
        #expect((made.width, made.height) == (100, 67))
    }

    @Test("Always: made from the image, in its stored orientation unless WithTransform, never larger than the image")
    func always() throws {
        let stored = try #require(try thumbnail("camera.jpg", [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: 400]))
        #expect((stored.width, stored.height) == (400, 300))
        let upright = try #require(try thumbnail("camera.jpg", [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: 400,
                                                               kCGImageSourceCreateThumbnailWithTransform: true]))
        #expect((upright.width, upright.height) == (300, 400))
        // Upright, the red disc is at the top left.
        let rgb = try pixels(of: upright)
        let topLeft = (60 * 300 + 60) * 3
        #expect(rgb[topLeft] > 180 && rgb[topLeft + 2] < 80)
        let notEnlarged = try #require(try thumbnail("plain.jpg", [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: 2000]))
        #expect((notEnlarged.width, notEnlarged.height) == (300, 200))
        let whole = try #require(try thumbnail("plain.jpg", [kCGImageSourceCreateThumbnailFromImageAlways: true]))
        #expect((whole.width, whole.height) == (300, 200))
    }

    @Test("the maximum given as Int, Double, CGFloat, Float or NSNumber is the same maximum", arguments: ["Int", "Double", "CGFloat", "Float", "NSNumber", "Double with a fraction"])
    func maximumTypes(type: String) throws {
        let values: [String: Any] = ["Int": 150, "Double": 150.0, "CGFloat": CGFloat(150), "Float": Float(150), "NSNumber": NSNumber(value: 150),
                                     "Double with a fraction": 150.7]
        let maximum = try #require(values[type])
        let image = try #require(try thumbnail("plain.jpg", [kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: maximum]))
        #expect((image.width, image.height) == (150, 100))
    }
}
