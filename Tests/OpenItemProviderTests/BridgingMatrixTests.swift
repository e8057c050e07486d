import Foundation
@testable import OpenItemProvider
import OpenUniformTypeIdentifiers
import Testing

/// All nine cells of the matrix: provided as data, a file to copy, or a file to open in place; consumed as
/// data, a file copy, or open in place.
@Suite("The bridging matrix")
struct BridgingMatrixTests {
    let scratch: Scratch
    let original: URL

    init() throws {
        scratch = try Scratch()
        original = try scratch.file("note.txt", "from a file")
    }

    func dataProvider() -> NSItemProvider {
        let provider = NSItemProvider()
        provider.suggestedName = "Greeting"
        provider.registerDataRepresentation(for: .plainText) { completion in
            completion(Data("hello".utf8), nil)
            return nil
        }
        return provider
    }

    func fileProvider(openInPlace: Bool) -> NSItemProvider {
        let provider = NSItemProvider()
        let url = original
        provider.registerFileRepresentation(for: .plainText, openInPlace: openInPlace) { completion in
            completion(url, false, nil)
            return nil
        }
        return provider
    }

    @Test("data → data: the data")
    func dataAsData() async {
        let (data, error) = await loadData(dataProvider(), .plainText)
        #expect(error == nil)
        #expect(data == Data("hello".utf8))
    }

    @Test("data → file copy: the data in a temporary file, named from suggestedName, gone after the handler")
    func dataAsFile() async throws {
        let seen = await observeFile(dataProvider(), .plainText, openInPlace: false)
        let url = try #require(seen.url)
        #expect(url.lastPathComponent == "Greeting.txt")
        #expect(seen.contents == "hello")
        #expect(!seen.openedInPlace)
        #expect(await waitUntilGone(url))
    }

    @Test("data → open in place: the same temporary copy, openInPlace == false")
    func dataInPlace() async throws {
        let seen = await observeFile(dataProvider(), .plainText, openInPlace: true)
        let url = try #require(seen.url)
        #expect(seen.contents == "hello")
        #expect(!seen.openedInPlace)
        #expect(await waitUntilGone(url))
    }

    @Test("file to copy → data: the file's contents")
    func fileAsData() async {
        let (data, error) = await loadData(fileProvider(openInPlace: false), .plainText)
        #expect(error == nil)
        #expect(data == Data("from a file".utf8))
    }

    @Test("file to copy → file copy: a copy keeping the provider's name; the original stays")
    func fileAsFile() async throws {
        let seen = await observeFile(fileProvider(openInPlace: false), .plainText, openInPlace: false)
        let url = try #require(seen.url)
        #expect(url != original)
        #expect(url.lastPathComponent == "note.txt")
        #expect(seen.contents == "from a file")
        #expect(!seen.openedInPlace)
        #expect(await waitUntilGone(url))
        #expect(FileManager.default.fileExists(atPath: original.path))
    }

    @Test("file to copy → open in place: a copy, openInPlace == false")
    func fileInPlace() async throws {
        let seen = await observeFile(fileProvider(openInPlace: false), .plainText, openInPlace: true)
        let url = try #require(seen.url)
        #expect(url != original)
        #expect(!seen.openedInPlace)
        #expect(seen.contents == "from a file")
        #expect(await waitUntilGone(url))
    }

    @Test("file to open in place → data: the file's contents")
    func inPlaceAsData() async {
        let (data, _) = await loadData(fileProvider(openInPlace: true), .plainText)
        #expect(data == Data("from a file".utf8))
    }

    @Test("file to open in place → file copy: a copy")
    func inPlaceAsFile() async throws {
        let seen = await observeFile(fileProvider(openInPlace: true), .plainText, openInPlace: false)
        let url = try #require(seen.url)
        #expect(url != original)
        #expect(!seen.openedInPlace)
        #expect(await waitUntilGone(url))
    }

    @Test("file to open in place → open in place: the original URL, openInPlace == true, left alone")
    func inPlaceInPlace() async throws {
        let seen = await observeFile(fileProvider(openInPlace: true), .plainText, openInPlace: true)
        #expect(seen.url == original)
        #expect(seen.openedInPlace)
        try await Task.sleep(for: .milliseconds(50))
        #expect(FileManager.default.fileExists(atPath: original.path))
    }

    @Test("open in place falls back to a copy when the policy says the file is not eligible")
    func ineligible() async throws {
        let provider = fileProvider(openInPlace: true)
        provider.openInPlaceEligibility = { _ in false }
        let seen = await observeFile(provider, .plainText, openInPlace: true)
        #expect(seen.url != original)
        #expect(!seen.openedInPlace)
        #expect(seen.contents == "from a file")
    }

    @Test("string identifiers: loadFileRepresentation and loadInPlaceFileRepresentation")
    func identifierAPI() async throws {
        let provider = fileProvider(openInPlace: true)
        #expect(provider.registeredTypeIdentifiers(fileOptions: .openInPlace) == ["public.plain-text"])
        #expect(provider.hasRepresentationConforming(toTypeIdentifier: "public.text", fileOptions: .openInPlace))
        let copied: URL? = await withCheckedContinuation { continuation in
            provider.loadFileRepresentation(forTypeIdentifier: "public.plain-text") { url, _ in continuation.resume(returning: url) }
        }
        #expect(copied != nil && copied != original)
        let inPlace: (URL?, Bool) = await withCheckedContinuation { continuation in
            provider.loadInPlaceFileRepresentation(forTypeIdentifier: "public.plain-text") { url, inPlace, _ in
                continuation.resume(returning: (url, inPlace))
            }
        }
        #expect(inPlace.0 == original && inPlace.1)
    }
}

