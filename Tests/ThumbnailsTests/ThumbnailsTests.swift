import Foundation
import SharingSystem
import SystemPackage
import Testing
@testable import Thumbnails

let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

func fixture(_ name: String) -> URL {
    fixtures.appendingPathComponent(name)
}

/// Peak signal-to-noise ratio of two same-size images, in dB, over RGB with transparency laid on white.
func psnr(_ a: Thumbnail, _ b: Thumbnail) -> Double {
    let (x, y) = (a.rgbOnWhite(), b.rgbOnWhite())
    let squared = zip(x, y).reduce(0.0) { sum, pair in
        let difference = Double(pair.0) - Double(pair.1)
        return sum + difference * difference
    }
    let mean = squared / Double(x.count)
    return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
}

/// A reference made by Pillow (Tools/make-thumbnail-fixtures.py), read at its own size.
func reference(_ name: String) throws -> Thumbnail {
    try Thumbnailer(maxPixelSize: 10_000).thumbnail(of: fixture(name))
}

@Suite("Thumbnails against references made by Pillow")
struct ThumbnailReferenceTests {
    static let stills: [(String, String)] = [
        ("jpeg-1.jpg", "reference.png"), ("jpeg-progressive.jpg", "reference.png"), ("jpeg-gray.jpg", "reference-gray.png"),
        ("jpeg-cmyk.jpg", "reference.png"), ("scene.png", "reference.png"), ("png-interlaced.png", "reference.png"),
        ("png-6.png", "reference.png"), ("png-alpha.png", "reference-alpha.png"), ("gif.gif", "reference.png"),
        ("webp.webp", "reference.png"), ("webp-lossless.webp", "reference.png"), ("webp-8.webp", "reference.png"),
        ("heic.heic", "reference.png"), ("heic-thumbnail.heic", "reference.png"), ("heic-grid-1.heic", "reference.png"),
        ("heic-alpha.heic", "reference-alpha.png"), ("webp-animated.webp", "reference.png"),
        ("webp-animated-offset.webp", "reference-animated-offset.png"), ("tiff-5.tif", "reference.png"),
        ("tiff-tiled.tif", "reference.png"), ("tiff-alpha.tif", "reference-alpha.png"), ("tiff-big.tif", "reference.png"),
        ("png-xmp-6.png", "reference.png"), ("png-xmp-8.png", "reference.png"),
    ]

    @Test("each format (an animation: its first frame): 100 px on the longer side, upright, within 30 dB of the reference", arguments: stills)
    func formats(_ name: String, _ referenceName: String) throws {
        let thumbnail = try Thumbnailer(maxPixelSize: 100).thumbnail(of: fixture(name))
        #expect((thumbnail.width, thumbnail.height) == (100, 67))
        let decibels = psnr(thumbnail, try reference(referenceName))
        #expect(decibels >= 30, "\(name): \(decibels) dB")
    }

    @Test("all eight EXIF orientations come out upright", arguments: ImageOrientation.allCases)
    func orientations(_ orientation: ImageOrientation) throws {
        let url = fixture("jpeg-\(orientation.rawValue).jpg")
        let header = try Thumbnailer.header(of: url)
        #expect(header.orientation == orientation)
        #expect((header.width, header.height) == (orientation.swapsAxes ? (320, 480) : (480, 320)))
        let thumbnail = try Thumbnailer(maxPixelSize: 100).thumbnail(of: url)
        #expect((thumbnail.width, thumbnail.height) == (100, 67))
        #expect(psnr(thumbnail, try reference("reference.png")) >= 30)
        // Left as stored, every orientation but the first is far from the upright reference.
        let stored = try Thumbnailer(maxPixelSize: 100, appliesOrientation: false).thumbnail(of: url)
        #expect((stored.width, stored.height) == (orientation.swapsAxes ? (67, 100) : (100, 67)))
        if orientation != .up && !orientation.swapsAxes {
            #expect(psnr(stored, try reference("reference.png")) < 20)
        }
    }

