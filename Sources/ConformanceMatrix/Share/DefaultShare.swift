public import Foundation
public import HostProfiles
import OpenCoreFoundation
import OpenImageIO
import SharingSystem

/// What the matrix shares when it is given nothing: a photo, a camera's 48 MP photo and 12 MP still, a Live
/// Photo bundle (the still and its video), a PDF, a page's URL and a note, written by our own generator into a directory (the same bytes every time, so a
/// reproduce command finds them again).
public enum DefaultShare {
    /// The page every browser profile shares: never fetched by the matrix itself.
    public static let pageURL = URL(string: "https://example.com/articles/sharing")!
    public static let note = "Shopping: milk, bread, apples"
    public static let title = "Sharing"

    /// Writes the files into `directory` (made if missing, rewritten only when they differ) and returns the
    /// content: the files, the page's URL, the note and a title.
    public static func write(into directory: URL) throws -> SharedContent {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let photo = directory.appendingPathComponent("photo.jpg"), pdf = directory.appendingPathComponent("document.pdf")
        let large = directory.appendingPathComponent("photo-48mp.jpg"), still = directory.appendingPathComponent("photo-12mp.jpg")
        try writeIfChanged(try jpeg(width: 1200, height: 800), to: photo)
        try writeIfChanged(Data(Self.pdf.utf8), to: pdf)
        if !isFile(large) { try copy(try photo48MP(), to: large) }
        if !isFile(still) { try copy(try photo12MP(), to: still) }
        // A Live Photo as the photo picker hands it over: a directory holding the still and the video.
        let bundle = directory.appendingPathComponent("Live Photo.pvt", isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let bundledStill = bundle.appendingPathComponent("IMG_0001.JPG")
        if !isFile(bundledStill) { try copy(still, to: bundledStill) }
        try writeIfChanged(Data(movieHeader), to: bundle.appendingPathComponent("IMG_0001.MOV"))
        return SharedContent(files: [photo, large, still, bundle, pdf], urls: [pageURL], texts: [note], title: title)
    }

    /// Where the generated files too large to make for every run are kept, made once: `opensharing-test/large`
    /// in the temporary directory.
    static var largeFiles: URL { FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-test/large") }

    /// A 48 MP photo as a camera makes it (8000 × 6000, the size of a recent iPhone's main camera: detail and
    /// sensor noise, so that it takes a real photo's bytes and decoding time), encoded once and kept.
    static func photo48MP() throws -> URL {
        try cameraPhoto(named: "camera-48mp-1.jpg", width: 8000, height: 6000)
    }

    /// A 12 MP photo as a camera makes it (4032 × 3024: a Live Photo's still on every iPhone, and older main
    /// cameras' photos), encoded once and kept.
    static func photo12MP() throws -> URL {
        try cameraPhoto(named: "camera-12mp-1.jpg", width: 4032, height: 3024)
    }

    /// `largeFiles/name`, a camera-like JPEG of that size, made unless it is there.
    private static func cameraPhoto(named name: String, width: Int, height: Int) throws -> URL {
        try FileManager.default.createDirectory(at: largeFiles, withIntermediateDirectories: true)
        let photo = largeFiles.appendingPathComponent(name)
        if !isFile(photo) { try cameraJPEG(width: width, height: height).write(to: photo, options: .atomic) }
        return photo
    }

    /// Writes the payloads a notification service is sent when it is given none, into `directory`: an alert
    /// only (the service is not asked), a mutable notification with an image to download from
    /// `image` (the key Firebase's image notifications use, `fcm_options.image`), the same not mutable (shown as
    /// sent), and one over APNs' 4096 bytes (refused before any device sees it). Returns them in that order.
    public static func writePayloads(into directory: URL, image: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let imageOptions = #""fcm_options": {"image": "\#(image.absoluteString)"}"#
        let payloads = [
            ("alert-only", #"{"aps": {"alert": {"title": "Hello", "body": "An alert with nothing to change"}}}"#),
            ("mutable-image", #"{"aps": {"alert": {"title": "A photo", "body": "With its image"}, "mutable-content": 1}, \#(imageOptions)}"#),
            ("not-mutable", #"{"aps": {"alert": {"title": "A photo", "body": "Its image is not downloaded"}, "mutable-content": 0}, \#(imageOptions)}"#),
            ("over-4kb", #"{"aps": {"alert": {"title": "Too large"}, "mutable-content": 1}, "padding": "\#(String(repeating: "x", count: 4200))"}"#),
        ]
        return try payloads.map { name, json in
            let file = directory.appendingPathComponent("\(name).json")
            try writeIfChanged(Data(json.utf8), to: file)
            return file
        }
    }

    /// Writes a large share (each file made once, then kept in `opensharing-test/large` in the temporary
    /// directory): ten 48 MP photos, or one 2 GiB file (sparse: it costs no disk until read).
    public static func writeLarge(_ kind: Fault.LargeShare) throws -> [URL] {
        switch kind {
        case .photos:
            let first = try photo48MP()
            let photos = [first] + (2...10).map { largeFiles.appendingPathComponent("camera-48mp-\($0).jpg") }
            for photo in photos.dropFirst() where !isFile(photo) { try copy(first, to: photo) }
            return photos
        case .file:
            try FileManager.default.createDirectory(at: largeFiles, withIntermediateDirectories: true)
            let file = largeFiles.appendingPathComponent("file-2gib.bin")
            try writeSparse(file, size: 2 << 30)
            return [file]
        }
    }

    /// Makes `file` a sparse file of `size` bytes (it costs no disk until read), unless it is one already.
    static func writeSparse(_ file: URL, size: UInt64) throws {
        guard (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? UInt64) != size else { return }
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw GeneratorError("cannot make \(file.path)") }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.truncate(atOffset: size)
    }

    /// Copies `source` to `destination` whole or not at all: into a name of its own beside it, then renamed to
    /// it unless it is there by then, so that runs sharing a directory (two matrices, two fuzzers) never see a
    /// part, nor fail on the other's copy (the same bytes).
    private static func copy(_ source: URL, to destination: URL) throws {
        let part = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent)-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: part)
        defer { try? FileManager.default.removeItem(at: part) }
        do {
            try FileSystem.renameNoReplace(part, to: destination)
        } catch {
            // Another run's copy got there first: the same bytes.
            if !isFile(destination) { throw error }
        }
    }

    private static func isFile(_ url: URL) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0) > 0
    }

    /// The part of the default set a host profile shares, as a person would share from that app, chosen by the
    /// kinds the profile declares: the 48 MP photo from the photo library (a camera's), the 12 MP still of a Live
    /// Photo, the small photo where
    /// a host shares an image (Messages, the screenshot editor, a page's image), the PDF as a document, the
    /// page's URL, the note as text, and the title (the content of `Examples/make-shares.sh`, the fixtures' own).
    public static func content(for profile: HostProfile, from all: SharedContent) -> SharedContent {
        let kinds = profile.shares
        let files = all.files.filter { file in
            let name = file.lastPathComponent
            return (kinds.contains(.image) && name == "photo.jpg") || (kinds.contains(.libraryPhoto) && name == "photo-48mp.jpg")
                || (kinds.contains(.livePhotoStill) && name == "photo-12mp.jpg") || (kinds.contains(.livePhotoBundle) && file.pathExtension == "pvt")
                || (kinds.contains(.document) && file.pathExtension == "pdf")
        }
        return SharedContent(files: files, urls: kinds.contains(.webPage) ? all.urls : [], texts: kinds.contains(.text) ? all.texts : [],
                             title: kinds.contains(.title) ? all.title : nil)
    }

    private static func writeIfChanged(_ data: Data, to url: URL) throws {
        if (try? Data(contentsOf: url)) == data { return }
        try data.write(to: url, options: .atomic)
    }

    /// A photo-sized JPEG of a smooth gradient (a scene's sky, roughly), encoded here.
    static func jpeg(width: Int, height: Int) throws -> Data {
        guard let space = CGColorSpace(name: CGColorSpace.sRGB),
              let context = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4, space: space,
                                      bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue) else { throw GeneratorError("no bitmap context") }
        let bands = 32
        for band in 0..<bands {
            let fraction = CGFloat(band) / CGFloat(bands - 1)
            context.setFillColor(red: 0.95 - 0.6 * fraction, green: 0.55 + 0.2 * fraction, blue: 0.3 + 0.6 * fraction, alpha: 1)
            context.fill(CGRect(x: 0, y: band * height / bands, width: width, height: height / bands + 1))
        }
        let data = NSMutableData()
        guard let image = context.makeImage(),
              let destination = CGImageDestinationCreateWithData(data as CFMutableData, "public.jpeg" as CFString, 1, nil) else {
            throw GeneratorError("no JPEG destination")
        }
        CGImageDestinationAddImage(destination, image, [kCGImageDestinationLossyCompressionQuality: 0.85] as CFDictionary)
        guard CGImageDestinationFinalize(destination) else { throw GeneratorError("the JPEG did not encode") }
        return data as Data
    }

