public import Foundation
public import HostProfiles
import OpenCoreFoundation
import OpenImageIO

/// What the matrix shares when it is given nothing: a photo, a PDF, a page's URL and a note, written by our own
/// generator into a directory (the same bytes every time, so a reproduce command finds them again).
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
        try writeIfChanged(try jpeg(width: 1200, height: 800), to: photo)
        try writeIfChanged(Data(Self.pdf.utf8), to: pdf)
        return SharedContent(files: [photo, pdf], urls: [pageURL], texts: [note], title: title)
    }

    /// The part of the default set a host profile shares, as a person would share from that app: a photo from
    /// Photos and Messages, the PDF from Files, the page from a browser, the note from Notes and Mail (the
    /// content of `Examples/make-shares.sh`, the fixtures' own). A host named here for nothing, or not named,
    /// gets all of it.
    public static func content(for host: String, from all: SharedContent) -> SharedContent {
        let photo = ["photos", "live-photo", "live-photo-messages", "messages", "screenshot", "safari-image"]
        let document = ["files"]
        let page = ["safari", "safari-javascript", "safari-image", "chrome", "firefox", "duplicates"]
        let note = ["safari-javascript", "notes", "mail"]
        let titled = ["safari", "safari-javascript", "safari-image", "firefox", "notes", "mail", "no-attachments", "duplicates"]
        guard (photo + document + page + note + titled).contains(host) else { return all }
        let files = all.files.filter { file in
            (photo.contains(host) && file.pathExtension == "jpg") || (document.contains(host) && file.pathExtension == "pdf")
        }
        return SharedContent(files: files, urls: page.contains(host) ? all.urls : [], texts: note.contains(host) ? all.texts : [],
                             title: titled.contains(host) ? all.title : nil)
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
        init(_ description: String) { self.description = "the default share's photo: \(description)" }
    }
}