    @Test("HEIF: every orientation irot and imir give, from the grid of tiles and from the embedded thumbnail",
          arguments: ImageOrientation.allCases)
    func heifOrientations(_ orientation: ImageOrientation) throws {
        let url = fixture("heic-grid-\(orientation.rawValue).heic")
        let header = try Thumbnailer.header(of: url)
        #expect(header == ImageHeader(format: .heif, width: orientation.swapsAxes ? 320 : 480, height: orientation.swapsAxes ? 480 : 320,
                                      orientation: orientation, frameCount: 1, hasAlpha: false))
        for usesEmbedded in [true, false] {
            let thumbnail = try Thumbnailer(maxPixelSize: 100, usesEmbeddedThumbnail: usesEmbedded).thumbnail(of: url)
            #expect((thumbnail.width, thumbnail.height) == (100, 67))
            let decibels = psnr(thumbnail, try reference("reference.png"))
            #expect(decibels >= 30, "\(orientation), embedded \(usesEmbedded): \(decibels) dB")
        }
        let stored = try Thumbnailer(maxPixelSize: 100, appliesOrientation: false, usesEmbeddedThumbnail: false).thumbnail(of: url)
        #expect((stored.width, stored.height) == (orientation.swapsAxes ? (67, 100) : (100, 67)))
        if orientation != .up && !orientation.swapsAxes {
            #expect(psnr(stored, try reference("reference.png")) < 20)
        }
        // The whole grid, tiles cropped at the right and bottom, against the scene itself.
        let full = try Thumbnailer(maxPixelSize: 480, usesEmbeddedThumbnail: false).thumbnail(of: url)
        #expect(psnr(full, try reference("scene.png")) >= 35)
    }

    @Test("HEIF cropped (clap), then turned: the header gives the visible part")
    func heifCropped() throws {
        let url = fixture("heic-clap-6.heic")
        #expect(try Thumbnailer.header(of: url) == ImageHeader(format: .heif, width: 240, height: 400, orientation: .right, frameCount: 1, hasAlpha: false))
        let thumbnail = try Thumbnailer(maxPixelSize: 100).thumbnail(of: url)
        #expect((thumbnail.width, thumbnail.height) == (100, 60))
        let decibels = psnr(thumbnail, try reference("reference-cropped.png"))
        #expect(decibels >= 30, "\(decibels) dB")
        // Asked not to turn it: cropped all the same (the aperture is what the image is), as stored.
        let stored = try Thumbnailer(maxPixelSize: 100, appliesOrientation: false).thumbnail(of: url)
        #expect((stored.width, stored.height) == (60, 100))
    }

    @Test("HEIF embedded thumbnails as writers other than phones store them: cropped to their ispe and clap, turned as the primary",
          arguments: ["heic-thumbnail-padded-1.heic", "heic-thumbnail-cropped-1.heic", "heic-thumbnail-bare-6.heic"])
    func heifThumbnailForms(_ name: String) throws {
        // Within 500 KB only the 240 × 160 thumbnail can be decoded, not the 480 × 320 image: it is what is shown.
        let thumbnail = try Thumbnailer(maxPixelSize: 100, memoryBudget: 500 << 10).thumbnail(of: fixture(name))
        #expect((thumbnail.width, thumbnail.height) == (100, 67))
        // The magenta rows coded outside the thumbnail's ispe or aperture would cost far more than this.
        let decibels = psnr(thumbnail, try reference("reference.png"))
        #expect(decibels >= 35, "\(name): \(decibels) dB")
    }

    @Test("HEIF as cameras write it: 10-bit samples, in the grid's tiles and the embedded thumbnail")
    func heifTenBits() throws {
        // Within 600 KB: a tile at a time, which libheif's whole image (about 1.2 MB) would not fit.
        for usesEmbedded in [true, false] {
            let thumbnail = try Thumbnailer(maxPixelSize: 100, memoryBudget: 600 << 10, usesEmbeddedThumbnail: usesEmbedded)
                .thumbnail(of: fixture("heic-grid-10.heic"))
            #expect((thumbnail.width, thumbnail.height) == (100, 67))
            let decibels = psnr(thumbnail, try reference("reference.png"))
            #expect(decibels >= 30, "embedded \(usesEmbedded): \(decibels) dB")
        }
    }

    @Test("HEIF: a grid's colours are its tiles' colr when it has none of its own, before what their bitstream says")
    func heifTileColor() throws {
        // The tiles' colr says limited range, their bitstream full: read by the colr, the grid comes out as its
        // twin (the same colr on its one item) does, with the contrast stretched away from the reference.
        let grid = try Thumbnailer(maxPixelSize: 100).thumbnail(of: fixture("heic-grid-limited.heic"))
        let single = try Thumbnailer(maxPixelSize: 100).thumbnail(of: fixture("heic-limited.heic"))
        #expect(psnr(grid, single) >= 40)
        #expect(psnr(grid, try reference("reference.png")) < 32)
    }

    @Test("HEIF: a thumbnail that is not the primary's shape once turned as the primary is not used")
    func heifThumbnailOfAnotherShape() throws {
        // Stored upright with no rotation of its own, under a primary turned a quarter: 160 × 240 once turned.
        let url = fixture("heic-thumbnail-upright-6.heic")
        let refused = #expect(throws: ThumbnailError.self) { try Thumbnailer(maxPixelSize: 100, memoryBudget: 500 << 10).thumbnail(of: url) }
        #expect(refused?.description.hasPrefix("decoding this HEIF image, which has no embedded thumbnail as large as asked and fit to show,") == true,
                "\(String(describing: refused))")
        let thumbnail = try Thumbnailer(maxPixelSize: 100).thumbnail(of: url)
        #expect((thumbnail.width, thumbnail.height) == (100, 67))
        #expect(psnr(thumbnail, try reference("reference.png")) >= 35)
    }

    @Test("TIFF: libtiff flips nothing itself, whatever the orientation tag says; the resampler turns it",
          arguments: ImageOrientation.allCases)
    func tiffOrientations(_ orientation: ImageOrientation) throws {
        // tiff-5.tif with its orientation entry (tag 274, SHORT, one value) set to each of the eight.
        var bytes = Array(try Data(contentsOf: fixture("tiff-5.tif")))
        let entry: [UInt8] = [0x12, 0x01, 3, 0, 1, 0, 0, 0, 5, 0]
        let at = try #require((0..<(bytes.count - entry.count)).first { Array(bytes[$0..<($0 + entry.count)]) == entry })
        bytes[at + 8] = UInt8(orientation.rawValue)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tiff-\(orientation.rawValue)-\(UUID().uuidString).tif")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try Thumbnailer.header(of: url).orientation == orientation)
        let stored = try Thumbnailer(maxPixelSize: 100, appliesOrientation: false).thumbnail(of: url)
        let turned = try Thumbnailer(maxPixelSize: 100).thumbnail(of: url)
        // The upright thumbnail is the stored one with this orientation applied, pixel for pixel.
        #expect((turned.width, turned.height) == (orientation.swapsAxes ? (stored.height, stored.width) : (stored.width, stored.height)))
        var expected = [UInt8](repeating: 0, count: stored.pixels.count)
        for y in 0..<stored.height {
            for x in 0..<stored.width {
                let (ux, uy) = orientation.place(x, y, width: stored.width, height: stored.height)
                for channel in 0..<3 { expected[(uy * turned.width + ux) * 3 + channel] = stored.pixels[(y * stored.width + x) * 3 + channel] }
            }
        }
        #expect(turned.pixels == expected)
    }

    @Test("from bytes in memory, the same thumbnail as from the file")
    func fromData() throws {
        for name in ["jpeg-6.jpg", "png-interlaced.png", "webp-8.webp", "heic.heic"] {
            let thumbnailer = Thumbnailer(maxPixelSize: 100)
            #expect(try thumbnailer.thumbnail(of: Data(contentsOf: fixture(name))) == thumbnailer.thumbnail(of: fixture(name)), "\(name)")
        }
        #expect(performing: { try Thumbnailer(maxPixelSize: 100).thumbnail(of: Data("not an image".utf8)) }, throws: { error in
            if case .unsupported? = error as? ThumbnailError { return true }
            return false
        })
    }

    @Test("a thumbnail resized smaller: the size a decode at that size gives, and as close to the reference")
    func resized() throws {
        for name in ["jpeg-6.jpg", "png-alpha.png", "jpeg-gray.jpg"] {
            let large = try Thumbnailer(maxPixelSize: 240).thumbnail(of: fixture(name))
            let small = large.resized(maxPixelSize: 100)
            let direct = try Thumbnailer(maxPixelSize: 100).thumbnail(of: fixture(name))
            #expect((small.width, small.height, small.channels) == (direct.width, direct.height, direct.channels))
            #expect(psnr(small, direct) >= 35, "\(name)")
        }
        let thumbnail = try Thumbnailer(maxPixelSize: 100).thumbnail(of: fixture("scene.png"))
        #expect(thumbnail.resized(maxPixelSize: 500) == thumbnail)
    }

    @Test("no larger than the image: a maximum above its size gives it at its own size")
    func noUpscaling() throws {
        let thumbnail = try Thumbnailer(maxPixelSize: 4000).thumbnail(of: fixture("jpeg-6.jpg"))
        #expect((thumbnail.width, thumbnail.height) == (480, 320))
        let tiny = try Thumbnailer(maxPixelSize: 1).thumbnail(of: fixture("scene.png"))
        #expect((tiny.width, tiny.height) == (1, 1))
    }

    @Test("written as JPEG and PNG, read back at the same size")
    func encoding() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnails-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let thumbnail = try Thumbnailer(maxPixelSize: 100).thumbnail(of: fixture("png-alpha.png"))
        for (name, encoding) in [("t.jpg", Thumbnail.Encoding.jpeg(quality: 90)), ("t.png", .png)] {
            let url = directory.appendingPathComponent(name)
            try thumbnail.write(to: url, as: encoding)
            let read = try Thumbnailer(maxPixelSize: 10_000).thumbnail(of: url)
            #expect((read.width, read.height) == (100, 67))
            #expect(psnr(read, thumbnail) >= 30)
        }
        #expect(performing: { try thumbnail.write(to: directory.appendingPathComponent("missing/t.png"), as: .png) }, throws: { error in
            guard case .unwritable(let why)? = error as? ThumbnailError else { return false }
            return why.contains("missing/t.png")
        })
    }
}