@Suite("Directories")
struct DirectoryTests {
    let scratch: Scratch
    let album: URL

    init() throws {
        scratch = try Scratch()
        try scratch.file("Album/a.txt", "A")
        try scratch.file("Album/sub/b.txt", "B")
        try scratch.file("secret.txt", "outside")
        album = scratch.url.appendingPathComponent("Album")
        try FileManager.default.createSymbolicLink(atPath: album.appendingPathComponent("inside-link").path, withDestinationPath: "sub/b.txt")
        try FileManager.default.createSymbolicLink(atPath: album.appendingPathComponent("outside-link").path, withDestinationPath: "../secret.txt")
    }

    func provider(openInPlace: Bool = false) -> NSItemProvider {
        let provider = NSItemProvider()
        let url = album
        provider.registerFileRepresentation(for: .folder, openInPlace: openInPlace) { completion in
            completion(url, false, nil)
            return nil
        }
        return provider
    }

    @Test("loaded as data: a zip archive whose only root entry is the directory, read by unzip")
    func asZip() async throws {
        let (data, error) = await loadData(provider(), .folder)
        #expect(error == nil)
        let entries = try unzipList(try #require(data))
        #expect(entries.allSatisfy { $0.hasPrefix("Album/") })
        #expect(entries.contains("Album/a.txt"))
        #expect(entries.contains("Album/sub/b.txt"))
        #expect(Set(entries.map { $0.split(separator: "/").first! }) == ["Album"])
    }

    @Test("loaded as a file: a copy of the whole tree; a link out of it is left out")
    func asTree() async throws {
        let seen = await observeFile(provider(), .folder, openInPlace: false)
        let url = try #require(seen.url)
        #expect(url.lastPathComponent == "Album")
        #expect(seen.entries == ["a.txt", "inside-link", "sub", "sub/b.txt"])
        #expect(await waitUntilGone(url))
    }

    @Test("never opened in place, even when registered so")
    func neverInPlace() async throws {
        let seen = await observeFile(provider(openInPlace: true), .folder, openInPlace: true)
        let url = try #require(seen.url)
        #expect(url != album)
        #expect(!seen.openedInPlace)
    }
}

@Suite("File names")
struct FileNameTests {
    func dataName(suggested: String?, type: UTType) async throws -> String {
        let provider = NSItemProvider()
        provider.suggestedName = suggested
        provider.registerDataRepresentation(for: type) { completion in
            completion(Data("x".utf8), nil)
            return nil
        }
        return try #require(await observeFile(provider, type, openInPlace: false).url).lastPathComponent
    }

    func copyName(file name: String, suggested: String? = nil, type: UTType) async throws -> String {
        let scratch = try Scratch()
        let file = try scratch.file(name, "x")
        let provider = NSItemProvider()
        provider.suggestedName = suggested
        provider.registerFileRepresentation(for: type) { completion in
            completion(file, false, nil)
            return nil
        }
        return try #require(await observeFile(provider, type, openInPlace: false).url).lastPathComponent
    }

    @Test("suggestedName, with the type's extension added")
    func suggested() async throws {
        #expect(try await dataName(suggested: "Holiday", type: .jpeg) == "Holiday.jpeg")
        #expect(try await dataName(suggested: "Holiday.JPG", type: .jpeg) == "Holiday.JPG")
        #expect(try await dataName(suggested: "Holiday.png", type: .jpeg) == "Holiday.jpeg")
        #expect(try await dataName(suggested: "Report v1.0 final", type: .pdf) == "Report v1.0 final.pdf")
    }

    @Test("with neither name, the type's description")
    func described() async throws {
        #expect(try await dataName(suggested: nil, type: .jpeg) == "JPEG image.jpeg")
        #expect(try await dataName(suggested: nil, type: .heic) == "item.heic")
    }

    @Test("copies keep the provider's file name; suggestedName overrides it")
    func copies() async throws {
        #expect(try await copyName(file: "scan.PDF", type: .pdf) == "scan.PDF")
        #expect(try await copyName(file: "photo", type: .png) == "photo.png")
        #expect(try await copyName(file: "photo", suggested: "Sunset", type: .png) == "Sunset.png")
    }

    @Test("the sender's name is sanitized", arguments: [
        ("../../etc/passwd", "passwd.txt"),
        ("/etc/passwd", "passwd.txt"),
        ("a/b", "b.txt"),
        ("nul\u{0}in\u{7}side", "nulinside.txt"),
        ("..", "item.txt"),
        (".hidden", "hidden.txt"),
        ("trailing... ", "trailing.txt"),
        ("CON", "_CON.txt"),
        ("evil\u{202E}txt.exe", "eviltxt.txt"),
        ("cafe\u{301}", "caf\u{E9}.txt"),
    ])
    func sanitized(_ name: String, _ expected: String) async throws {
        #expect(try await dataName(suggested: name, type: .plainText) == expected)
    }

    @Test("a 1,000-byte name is cut to 255 bytes at a character boundary, keeping the extension")
    func long() async throws {
        let name = try await dataName(suggested: String(repeating: "é", count: 500), type: .plainText)
        #expect(name.utf8.count <= 255)
        #expect(name.hasSuffix(".txt"))
        #expect(name.dropLast(4).allSatisfy { $0 == "é" })
    }
}
