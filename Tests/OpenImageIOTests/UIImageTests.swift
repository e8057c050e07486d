import Foundation
@testable import OpenExtensionUI
import SharingShim
import Testing

@Suite("UIImage and UIKit's drawing, headless")
struct UIImageTests {
    @Test("from data: upright size in points, UIKit's orientation, the pixels as stored; not an image, nil")
    func fromData() throws {
        let image = try #require(UIImage(data: try Data(contentsOf: Fixture.url("camera.jpg"))))
        #expect(image.size == CGSize(width: 480, height: 640))
        #expect(image.imageOrientation == .right)
        #expect(image.scale == 1)
        let pixels = try #require(image.cgImage)
        #expect((pixels.width, pixels.height) == (640, 480))
        #expect(image.cgImage === pixels, "decoded once, then kept")
        #expect(UIImage(data: Data("no image".utf8)) == nil)
        let doubled = try #require(UIImage(data: try Data(contentsOf: Fixture.url("plain.jpg")), scale: 2))
        #expect(doubled.size == CGSize(width: 150, height: 100))
        #expect(UIImage(contentsOfFile: Fixture.url("plain.jpg").path)?.size == CGSize(width: 300, height: 200))
        #expect(UIImage(contentsOfFile: "/nonexistent.jpg") == nil)
    }

    @Test("jpegData keeps the orientation in EXIF; pngData writes the pixels as stored and loses it, as UIKit's does")
    func encodings() throws {
        let image = try #require(UIImage(data: try Data(contentsOf: Fixture.url("camera.jpg"))))
        let jpegData = try #require(image.jpegData(compressionQuality: 0.8))
        let jpeg = try #require(UIImage(data: jpegData))
        #expect(jpeg.imageOrientation == .right && jpeg.size == CGSize(width: 480, height: 640))
        let pngData = try #require(image.pngData())
        let png = try #require(UIImage(data: pngData))
        #expect(png.imageOrientation == .up && png.size == CGSize(width: 640, height: 480))
    }