@Suite("Image headers")
struct ImageHeaderTests {
    @Test("format, stored size, orientation, frames and alpha, from the header alone")
    func headers() throws {
        let expected: [(String, ImageHeader)] = [
            ("jpeg-6.jpg", ImageHeader(format: .jpeg, width: 320, height: 480, orientation: .right, frameCount: 1, hasAlpha: false)),
            ("png-6.png", ImageHeader(format: .png, width: 320, height: 480, orientation: .right, frameCount: 1, hasAlpha: false)),
            ("png-alpha.png", ImageHeader(format: .png, width: 480, height: 320, orientation: .up, frameCount: 1, hasAlpha: true)),
            ("gif.gif", ImageHeader(format: .gif, width: 480, height: 320, orientation: .up, frameCount: 1, hasAlpha: false)),
            ("webp-8.webp", ImageHeader(format: .webp, width: 320, height: 480, orientation: .left, frameCount: 1, hasAlpha: false)),
            ("webp-lossless.webp", ImageHeader(format: .webp, width: 480, height: 320, orientation: .up, frameCount: 1, hasAlpha: false)),
            ("heic.heic", ImageHeader(format: .heif, width: 480, height: 320, orientation: .up, frameCount: 1, hasAlpha: false)),
            ("tiff-5.tif", ImageHeader(format: .tiff, width: 320, height: 480, orientation: .leftMirrored, frameCount: 1, hasAlpha: false)),
            ("tiff-alpha.tif", ImageHeader(format: .tiff, width: 480, height: 320, orientation: .up, frameCount: 1, hasAlpha: true)),
            ("tiff-big.tif", ImageHeader(format: .tiff, width: 480, height: 320, orientation: .up, frameCount: 1, hasAlpha: false)),
            ("webp-animated.webp", ImageHeader(format: .webp, width: 480, height: 320, orientation: .up, frameCount: 2, hasAlpha: false)),
            ("heic-grid-6.heic", ImageHeader(format: .heif, width: 320, height: 480, orientation: .right, frameCount: 1, hasAlpha: false)),
            ("heic-alpha.heic", ImageHeader(format: .heif, width: 480, height: 320, orientation: .up, frameCount: 1, hasAlpha: true)),
        ]
        for (name, header) in expected {
            #expect(try Thumbnailer.header(of: fixture(name)) == header, "\(name)")
            #expect(try Thumbnailer.header(of: Data(contentsOf: fixture(name))) == header, "\(name) in memory")
        }
        // Data that is a slice of a larger buffer starts at an index other than 0.
        let slice = (Data([0xFF]) + (try Data(contentsOf: fixture("heic-grid-6.heic")))).dropFirst()
        #expect(slice.startIndex == 1)
        #expect(try Thumbnailer.header(of: slice) == Thumbnailer.header(of: fixture("heic-grid-6.heic")))
    }

