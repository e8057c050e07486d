import Foundation
import OpenCoreFoundation
import OpenUniformTypeIdentifiers
import Testing

@Suite("The CoreServices UTType API")
struct CoreServicesTests {
    @Test("kUTType constants hold Apple's identifiers, and each names a type the table knows")
    func constants() {
        let expected: [(CFString, String)] = [
            (kUTTypeText, "public.text"), (kUTTypeURL, "public.url"), (kUTTypeImage, "public.image"), (kUTTypeFileURL, "public.file-url"),
            (kUTTypePropertyList, "com.apple.property-list"), (kUTTypeData, "public.data"), (kUTTypePlainText, "public.plain-text"),
            (kUTTypeMPEG4, "public.mpeg-4"), (kUTTypeMP3, "public.mp3"), (kUTTypeZipArchive, "public.zip-archive"),
            (kUTTypeLivePhoto, "com.apple.live-photo"), (kUTTypeElectronicPublication, "org.idpf.epub-container"),
        ]
        for (constant, identifier) in expected {
            #expect(constant as String == identifier)
            #expect(UTType(constant as String)?.isDeclared == true, "\(identifier)")
        }
    }

    @Test("tags to identifiers and back, retained as Create and Copy functions return them")
    func tags() throws {
        let jpeg = try #require(UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "JPG" as CFString, nil)).takeRetainedValue()
        #expect(jpeg as String == "public.jpeg")
        #expect(UTTypeCopyPreferredTagWithClass(jpeg, kUTTagClassMIMEType)?.takeRetainedValue() as String? == "image/jpeg")
        #expect(UTTypeCopyPreferredTagWithClass(kUTTypeJPEG, kUTTagClassFilenameExtension)?.takeRetainedValue() as String? == "jpeg")
        let all = try #require(UTTypeCopyAllTagsWithClass(kUTTypeJPEG, kUTTagClassFilenameExtension)).takeRetainedValue() as? [String]
        #expect(all?.contains("jpg") == true && all?.contains("jpeg") == true)
        let byMIME = try #require(UTTypeCreatePreferredIdentifierForTag(kUTTagClassMIMEType, "image/png" as CFString, nil)).takeRetainedValue()
        #expect(byMIME as String == "public.png")
        // A tag nobody declares: a dynamic type, as macOS makes.
        let lua = try #require(UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "lua" as CFString, kUTTypeData)).takeRetainedValue()
        #expect((lua as String).hasPrefix("dyn.a") && UTTypeIsDynamic(lua) && !UTTypeIsDeclared(lua))
        #expect(UTTypeCopyPreferredTagWithClass(kUTTypeItem, kUTTagClassFilenameExtension) == nil)
        let identifiers = try #require(UTTypeCreateAllIdentifiersForTag(kUTTagClassFilenameExtension, "lua" as CFString, nil)).takeRetainedValue()
        #expect(identifiers.count == 1)
    }

    @Test("conformance, equality and descriptions, as UTType answers them")
    func conformance() {
        #expect(UTTypeConformsTo(kUTTypeJPEG, kUTTypeImage))
        #expect(UTTypeConformsTo(kUTTypePNG, kUTTypeData))
        #expect(!UTTypeConformsTo(kUTTypeImage, kUTTypeJPEG))
        #expect(UTTypeConformsTo("com.example.unknown" as CFString, "com.example.unknown" as CFString))
        #expect(UTTypeEqual(kUTTypeJPEG, "PUBLIC.JPEG" as CFString))
        #expect(!UTTypeEqual(kUTTypeJPEG, kUTTypePNG))
        #expect(UTTypeCopyDescription(kUTTypePDF)?.takeRetainedValue() as String? == "PDF document")
        #expect(UTTypeIsDeclared(kUTTypePDF) && !UTTypeIsDynamic(kUTTypePDF))
    }

    @Test("the pattern shipping extensions use for a file's MIME type compiles and answers")
    func mimeTypeOfExtension() {
        func mimeType(_ pathExtension: String) -> String {
            if let uti = UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, pathExtension as NSString, nil)?.takeRetainedValue() {
                if let mimetype = UTTypeCopyPreferredTagWithClass(uti, kUTTagClassMIMEType)?.takeRetainedValue() {
                    return mimetype as String
                }
            }
            return "application/octet-stream"
        }
        #expect(mimeType("pdf") == "application/pdf")
        #expect(mimeType("qqqq") == "application/octet-stream")
    }
}
