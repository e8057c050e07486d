import Foundation
import SharingShim
import Testing

@Suite("CGImageDestination: JPEG and PNG written, read back exact")
struct ImageDestinationTests {
    @Test("JPEG and PNG are written; HEIC and WebP destinations are not made, as on devices without their encoders")
    func types() throws {
        #expect(CGImageDestinationCopyTypeIdentifiers() as? [String] == ["public.jpeg", "public.png"])
        #expect(CGImageDestinationCreateWithData(NSMutableData(), "public.heic" as CFString, 1, nil) == nil)
        #expect(CGImageDestinationCreateWithData(NSMutableData(), "org.webmproject.webp" as CFString, 1, nil) == nil)
        #expect(CGImageDestinationCreateWithData(NSMutableData(), "public.jpeg" as CFString, 1, nil) != nil)
        #expect(CGImageDestinationCreateWithData(NSMutableData(), "public.png" as CFString, 0, nil) == nil)
    }

    @Test("a JPEG written with an orientation reads back with its size and orientation exact, pixels within 35 dB of Pillow's reading")
    func jpegRoundTrip() throws {
        try withDirectory { directory in
            let image = try #require(CGImageSourceCreateImageAtIndex(try Fixture.source("camera.jpg"), 0, nil))
            let url = directory.appendingPathComponent("out.jpg")
            let destination = try #require(CGImageDestinationCreateWithURL(url as CFURL, "public.jpeg" as CFString, 1, nil))
            CGImageDestinationAddImage(destination, image, [kCGImageDestinationLossyCompressionQuality: 0.9, kCGImagePropertyOrientation: 6] as CFDictionary)
            #expect(CGImageDestinationFinalize(destination))
            #expect(!CGImageDestinationFinalize(destination), "a destination writes once")
            let source = try #require(CGImageSourceCreateWithURL(url as CFURL, nil))
            let properties = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
            #expect(properties["PixelWidth"] as? Int == 640 && properties["PixelHeight"] as? Int == 480)
            #expect(properties["Orientation"] as? Int == 6)
            let readBack = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
            let reference = try pillow(url)
            #expect((reference.width, reference.height) == (640, 480))
            let quality = psnr(try pixels(of: readBack), reference.pixels)
            #expect(quality >= 35, "\(quality) dB")
            // And close to what was written.
            #expect(psnr(try pixels(of: readBack), try pixels(of: image)) >= 35)
        }
    }

    @Test("a PNG with alpha into data: exact pixels, the alpha kept, Pillow reads the same")
    func pngRoundTrip() throws {
        try withDirectory { directory in
            let image = try #require(CGImageSourceCreateImageAtIndex(try Fixture.source("alpha.png"), 0, nil))
            let data = NSMutableData()
            let destination = try #require(CGImageDestinationCreateWithData(data, "public.png" as CFString, 1, nil))
            CGImageDestinationAddImage(destination, image, nil)
            #expect(CGImageDestinationFinalize(destination))
            let url = directory.appendingPathComponent("out.png")
            try (data as Data).write(to: url)
            let written = try #require(CGImageSourceCreateWithData(data, nil))
            let readBack = try #require(CGImageSourceCreateImageAtIndex(written, 0, nil))
            #expect((readBack.width, readBack.height) == (120, 80))
            #expect(readBack.alphaInfo == .last)
            #expect(try pixels(of: readBack, alpha: true) == pixels(of: image, alpha: true))
            let reference = try pillow(url, alpha: true)
            #expect(psnr(try pixels(of: readBack, alpha: true), reference.pixels) == .infinity)
        }
    }

    @Test("an image from a source keeps its orientation; ImageMaxPixelSize makes it smaller; past the count nothing is added")
    func fromSource() throws {
        let data = NSMutableData()
        let destination = try #require(CGImageDestinationCreateWithData(data, "public.jpeg" as CFString, 1, nil))
        CGImageDestinationAddImageFromSource(destination, try Fixture.source("camera.jpg"), 0, [kCGImageDestinationImageMaxPixelSize: 320] as CFDictionary)
        CGImageDestinationAddImageFromSource(destination, try Fixture.source("plain.jpg"), 0, nil)
        #expect(CGImageDestinationFinalize(destination))
        let written = try #require(CGImageSourceCreateWithData(data, nil))
        let properties = try #require(CGImageSourceCopyPropertiesAtIndex(written, 0, nil) as? [String: Any])
        #expect(properties["PixelWidth"] as? Int == 320 && properties["PixelHeight"] as? Int == 240)
        #expect(properties["Orientation"] as? Int == 6)
        let empty = try #require(CGImageDestinationCreateWithData(NSMutableData(), "public.png" as CFString, 1, nil))
        #expect(!CGImageDestinationFinalize(empty), "nothing to write")
    }

    @Test("Core Foundation's names: CFNumberGetValue, kCFBooleanTrue, CFDataCreateMutable")
    func coreFoundationNames() throws {
        var integer: Int32 = 0
        #expect(CFNumberGetValue(42 as CFNumber, .intType, &integer) && integer == 42)
        var double = 0.0
        #expect(CFNumberGetValue(2.5 as CFNumber, .doubleType, &double) && double == 2.5)
        var truncated: Int64 = 0
        #expect(!CFNumberGetValue(2.5 as CFNumber, .sInt64Type, &truncated) && truncated == 2)
        let data = try #require(CFDataCreateMutable(kCFAllocatorDefault, 0))
        let destination = try #require(CGImageDestinationCreateWithData(data, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, try #require(CGImageSourceCreateImageAtIndex(try Fixture.source("plain.jpg"), 0, nil)), nil)
        #expect(CGImageDestinationFinalize(destination) && data.length > 0)
        #expect(kCFBooleanTrue == true && kCFBooleanFalse == false)
    }
}