    @Test("HEVC: the picture size of a sequence parameter set, emulation prevention bytes removed")
    func sequenceParameterSets() throws {
        for (name, item, size) in [("heic.heic", UInt32(1), (480, 320)), ("heic-grid-1.heic", UInt32(2), (128, 128))] {
            let file = try HEIFFile.read(FileBytes(fixture(name)))
            var sizes: [(Int, Int)] = []
            for case .hevcConfiguration(let units, _, _, _) in file.properties(of: item) {
                sizes += units.compactMap(HEVC.pictureSize(ofSequenceParameterSet:)).map { ($0.width, $0.height) }
            }
            #expect(sizes.count == 1 && sizes[0] == size, "\(name): \(sizes)")
        }
        var bits = HEVC.BitReader(rbsp: [0, 0, 3, 1, 0b0100_1100])
        #expect(bits.read(24) == 1)
        #expect(bits.exponentialGolomb() == 1 && bits.exponentialGolomb() == 2)
        #expect(bits.exponentialGolomb() == nil)
        #expect(HEVC.pictureSize(ofSequenceParameterSet: [0x40, 0x01, 0x0C]) == nil)  // a VPS, not an SPS
    }

    @Test("EXIF in either byte order; anything malformed is no orientation")
    func exif() {
        let little: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]
        let big: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 8, 0, 0]
        #expect(Exif.orientation(in: little) == .right)
        #expect(Exif.orientation(in: big) == .left)
        #expect(Exif.orientation(in: Array(little.prefix(15))) == nil)
        #expect(Exif.orientation(in: [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F]) == nil)
        var nine = little
        nine[18] = 9
        #expect(Exif.orientation(in: nine) == nil)
    }
}

