import Foundation
@testable import OpenUniformTypeIdentifiers
import Testing

@Suite("UTType")
struct UTTypeTests {
    @Test("identifiers resolve case-insensitively to the declared type")
    func identifiers() throws {
        #expect(UTType("public.jpeg") == .jpeg)
        #expect(UTType("PUBLIC.JPEG") == .jpeg)
        #expect(UTType("Public.Jpeg")?.identifier == "public.jpeg")
        #expect(UTType("com.apple.iWork.Pages.pages")?.identifier == "com.apple.iWork.Pages.pages")
        #expect(UTType("com.apple.iwork.pages.pages")?.identifier == "com.apple.iWork.Pages.pages")
        #expect(UTType("com.example.nobody-declares-this") == nil)
        #expect(UTType("") == nil)
    }

    @Test("Apple's constants carry Apple's identifiers")
    func constants() {
        let expected: [(UTType, String)] = [
            (.item, "public.item"), (.content, "public.content"), (.data, "public.data"),
            (.directory, "public.directory"), (.folder, "public.folder"), (.package, "com.apple.package"),
            (.url, "public.url"), (.fileURL, "public.file-url"), (.text, "public.text"),
            (.plainText, "public.plain-text"), (.utf8PlainText, "public.utf8-plain-text"),
            (.image, "public.image"), (.jpeg, "public.jpeg"), (.png, "public.png"), (.heic, "public.heic"),
            (.heif, "public.heif"), (.gif, "com.compuserve.gif"), (.webP, "org.webmproject.webp"),
            (.tiff, "public.tiff"), (.pdf, "com.adobe.pdf"), (.livePhoto, "com.apple.live-photo"),
            (.movie, "public.movie"), (.quickTimeMovie, "com.apple.quicktime-movie"),
            (.mpeg4Movie, "public.mpeg-4"), (.zip, "public.zip-archive"), (.json, "public.json"),
            (.propertyList, "com.apple.property-list"), (.binaryPropertyList, "com.apple.binary-property-list"),
            (.vCard, "public.vcard"), (.rtfd, "com.apple.rtfd"), (.flatRTFD, "com.apple.flat-rtfd"),
            (.jpegxl, "public.jpeg-xl"), (.dng, "com.adobe.raw-image"), (.geoJSON, "public.geojson"),
            (.linkPresentationMetadata, "com.apple.linkpresentation.metadata"),
        ]
        for (type, identifier) in expected {
            #expect(type.identifier == identifier)
            #expect(type.isDeclared && type.isSystem && !type.isDynamic)
        }
    }