    @Test("preparingThumbnail(of:) gives exactly that many pixels, upright, at scale 1")
    func thumbnails() async throws {
        let image = try #require(UIImage(contentsOfFile: Fixture.url("camera.jpg").path))
        let thumbnail = try #require(image.preparingThumbnail(of: CGSize(width: 120, height: 160)))
        #expect(thumbnail.size == CGSize(width: 120, height: 160) && thumbnail.scale == 1 && thumbnail.imageOrientation == .up)
        let rgb = try pixels(of: try #require(thumbnail.cgImage))
        let topLeft = (24 * 120 + 24) * 3
        #expect(rgb[topLeft] > 180 && rgb[topLeft + 2] < 80, "the red disc is at the top left, upright")
        let awaited = await image.byPreparingThumbnail(ofSize: CGSize(width: 30, height: 40))
        #expect(awaited?.size == CGSize(width: 30, height: 40))
        #expect(image.preparingThumbnail(of: .zero) == nil)
    }

    @Test("a renderer draws at its format's scale: the bitmap is the size times the scale, the image upright")
    func renderer() throws {
        let photo = try #require(UIImage(data: try Data(contentsOf: Fixture.url("camera.jpg"))))
        let format = UIGraphicsImageRendererFormat()
        format.scale = 3
        let rendered = UIGraphicsImageRenderer(size: CGSize(width: 60, height: 80), format: format).image { _ in
            photo.draw(in: CGRect(x: 0, y: 0, width: 60, height: 80))
        }
        #expect(rendered.size == CGSize(width: 60, height: 80) && rendered.scale == 3)
        let bitmap = try #require(rendered.cgImage)
        #expect((bitmap.width, bitmap.height) == (180, 240))
        let rgb = try pixels(of: bitmap)
        let topLeft = (36 * 180 + 36) * 3
        #expect(rgb[topLeft] > 180 && rgb[topLeft + 2] < 80, "drawn upright: the red disc at the top left")
        #expect(UIGraphicsImageRendererFormat().scale == UIScreen.environmentScale)
        let jpeg = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10), format: format).jpegData(withCompressionQuality: 0.5) { context in
            UIColor(red: 1, green: 0, blue: 0, alpha: 1).setFill()
            context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        }
        let filled = try #require(UIImage(data: jpeg)?.cgImage)
        #expect((filled.width, filled.height) == (30, 30))
        #expect(try pixels(of: filled)[0] > 240)
    }

    @Test("in a UIKit context, CGContext.draw of a CGImage comes out upside down, as on iOS; UIImage.draw upright")
    func flippedContext() throws {
        let photo = try #require(CGImageSourceCreateImageAtIndex(try Fixture.source("plain.jpg"), 0, nil))
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 300, height: 200), true, 1)
        let context = try #require(UIGraphicsGetCurrentContext())
        context.draw(photo, in: CGRect(x: 0, y: 0, width: 300, height: 200))
        let drawn = try #require(UIGraphicsGetImageFromCurrentImageContext()?.cgImage)
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
        let original = try pixels(of: photo), flipped = try pixels(of: drawn)
        let row = 300 * 3
        // The stored image's first row is the drawn image's last.
        #expect(psnr(Array(original[0..<row]), Array(flipped[(199 * row)..<(200 * row)])) > 30)
        // A bottom-left context of CoreGraphics' own draws it upright.
        let plain = try #require(CGContext(data: nil, width: 300, height: 200, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                                           bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        plain.interpolationQuality = .high
        plain.draw(photo, in: CGRect(x: 0, y: 0, width: 300, height: 200))
        #expect(psnr(try pixels(of: try #require(plain.makeImage())), original) > 40)
    }

    @Test("UIImage(named:) finds NAME@3x.png at scale 3, NAME.png, or an asset catalog's image set")
    func named() throws {
        try withDirectory { directory in
            let png = try #require(UIImage(data: try Data(contentsOf: Fixture.url("alpha.png")))?.pngData())
            try png.write(to: directory.appendingPathComponent("Logo.png"))
            try png.write(to: directory.appendingPathComponent("Logo@3x.png"))
            let set = directory.appendingPathComponent("Assets.xcassets/Badge.imageset")
            try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
            try png.write(to: set.appendingPathComponent("badge-2x.png"))
            try Data(#"{"images": [{"filename": "badge-2x.png", "scale": "2x"}, {"scale": "3x"}]}"#.utf8).write(to: set.appendingPathComponent("Contents.json"))
            let bundle = try #require(Bundle(path: directory.path))
            #expect(UIImage.resource(named: "Logo", in: bundle)?.lastPathComponent == (UIScreen.environmentScale == 3 ? "Logo@3x.png" : "Logo.png"))
            #expect(UIImage.resource(named: "Badge", in: bundle)?.lastPathComponent == "badge-2x.png")
            #expect(UIImage.resource(named: "Missing", in: bundle) == nil)
            #expect(UIImage(contentsOfFile: directory.appendingPathComponent("Logo@3x.png").path)?.scale == 3)
        }
    }

    @Test("an item provider's image loads as a UIImage object")
    func loadObject() async throws {
        let provider = NSItemProvider(contentsOf: Fixture.url("camera.jpg"))!
        #expect(provider.canLoadObject(ofClass: UIImage.self))
        let image: UIImage? = try await withCheckedThrowingContinuation { continuation in
            _ = provider.loadObject(ofClass: UIImage.self) { object, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: object as? UIImage) }
            }
        }
        #expect(image?.size == CGSize(width: 480, height: 640))
    }

    @MainActor
    @Test("the main screen's scale is what the runtime passes, 3 (the iPhone 13's) when it passes none")
    func screen() {
        let given = ProcessInfo.processInfo.environment["OPENSHARING_SCREEN_SCALE"].flatMap(Double.init)
        #expect(UIScreen.main.scale == CGFloat(given ?? 3))
        #expect(UIScreen.main.bounds.width > 0)
    }
}