@Suite("Hostile and broken images")
final class HostileImageTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnails-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// The thumbnail, whole and no larger than asked; or nil, when the error says what was wrong.
    func thumbnailOrError(_ thumbnailer: Thumbnailer, _ url: URL) -> Thumbnail? {
        do {
            let thumbnail = try thumbnailer.thumbnail(of: url)
            #expect(Swift.max(thumbnail.width, thumbnail.height) <= thumbnailer.maxPixelSize)
            #expect(thumbnail.pixels.count == thumbnail.width * thumbnail.height * thumbnail.channels)
            return thumbnail
        } catch {
            #expect(!error.description.isEmpty)
            return nil
        }
    }

    @Test("every fixture cut short anywhere: an error or a thumbnail of the right size, never a crash")
    func truncated() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
        for name in names {
            let bytes = Array(try Data(contentsOf: fixture(name)))
            // 50 pixels on the longer side, or the image's own size when it is smaller.
            let whole = try Thumbnailer.header(of: fixture(name))
            let longer = Swift.min(50, Swift.max(whole.width, whole.height))
            for length in [0, 1, 8, 20, 40, 100, 300, bytes.count / 4, bytes.count / 2, bytes.count - 10] where length < bytes.count {
                let url = try write("cut-\(length)-\(name)", Array(bytes.prefix(length)))
                if let thumbnail = thumbnailOrError(Thumbnailer(maxPixelSize: 50), url) {
                    #expect(Swift.max(thumbnail.width, thumbnail.height) == longer, "\(name) cut to \(length) bytes")
                }
            }
        }
    }

    @Test("huge declared sizes are refused before decoding; so are what the budget cannot hold")
    func bombs() throws {
        // A PNG declaring 100,000 × 100,000 pixels, and a JPEG declaring 65,000 × 65,000.
        var png = Array(try Data(contentsOf: fixture("scene.png")))
        png.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        #expect(throws: ThumbnailError.tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try Thumbnailer(maxPixelSize: 100).thumbnail(of: try write("bomb.png", png))
        }
        var jpeg = Array(try Data(contentsOf: fixture("jpeg-1.jpg")))
        let frame = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((frame + 5)..<(frame + 9), with: [0xFD, 0xE8, 0xFD, 0xE8])
        #expect(throws: ThumbnailError.tooManyPixels(width: 65_000, height: 65_000, limit: 100_000_000)) {
            try Thumbnailer(maxPixelSize: 100).thumbnail(of: try write("bomb.jpg", jpeg))
        }
        // A progressive JPEG holds every coefficient: 480 × 320 needs about 350 KB of them.
        let budgetError = #expect(throws: ThumbnailError.self) {
            try Thumbnailer(maxPixelSize: 100, memoryBudget: 100 << 10).thumbnail(of: fixture("jpeg-progressive.jpg"))
        }
        #expect(budgetError?.description.contains("progressive JPEG needs about") == true)
        // HEIF without a thumbnail is decoded whole; one with a thumbnail as large as asked is not.
        let overBudget = { (error: any Error) in
            if case .overBudget(_, 300 << 10, _)? = error as? ThumbnailError { return true }
            return false
        }
        #expect(performing: { try Thumbnailer(maxPixelSize: 100, memoryBudget: 300 << 10).thumbnail(of: fixture("heic.heic")) }, throws: overBudget)
        let small = try Thumbnailer(maxPixelSize: 100, memoryBudget: 300 << 10).thumbnail(of: fixture("heic-thumbnail.heic"))
        #expect((small.width, small.height) == (100, 67))
        #expect(performing: {
            try Thumbnailer(maxPixelSize: 100, memoryBudget: 300 << 10, usesEmbeddedThumbnail: false).thumbnail(of: fixture("heic-thumbnail.heic"))
        }, throws: overBudget)
    }

    @Test("HEIF and GIF fixtures with bytes overwritten anywhere: an error or a thumbnail, never a crash")
    func overwritten() throws {
        // HEIF's grid of tiles (8 and 10 bits), embedded thumbnails (one cropped by its clap), and libheif's way
        // (alpha); GIF, whose LZW decoder is Swift's: Pillow's codes, a full table, an interlaced frame.
        for (name, usesEmbedded) in [("heic-grid-6.heic", false), ("heic-grid-10.heic", false), ("heic-thumbnail.heic", true),
                                     ("heic-thumbnail-cropped-1.heic", true), ("heic-alpha.heic", false), ("gif.gif", false),
                                     ("gif-full-table.gif", false), ("gif-offset.gif", false)] {
            let bytes = Array(try Data(contentsOf: fixture(name)))
            for position in stride(from: 0, to: bytes.count, by: Swift.max(1, bytes.count / 47)) {
                for value: UInt8 in [0x00, 0xFF] {
                    var damaged = bytes
                    damaged[position] = value
                    let url = try write("damaged-\(position)-\(value)-\(name)", damaged)
                    _ = thumbnailOrError(Thumbnailer(maxPixelSize: 50, usesEmbeddedThumbnail: usesEmbedded), url)
                }
            }
        }
    }

    @Test("HEIF's declared sizes and structure are checked before decoding")
    func heifStructure() throws {
        let bytes = Array(try Data(contentsOf: fixture("heic-grid-1.heic")))
        let ispe = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("ispe".utf8) })
        // The grid's ispe declares 100,000 × 100,000 pixels.
        var bomb = bytes
        bomb.replaceSubrange((ispe + 8)..<(ispe + 16), with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        #expect(throws: ThumbnailError.tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try Thumbnailer(maxPixelSize: 100).thumbnail(of: try write("bomb.heic", bomb))
        }
        // The grid's ispe disagrees with its description.
        var mismatch = bytes
        mismatch[ispe + 11] ^= 1
        let error = #expect(throws: ThumbnailError.self) {
            try Thumbnailer(maxPixelSize: 100, usesEmbeddedThumbnail: false).thumbnail(of: try write("mismatch.heic", mismatch))
        }
        #expect(error?.description.contains("grid 1 is 480 × 320 pixels, its ispe") == true, "\(String(describing: error))")
        // A coded picture larger than its ispe (a stereo pair side by side, say) is cropped to the ispe; the
        // budget counts the coded picture, which libde265 allocates.
        var single = Array(try Data(contentsOf: fixture("heic.heic")))
        let extent = try #require((0..<(single.count - 4)).first { Array(single[$0..<($0 + 4)]) == Array("ispe".utf8) })
        single.replaceSubrange((extent + 8)..<(extent + 16), with: [0, 0, 0, 240, 0, 0, 0, 160])
        let larger = try write("larger.heic", single)
        let corner = try Thumbnailer(maxPixelSize: 100).thumbnail(of: larger)
        #expect((corner.width, corner.height) == (100, 67))
        let whole = try Thumbnailer(maxPixelSize: 480).thumbnail(of: fixture("heic.heic"))
        let expected = Thumbnail(width: 240, height: 160, channels: 3,
                                 pixels: (0..<160).flatMap { y in whole.pixels[(y * 480 * 3)..<((y * 480 + 240) * 3)] }).resized(maxPixelSize: 100)
        #expect(psnr(corner, expected) >= 40)
        let budget = #expect(throws: ThumbnailError.self) { try Thumbnailer(maxPixelSize: 100, memoryBudget: 500 << 10).thumbnail(of: larger) }
        guard case .overBudget(let needed, 500 << 10, _)? = budget else { Issue.record("\(String(describing: budget))"); return }
        #expect(needed > 480 * 320 * 3, "\(needed) bytes: not the coded picture's")
        // A file whose embedded thumbnail (its last item) is cut short: the intact primary image is shown.
        let grid = Array(try Data(contentsOf: fixture("heic-grid-1.heic")))
        let cut = try write("cut.heic", Array(grid.dropLast(200)))
        let shown = try Thumbnailer(maxPixelSize: 100).thumbnail(of: cut)
        #expect((shown.width, shown.height) == (100, 67))
        #expect(psnr(shown, try reference("reference.png")) >= 30)
        // A primary item (pitm) that is the thumbnail of another image: that image is the primary, as libheif
        // reads it. (The thumbnail of heic-thumbnail-bare-6.heic is stored 160 × 240 with no rotation.)
        var thumbnailFirst = Array(try Data(contentsOf: fixture("heic-thumbnail-bare-6.heic")))
        let pitm = try #require((0..<(thumbnailFirst.count - 4)).first { Array(thumbnailFirst[$0..<($0 + 4)]) == Array("pitm".utf8) })
        thumbnailFirst.replaceSubrange((pitm + 8)..<(pitm + 10), with: [0, 2])
        let swapped = try write("thumbnail-first.heic", thumbnailFirst)
        #expect(try Thumbnailer.header(of: swapped) == ImageHeader(format: .heif, width: 320, height: 480, orientation: .right, frameCount: 1, hasAlpha: false))
        let upright = try Thumbnailer(maxPixelSize: 100).thumbnail(of: swapped)
        #expect((upright.width, upright.height) == (100, 67))
        #expect(psnr(upright, try reference("reference.png")) >= 35)
        // No pict handler: not an image file.
        var handler = bytes
        let pict = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("pict".utf8) })
        handler.replaceSubrange(pict..<(pict + 4), with: Array("vide".utf8))
        #expect(throws: ThumbnailError.unsupported("HEIF: a meta box for 'vide', not for pictures")) {
            try Thumbnailer.header(of: try write("handler.heic", handler))
        }
    }

    @Test("not an image, an empty file, a directory, a missing file: errors that say which")
    func notImages() throws {
        let cases: [(URL, String)] = [
            (try write("text.jpg", Array("hello, world".utf8)), "unsupported: not a JPEG, PNG, GIF, WebP, HEIF, TIFF or BMP image"),
            (try write("empty.png", []), "unsupported: not a JPEG, PNG, GIF, WebP, HEIF, TIFF or BMP image"),
            (directory, "cannot read the image: reading \(directory.path) failed: not a regular file"),
            (directory.appendingPathComponent("missing.png"), "cannot read the image: opening \(directory.path)/missing.png failed: No such file or directory"),
            (try write("zero.gif", Array("GIF89a".utf8) + [0, 0, 0, 0, 0, 0, 0]), "corrupt image: GIF: the screen is 0 × 0 pixels"),
        ]
        for (url, message) in cases {
            let error = #expect(throws: ThumbnailError.self) { try Thumbnailer(maxPixelSize: 100).thumbnail(of: url) }
            #expect(error?.description.hasPrefix(message) == true, "\(url.lastPathComponent): \(String(describing: error))")
        }
        #expect(throws: ThumbnailError.unreadable(SystemError(.open, .system(.noSuchFileOrDirectory), path: directory.appendingPathComponent("missing.png").path))) {
            try Thumbnailer(maxPixelSize: 100).thumbnail(of: directory.appendingPathComponent("missing.png"))
        }
    }
}