    /// A photo as a camera makes it, `width` × `height`: a scene's light falling across the frame, detail that
    /// changes every few pixels, and sensor noise in every pixel — what makes a real photo's JPEG large (some
    /// 4 bits a pixel here) and slow to decode, where a smooth gradient is neither. The same bytes every time.
    static func cameraJPEG(width: Int, height: Int) throws -> Data {
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            guard let start = buffer.baseAddress else { return }
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            for y in 0..<height {
                let row = start + y * width * 4
                let light = Int32(70 + 120 * y / height)
                var x = 0
                while x < width {
                    // xorshift64: 16 bits of noise for each of four pixels.
                    state ^= state << 13
                    state ^= state >> 7
                    state ^= state << 17
                    var bits = state
                    for _ in 0..<4 where x < width {
                        let pixel = row + x * 4
                        let noise = Int32(bits & 0x3F) - 32
                        let detail = Int32((x / 37 &+ y / 23) & 15) * 4 - 30
                        pixel[0] = UInt8(clamping: light + noise + detail)
                        pixel[1] = UInt8(clamping: light - 15 + noise + Int32((bits >> 6) & 0x1F))
                        pixel[2] = UInt8(clamping: light + 25 + noise - detail)
                        pixel[3] = 255
                        bits >>= 16
                        x += 1
                    }
                }
            }
            count = width * height * 4
        }
        let image = CGImage(bitmap: Bitmap(width: width, height: height, channels: 4, hasAlpha: false, pixels: pixels))
        let data = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, "public.jpeg" as CFString, 1, nil) else {
            throw GeneratorError("no JPEG destination")
        }
        CGImageDestinationAddImage(destination, image, [kCGImageDestinationLossyCompressionQuality: 0.92] as CFDictionary)
        guard CGImageDestinationFinalize(destination) else { throw GeneratorError("the JPEG did not encode") }
        return data as Data
    }

    /// The first box of a QuickTime movie (ISO/IEC 14496-12 `ftyp`, brand `qt  `): what a Live Photo's video
    /// starts with, which is all a share's type sniffing reads.
    static let movieHeader: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)

    /// A one-page PDF saying one line, its cross-reference offsets computed.
    static var pdf: String {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length 44 >>\nstream\nBT /F1 24 Tf 72 700 Td (A shared page) Tj ET\nendstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        var text = "%PDF-1.4\n", offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let table = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        return text + "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
    }

    struct GeneratorError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = "the share's files: \(description)" }
    }
}
