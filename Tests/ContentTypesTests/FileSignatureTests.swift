@testable import ContentTypes
import SharingShim
import Testing

@Suite("The signature table")
struct FileSignatureTests {
    @Test("first bytes name the format and its type, most specific first", arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0], FileSignature.jpeg, "public.jpeg"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png, "public.png"),
        (Array("GIF89a".utf8), .gif, "com.compuserve.gif"),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webP, "org.webmproject.webp"),
        ([0x49, 0x49, 0x2A, 0x00], .tiff, "public.tiff"),
        ([0x4D, 0x4D, 0x00, 0x2B], .bigTIFF, "public.tiff"),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8), .heic, "public.heic"),
        ([0, 0, 0, 0x18] + Array("ftypmif1".utf8), .heif, "public.heif"),
        ([0, 0, 0, 0x18] + Array("ftypavif".utf8), .avif, "public.avif"),
        ([0, 0, 0, 0x18] + Array("ftypqt  ".utf8), .quickTimeMovie, "com.apple.quicktime-movie"),
        ([0, 0, 0, 0x18] + Array("ftypisom".utf8), .mpeg4Movie, "public.mpeg-4"),
        (Array("%PDF-1.7".utf8), .pdf, "com.adobe.pdf"),
        ([0x50, 0x4B, 0x03, 0x04], .zip, "public.zip-archive"),
        (Array("bplist00".utf8), .binaryPropertyList, "com.apple.binary-property-list"),
    ] as [([UInt8], FileSignature, String)])
    func identifies(_ bytes: [UInt8], _ signature: FileSignature, _ identifier: String) {
        #expect(FileSignature.identify(bytes) == signature)
        #expect(signature.typeIdentifier == identifier)
    }

    @Test("AVIF is an image, and not taken for HEIC; text and too few bytes are nothing")
    func avif() {
        #expect(FileSignature.avif.type.conforms(to: .image))
        #expect(FileSignature.identify([0, 0, 0, 0x18] + Array("ftypavif".utf8)) != .heic)
        #expect(FileSignature.identify(Array("hello".utf8)) == nil)
        #expect(FileSignature.identify([0xFF, 0xD8]) == nil)
        #expect(FileSignature.identify([UInt8]()) == nil)
    }
}