@Suite("Area averaging")
struct ResamplerTests {
    @Test("each output pixel is the mean of the area it covers, fractions at the edges included")
    func means() {
        // 3 → 2 columns: the middle pixel is split half and half.
        var resampler = Resampler(from: 3, 1, to: 2, 1, channels: 1, orientation: .up, inOrder: true)
        let row: [UInt8] = [0, 90, 180]
        row.withUnsafeBufferPointer { resampler.add(row: 0, pixels: $0.baseAddress!, count: 3) }
        #expect(resampler.image == [30, 150])
    }

    @Test("rows in any order and sparse, as Adam7 sends them, sum to what rows in order do")
    func anyOrder() {
        let (width, height) = (13, 11)
        let pixels = (0..<(width * height)).map { UInt8(($0 * 37) % 256) }
        var inOrder = Resampler(from: width, height, to: 5, 4, channels: 1, orientation: .right, inOrder: true)
        var sparse = Resampler(from: width, height, to: 5, 4, channels: 1, orientation: .right, inOrder: false)
        for y in 0..<height {
            pixels.withUnsafeBufferPointer { inOrder.add(row: y, pixels: $0.baseAddress! + y * width, count: width) }
        }
        for y in (0..<height).reversed() {
            for start in 0..<2 {
                let subset = stride(from: start, to: width, by: 2).map { pixels[y * width + $0] }
                subset.withUnsafeBufferPointer { sparse.add(row: y, pixels: $0.baseAddress!, count: subset.count, start: start, step: 2) }
            }
        }
        sparse.finish()
        // The same sums added in another order: equal but for a rounding at most.
        #expect(zip(sparse.image, inOrder.image).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        #expect(sparse.image.count == inOrder.image.count)
    }

    /// Where the edge from dark to light lies along `values`, in pixels from the start: the count of pixels
    /// less the light that the values hold, each between the first (dark) and the last (light). An area
    /// average moves no light, so any shift of the sample grid shows as a shift of this.
    static func edge(_ values: [UInt8]) -> Double {
        let (dark, light) = (Double(values.first!), Double(values.last!))
        return Double(values.count) - values.reduce(0) { $0 + (Double($1) - dark) / (light - dark) }
    }

    @Test("edges stay where they are, to a twentieth of a source pixel: the area average, JPEG's DCT scales, HEIF's planes",
          arguments: ["edge.png", "edge.jpg", "edge.heic"])
    func edgesStayPut(_ name: String) throws {
        // 1024 × 1024, light from x = 515 and from y = 613. A grid shifted half a source pixel would move
        // them 0.5; JPEG is decoded at 1/8, 1/4, 1/2 and 6/8 for these sizes, then averaged.
        for size in [128, 200, 256, 512, 700, 1024] {
            let thumbnail = try Thumbnailer(maxPixelSize: size).thumbnail(of: fixture(name))
            let scale = 1024 / Double(size)
            let row = thumbnail.height * 300 / 1024, column = thumbnail.width * 300 / 1024
            let across = (0..<thumbnail.width).map { thumbnail.pixels[(row * thumbnail.width + $0) * 3] }
            let down = (0..<thumbnail.height).map { thumbnail.pixels[($0 * thumbnail.width + column) * 3] }
            #expect(abs(Self.edge(across) * scale - 515) <= 0.05, "\(name) at \(size): across \(Self.edge(across) * scale)")
            #expect(abs(Self.edge(down) * scale - 613) <= 0.05, "\(name) at \(size): down \(Self.edge(down) * scale)")
        }
    }
}

@Suite("Files other decoders read")
struct TolerantDecodingTests {
    @Test("a GIF with no colour table at all reads each index as a grey level, whatever its LZW code size (8; 11, which giflib refused)",
          arguments: ["gif-no-colors.gif", "gif-lzw-11.gif"])
    func gifWithoutColors(_ name: String) throws {
        let thumbnail = try Thumbnailer(maxPixelSize: 16).thumbnail(of: fixture(name))
        #expect((thumbnail.width, thumbnail.height) == (16, 16))
        // Pixel (x, y) is index 16y + x: grey at that level.
        #expect(thumbnail.rgbOnWhite() == (0..<256).flatMap { [UInt8($0), UInt8($0), UInt8($0)] })
    }

    @Test("GIF's LZW: codes widening from 9 bits to 12, and a full table kept without a clear code")
    func gifFullTable() throws {
        let thumbnail = try Thumbnailer(maxPixelSize: 80).thumbnail(of: fixture("gif-full-table.gif"))
        #expect((thumbnail.width, thumbnail.height) == (64, 80))
        let levels: [UInt8] = (0..<(64 * 80)).map { UInt8((7 * $0) % 256) }
        let expected: [UInt8] = levels.flatMap { [$0, $0, $0] }
        #expect(thumbnail.rgbOnWhite() == expected)
    }