    @Test("every constant Apple documents resolves, with at least its documented conformance")
    func documentedConstants() throws {
        let rows = try String(contentsOf: repositoryRoot.appending(path: "Tools/data/uttype-swift-constants.tsv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 142)
        for row in rows {
            let type = try #require(UTType(row[2]), "\(row[0]) → \(row[2])")
            #expect(type.isDeclared)
            // Where the documentation and the macOS declaration disagree, the declaration wins (TSV column 7).
            let parents = (row[5] == "yes" ? row[6] : row[3]).split(separator: ",").map(String.init)
            for parent in parents {
                #expect(type.conforms(to: try #require(UTType(parent))), "\(row[2]) conforms to \(parent)")
            }
        }
    }

    @Test("conformance: reflexive, through parents, strict for sub- and supertypes")
    func conformance() {
        #expect(UTType.jpeg.conforms(to: .jpeg))
        #expect(UTType.jpeg.conforms(to: .image))
        #expect(UTType.jpeg.conforms(to: .data))
        #expect(UTType.jpeg.conforms(to: .item))
        #expect(UTType.jpeg.conforms(to: .content))
        #expect(!UTType.jpeg.conforms(to: .text))
        #expect(!UTType.image.conforms(to: .jpeg))
        #expect(UTType.image.isSupertype(of: .jpeg))
        #expect(UTType.jpeg.isSubtype(of: .image))
        #expect(!UTType.jpeg.isSubtype(of: .jpeg))
        #expect(!UTType.jpeg.isSupertype(of: .jpeg))
        #expect(Set(UTType.heic.supertypes.map(\.identifier)) == ["public.heif-standard", "public.image", "public.data", "public.item", "public.content"])
        #expect(!UTType.jpeg.supertypes.contains(.jpeg))
        #expect(UTType.folder.conforms(to: .directory))
        #expect(!UTType.folder.conforms(to: .data))
    }

    @Test("tags: preferred extension and MIME type, and the way back")
    func tags() throws {
        #expect(UTType.jpeg.preferredFilenameExtension == "jpeg")
        #expect(UTType.jpeg.preferredMIMEType == "image/jpeg")
        #expect(UTType.jpeg.tags[.filenameExtension] == ["jpeg", "jpg", "jpe"])
        #expect(UTType(filenameExtension: "jpg") == .jpeg)
        #expect(UTType(filenameExtension: "JPG") == .jpeg)
        #expect(UTType(mimeType: "image/jpeg") == .jpeg)
        #expect(UTType(mimeType: "IMAGE/PNG") == .png)
        #expect(UTType(filenameExtension: "pdf") == .pdf)
        #expect(UTType.folder.preferredFilenameExtension == nil)
    }

    @Test("several types claiming a tag: the general one, public first, macOS's known choices")
    func tagPreference() {
        #expect(UTType(filenameExtension: "plist") == .propertyList)
        #expect(UTType(filenameExtension: "xml") == .xml)
        #expect(UTType(filenameExtension: "mp4") == .mpeg4Movie)
        #expect(UTType(filenameExtension: "otf")?.identifier == "public.opentype-font")
        // The default supertype is public.data: a package type is not a file's answer.
        #expect(UTType(filenameExtension: "pages")?.identifier == "com.apple.iWork.Pages.sffpages")
        #expect(UTType(filenameExtension: "pages", conformingTo: .package)?.identifier == "com.apple.iWork.Pages.pages")
        #expect(UTType(filenameExtension: "app", conformingTo: .directory)?.identifier == "com.apple.application-bundle")
        let all = UTType.types(tag: "plist", tagClass: .filenameExtension, conformingTo: nil).map(\.identifier)
        #expect(all == ["com.apple.property-list", "com.apple.ascii-property-list", "com.apple.binary-property-list", "com.apple.xml-property-list"])
    }

    @Test("unknown tags give dynamic types that remember the tag and conform to the asked supertype")
    func unknownTags() throws {
        let lua = try #require(UTType(filenameExtension: "lua"))
        #expect(lua.identifier == "dyn.ah62d4rv4ge8027pb")
        #expect(lua.isDynamic && !lua.isDeclared && !lua.isPublic && !lua.isSystem)
        #expect(lua.preferredFilenameExtension == "lua")
        #expect(lua.conforms(to: .data) && lua.conforms(to: .item) && !lua.conforms(to: .content))
        #expect(UTType(filenameExtension: "LUA") == lua)

        let mime = try #require(UTType(mimeType: "application/x-opensharing-test"))
        #expect(mime.isDynamic)
        #expect(mime.preferredMIMEType == "application/x-opensharing-test")
        #expect(mime.preferredFilenameExtension == nil)

        let image = try #require(UTType(filenameExtension: "xyzzy", conformingTo: .image))
        #expect(image.conforms(to: .image))
        // A declared type that does not conform to the asked supertype gives way to a dynamic one.
        let jpgText = try #require(UTType(filenameExtension: "jpg", conformingTo: .text))
        #expect(jpgText.isDynamic && jpgText.conforms(to: .text) && !jpgText.conforms(to: .image))
        #expect(UTType.types(tag: "xyzzy", tagClass: .filenameExtension, conformingTo: nil).count == 1)
    }

    @Test("every system identifier and tag is found in any case, and nothing one byte off is")
    func everyKeyOfTheTable() throws {
        // The index reads a key as words, folding them only when they are not the stored key as they are:
        // every length the table holds (1 to over 40 bytes) goes through it here, in both cases, with each
        // of its bytes changed in turn. The tables are the generator's; found here, its layout and hash
        // agree with the ones the lookup computes.
        var checked = 0
        for type in SystemTypeTable.identifiers.indices.map({ UTType(systemIndex: Int32($0)) }) {
            #expect(UTType(type.identifier.uppercased()) == type, "\(type.identifier)")
            #expect(UTType(type.identifier.lowercased()) == type, "\(type.identifier)")
            for (tagClass, tags) in type.tags {
                for tag in tags {
                    let found = UTType.types(tag: tag.uppercased(), tagClass: tagClass, conformingTo: nil)
                    #expect(found.contains(type), "\(tag) as \(tagClass)")
                    checked += 1
                }
            }
            // The identifier with one byte changed, or one more: never this type.
            let bytes = Array(type.identifier.utf8)
            for offset in bytes.indices {
                var changed = bytes
                changed[offset] = changed[offset] == UInt8(ascii: "~") ? UInt8(ascii: "^") : UInt8(ascii: "~")
                #expect(UTType(String(decoding: changed, as: UTF8.self)) != type, "\(type.identifier) at \(offset)")
            }
            #expect(UTType(type.identifier + "x") != type)
            #expect(UTType(type.identifier + "\u{0}") == nil)
            #expect(UTType("\u{0}" + type.identifier) == nil)
        }
        #expect(checked > 700)  // 754 tags in the table
        // Not ASCII: lowercased as Unicode, then looked up (and not found: no system tag is).
        let accented = try #require(UTType(filenameExtension: "ÉTÉ"))
        #expect(accented.isDynamic && accented.tags[.filenameExtension] == ["été"])
        // The Kelvin sign lowercases to an ASCII k: Unicode's lowercasing makes "key" of it, a system tag.
        let kelvin = try #require(UTType(filenameExtension: "\u{212A}EY"))
        #expect(kelvin.isSystem && kelvin == UTType(filenameExtension: "key"))
    }

    @Test("a key that ends where its page does is read without reading past it", arguments: [1, 3, 7, 8, 9, 15, 16, 17])
    func keyAtTheEndOfAPage(length: Int) throws {
        // Two pages, the second unreadable: a key placed to end at the first page's end is read in whole
        // words only where they stay inside the page, else copied out; a read past it would crash the test.
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = try #require(mmap(nil, 2 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(pages != MAP_FAILED)
        defer { munmap(pages, 2 * pageSize) }
        #expect(mprotect(pages + pageSize, pageSize, PROT_NONE) == 0)

        var checked = 0
        for key in Set(SystemTypeTable.shared.filenameExtensions.joined()) where key.utf8.count == length {
            let bytes = Array(key.uppercased().utf8)
            let start = (pages + pageSize - bytes.count).assumingMemoryBound(to: UInt8.self)
            start.initialize(from: bytes, count: bytes.count)
            let found = SystemTypeTable.byFilenameExtension.lookup(utf8: UnsafeBufferPointer(start: start, count: bytes.count))
            let first = try #require(found?.first, "\(key)")
            #expect(UTType(systemIndex: first).tags[.filenameExtension]?.contains(key) == true, "\(key)")
            checked += 1
        }
        #expect(checked > 0, "no system extension is \(length) bytes long")
    }

    @Test("invalid tags give nil")
    func invalidTags() {
        #expect(UTType(filenameExtension: "") == nil)
        #expect(UTType(mimeType: "") == nil)
        #expect(UTType(filenameExtension: "a\u{0}b") == nil)
        #expect(UTType.types(tag: "", tagClass: .mimeType, conformingTo: nil).isEmpty)
    }

    @Test("imported and exported types: the declared one when known, else undeclared under the parent")
    func importedAndExported() {
        #expect(UTType(importedAs: "public.jpeg") == .jpeg)
        let mine = UTType(exportedAs: "com.example.opensharing.undeclared", conformingTo: .json)
        #expect(!mine.isDeclared && !mine.isDynamic && !mine.isSystem)
        #expect(mine.conforms(to: .json) && mine.conforms(to: .text) && mine.conforms(to: .data))
        #expect(mine.identifier == "com.example.opensharing.undeclared")
        #expect(UTType(importedAs: "COM.EXAMPLE.OPENSHARING.UNDECLARED") == mine)
        let orphan = UTType(importedAs: "com.example.opensharing.orphan")
        #expect(orphan.supertypes.isEmpty)
        #expect(orphan.conforms(to: orphan))
    }

    @Test("public and descriptions")
    func properties() {
        #expect(UTType.jpeg.isPublic)
        #expect(!UTType.pdf.isPublic)
        #expect(UTType.jpeg.localizedDescription == "JPEG image")
        #expect(UTType.jpeg.description == "public.jpeg")
        #expect(UTType.jpeg.debugDescription == "public.jpeg (system)")
    }

    @Test("Codable: a type is its identifier")
    func codable() throws {
        let types: [UTType] = [.jpeg, UTType(filenameExtension: "lua")!, UTType(exportedAs: "com.example.codable")]
        let data = try JSONEncoder().encode(types)
        #expect(String(decoding: data, as: UTF8.self) == #"["public.jpeg","dyn.ah62d4rv4ge8027pb","com.example.codable"]"#)
        #expect(try JSONDecoder().decode([UTType].self, from: data) == types)
        #expect(performing: { try JSONDecoder().decode([UTType].self, from: Data(#"[""]"#.utf8)) }, throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.codingPath.count == 1
        })
    }

    @Test("Hashable agrees with equality across spellings")
    func hashable() {
        let set: Set<UTType> = [.jpeg, UTType("PUBLIC.JPEG")!, UTType(filenameExtension: "jpg")!]
        #expect(set.count == 1)
        let a = UTType(importedAs: "com.example.Hash"), b = UTType(importedAs: "com.example.hash")
        #expect(a == b && a.hashValue == b.hashValue)
    }
}

/// The repository's root, for tests that read its data files.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