    @Test("GIF: an interlaced frame at its place on a larger screen, its local colours, its transparent index, the rest clear")
    func gifFrameOnScreen() throws {
        let thumbnail = try Thumbnailer(maxPixelSize: 32).thumbnail(of: fixture("gif-offset.gif"))
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (32, 24, 4))
        var expected = [UInt8](repeating: 0, count: 32 * 24 * 4)
        for index in 1..<256 {
            let pixel = ((5 + index / 16) * 32 + 10 + index % 16) * 4
            (expected[pixel], expected[pixel + 3]) = (UInt8(index), 255)
        }
        #expect(thumbnail.pixels == expected)
    }

    @Test("GIF: a frame cut short shows what it has; an LZW code past the table is an error that names it")
    func gifDamaged() throws {
        let bytes = Array(try Data(contentsOf: fixture("gif-full-table.gif")))
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let cut = directory.url.appendingPathComponent("cut.gif")
        try Data(bytes.prefix(bytes.count / 2)).write(to: cut)
        let shown = try Thumbnailer(maxPixelSize: 80).thumbnail(of: cut)
        #expect((shown.width, shown.height, shown.channels) == (64, 80, 4))
        // The first rows as they were; the last clear.
        let levels: [UInt8] = (0..<64).map { UInt8((7 * $0) % 256) }
        let firstRow: [UInt8] = levels.flatMap { [$0, $0, $0, 255] }
        #expect(Array(shown.pixels.prefix(64 * 4)) == firstRow)
        #expect(shown.pixels.suffix(64 * 4).allSatisfy { $0 == 0 })
        // 4 × 1, no colours, LZW minimum code size 2: clear (4), the literal 1, then 7 where the table ends at 6
        // (3-bit codes, least significant bit first: 4 | 1 << 3 | 7 << 6 = 0x1CC).
        let past = directory.url.appendingPathComponent("past.gif")
        try Data(Array("GIF89a".utf8) + [4, 0, 1, 0, 0, 0, 0] + [0x2C, 0, 0, 0, 0, 4, 0, 1, 0, 0] + [2, 2, 0xCC, 0x01, 0, 0x3B]).write(to: past)
        #expect(throws: ThumbnailError.corrupt("GIF: the LZW code 7 where the table ends at 6")) { try Thumbnailer(maxPixelSize: 4).thumbnail(of: past) }
    }
}

extension TolerantDecodingTests {
    @Test("stray bytes before a JPEG marker are skipped, as libjpeg skips them", arguments: ["junk after a segment", "a length one byte short"])
    func jpegStrayBytes(_ damage: String) throws {
        // jpeg-1.jpg's first segment after SOI, its length at bytes 4–5, damaged one of two ways.
        var bytes = Array(try Data(contentsOf: fixture("jpeg-1.jpg")))
        #expect(bytes[2] == 0xFF && bytes[3] >= 0xE0)
        let length = Int(bytes[4]) << 8 | Int(bytes[5])
        if damage == "junk after a segment" {
            bytes.insert(contentsOf: [0x12, 0x34, 0x56], at: 4 + length)
        } else {
            bytes[5] -= 1
        }
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("damaged.jpg")
        try Data(bytes).write(to: url)
        let header = try Thumbnailer.header(of: url)
        #expect((header.width, header.height) == (480, 320))
        let thumbnail = try Thumbnailer(maxPixelSize: 100).thumbnail(of: url)
        #expect((thumbnail.width, thumbnail.height) == (100, 67))
        #expect(psnr(thumbnail, try reference("reference.png")) >= 30)
    }

    @Test("a JPEG with no marker after stray bytes is refused, naming where the search began")
    func jpegNoMarker() throws {
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("junk.jpg")
        // SOI, a comment segment of two bytes, then nothing but spaces.
        try Data([0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x04, 0x41, 0x42] + [UInt8](repeating: 0x20, count: 10_000)).write(to: url)
        #expect(throws: ThumbnailError.corrupt("JPEG: no marker after byte 8")) { try Thumbnailer.header(of: url) }
    }

    @Test("XMP's orientation is read as an attribute or an element, and only the digit it gives", arguments: [
        ("<rdf:Description tiff:Orientation=\"6\"/>", 6), ("<tiff:Orientation>8</tiff:Orientation>", 8),
        ("tiff:Orientation = '3'", 3), ("tiff:Orientation=\"9\"", nil), ("tiff:Orientation=\"16\"", nil), ("<x:xmpmeta/>", nil),
    ] as [(String, Int?)])
    func xmpOrientation(_ packet: String, _ expected: Int?) {
        #expect(XMP.orientation(inPacket: Array(packet.utf8))?.rawValue == expected)
    }
}

extension TolerantDecodingTests {
    @Test("TIFF: 12-bit grey samples are scaled to 8 bits, a row at a time")
    func twelveBitGray() throws {
        let thumbnail = try Thumbnailer(maxPixelSize: 100).thumbnail(of: fixture("tiff-gray-12.tif"))
        #expect((thumbnail.width, thumbnail.height) == (100, 67))
        #expect(psnr(thumbnail, try reference("reference-gray.png")) >= 30)
    }

    @Test("TIFF: a G4 page is decoded a row at a time, within a budget its strips of RGBA would exceed")
    func bilevelRows() throws {
        // Strips of 422 rows of 1240 pixels: 2.1 MB as RGBA.
        let thumbnail = try Thumbnailer(maxPixelSize: 100, memoryBudget: 1 << 20).thumbnail(of: fixture("tiff-g4.tif"))
        #expect((thumbnail.width, thumbnail.height) == (100, 67))
        #expect(psnr(thumbnail, try Thumbnailer(maxPixelSize: 100).thumbnail(of: fixture("reference-g4.png"))) >= 40)
    }
}

extension TolerantDecodingTests {
    @Test("TIFF: CIELab comes out without a colour cast: Lab's white is white, its greys grey")
    func cielab() throws {
        // White, black, L* 50 grey, and sRGB's red (L* 54, a* 80, b* 67), one pixel each.
        let thumbnail = try Thumbnailer(maxPixelSize: 4).thumbnail(of: fixture("tiff-lab.tif"))
        let rgb = thumbnail.rgbOnWhite()
        let pixels = (0..<4).map { Array(rgb[($0 * 3)..<($0 * 3 + 3)]) }
        #expect(pixels[0] == [255, 255, 255])
        #expect(pixels[1] == [0, 0, 0])
        #expect(pixels[2] == [119, 119, 119])
        #expect(pixels[3][0] >= 250 && pixels[3][1] <= 20 && pixels[3][2] <= 20, "\(pixels[3])")
    }

    @Test("TIFF: an old-style JPEG page of one strip is read as the JPEG stream it holds, a band at a time")
    func oldStyleJPEG() throws {
        // libtiff would decode the strip whole: 960 × 640 as RGBA is 2.4 MB.
        let thumbnail = try Thumbnailer(maxPixelSize: 100, memoryBudget: 1 << 20).thumbnail(of: fixture("tiff-ojpeg.tif"))
        #expect((thumbnail.width, thumbnail.height) == (100, 67))
        #expect(psnr(thumbnail, try reference("reference.png")) >= 35)
        // A stream that is not the page's size is not taken for it: libtiff decodes the page, within its budget.
        var bytes = Array(try Data(contentsOf: fixture("tiff-ojpeg.tif")))
        let frame = try #require((0..<(bytes.count - 2)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[frame + 6] ^= 1  // the frame's height, 640 → 641
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let mismatched = directory.url.appendingPathComponent("ojpeg-mismatch.tif")
        try Data(bytes).write(to: mismatched)
        let budget = #expect(throws: ThumbnailError.self) { try Thumbnailer(maxPixelSize: 100, memoryBudget: 1 << 20).thumbnail(of: mismatched) }
        #expect(budget?.description.hasPrefix("decoding this TIFF, 640 rows at a time,") == true, "\(String(describing: budget))")
    }

    @Test("TIFF: 16-bit CMYK, black included, comes out as the RGB it was made from")
    func cmyk16() throws {
        let thumbnail = try Thumbnailer(maxPixelSize: 120).thumbnail(of: fixture("tiff-cmyk-16.tif"))
        #expect((thumbnail.width, thumbnail.height) == (120, 80))
        let decibels = psnr(thumbnail, try reference("reference-cmyk.png"))
        #expect(decibels >= 40, "\(decibels) dB")
    }
}

@Suite("BMP")
struct BMPTests {
    @Test("each kind decodes to exactly its PNG twin", arguments: [
        ("bmp-24.bmp", "bmp-reference.png"), ("bmp-32-masks.bmp", "bmp-reference.png"), ("bmp-rle8.bmp", "bmp-rle8-reference.png"),
    ])
    func twins(_ name: String, _ twin: String) throws {
        let header = try Thumbnailer.header(of: fixture(name))
        #expect(header == ImageHeader(format: .bmp, width: 120, height: 80, orientation: .up, frameCount: 1, hasAlpha: false))
        let thumbnail = try Thumbnailer(maxPixelSize: 120).thumbnail(of: fixture(name))
        #expect(thumbnail.rgbOnWhite() == (try Thumbnailer(maxPixelSize: 120).thumbnail(of: fixture(twin))).rgbOnWhite())
    }

    @Test("a file that ends early reads as zeros from there")
    func truncated() throws {
        // Rows are stored bottom row first: the missing byte is the top row's last pixel's red.
        let bytes = try Data(contentsOf: fixture("bmp-24.bmp")).dropLast()
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("short.bmp")
        try bytes.write(to: url)
        let thumbnail = try Thumbnailer(maxPixelSize: 120).thumbnail(of: url)
        var expected = try Thumbnailer(maxPixelSize: 120).thumbnail(of: fixture("bmp-reference.png")).rgbOnWhite()
        expected[119 * 3] = 0
        #expect(thumbnail.rgbOnWhite() == expected)
    }

    @Test("broken headers are refused, saying what was wrong", arguments: [
        (40, 0, 24, "BMP: 0 × 80 pixels"), (40, 120, 2, "BMP: 2 bits a pixel"), (66, 120, 24, "BMP: a header of 66 bytes"),
    ])
    func broken(_ headerSize: Int, _ width: Int, _ bits: Int, _ expected: String) throws {
        var bytes = Array(try Data(contentsOf: fixture("bmp-24.bmp")))
        func put32(_ value: Int, at offset: Int) { for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) } }
        put32(headerSize, at: 14)
        put32(width, at: 18)
        bytes[28] = UInt8(bits)
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("broken.bmp")
        try Data(bytes).write(to: url)
        #expect(throws: ThumbnailError.corrupt(expected)) { try Thumbnailer.header(of: url) }
    }
}

extension TolerantDecodingTests {
    @Test("TIFF: floating-point grey is scaled between its lowest and highest sample")
    func floatingPointGray() throws {
        // A ramp of 16 samples from -1 to 2: evenly spread from black to white.
        let thumbnail = try Thumbnailer(maxPixelSize: 16).thumbnail(of: fixture("tiff-float.tif"))
        #expect((thumbnail.width, thumbnail.height) == (16, 1))
        let levels: [UInt8] = (0..<16).map { UInt8($0 * 17) }
        #expect(thumbnail.rgbOnWhite() == levels.flatMap { [$0, $0, $0] })
    }
}
