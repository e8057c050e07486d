import Foundation
import PackageSupport
@testable import OpenItemProvider
import OpenUniformTypeIdentifiers
import Testing

@Suite("Objects: NSItemProviderReading and Writing")
struct ObjectTests {
    @Test("a string object offers UTF-8 text and loads back as String and NSString")
    func strings() async throws {
        let provider = NSItemProvider(object: "héllo" as NSString)
        #expect(provider.registeredTypeIdentifiers == ["public.utf8-plain-text"])
        #expect(provider.canLoadObject(ofClass: String.self))
        #expect(provider.canLoadObject(ofClass: NSString.self))
        #expect(!provider.canLoadObject(ofClass: URL.self))
        let string: String? = await withCheckedContinuation { continuation in
            provider.loadObject(ofClass: String.self) { value, _ in continuation.resume(returning: value) }
        }
        #expect(string == "héllo")
        let (data, _) = await loadData(provider, .plainText)
        #expect(data == Data("héllo".utf8))
    }

    @Test("a URL object offers the URL, a file URL for files, and its text")
    func urls() async throws {
        let web = NSItemProvider(object: URL(string: "https://example.com/a?b=c")! as NSURL)
        #expect(web.registeredTypeIdentifiers == ["public.url", "public.utf8-plain-text"])
        let url: URL? = await withCheckedContinuation { continuation in
            web.loadObject(ofClass: URL.self) { value, _ in continuation.resume(returning: value) }
        }
        #expect(url == URL(string: "https://example.com/a?b=c"))
        let file = NSItemProvider(object: URL(fileURLWithPath: "/tmp/x.txt") as NSURL)
        #expect(file.registeredTypeIdentifiers == ["public.file-url", "public.url", "public.utf8-plain-text"])
    }

    @Test("a URL reads from a property list wrapping it, as some hosts send public.url")
    func wrappedURL() throws {
        let plist = try PropertyListSerialization.data(fromPropertyList: ["https://example.com/wrapped", "", [String: String]()], format: .binary, options: 0)
        let url = try NSURL.object(withItemProviderData: plist, typeIdentifier: "public.url")
        #expect(url.absoluteString == "https://example.com/wrapped")
        #expect(performing: { try NSURL.object(withItemProviderData: Data("not a url".utf8), typeIdentifier: "public.url") },
                throws: { error in let cocoa = error as NSError; return cocoa.domain == NSItemProviderErrorDomain && cocoa.code == NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue && cocoa.localizedDescription == "The public.url data holds no URL." })
    }

    @Test("UTF-16 text reads with its byte-order mark")
    func utf16() throws {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00]
        #expect(try NSString.object(withItemProviderData: Data(bytes), typeIdentifier: "public.utf16-plain-text") == "hi")
        #expect(performing: { try NSString.object(withItemProviderData: Data([0xFF, 0xFF]), typeIdentifier: "public.utf8-plain-text") },
                throws: { error in let cocoa = error as NSError; return cocoa.domain == NSItemProviderErrorDomain && cocoa.code == NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue && cocoa.localizedDescription == "The public.utf8-plain-text data is not UTF-8 text." })
    }

    @Test("registerObject(ofClass:) makes the object on demand; a class that cannot read what exists gets Apple's error")
    func objectClass() async throws {
        let provider = NSItemProvider()
        let made = Counter()
        provider.registerObject(ofClass: String.self, visibility: .all) { completion in
            made.increment()
            completion("made later", nil)
            return nil
        }
        #expect(made.value == 0)
        let string: String? = await withCheckedContinuation { continuation in
            provider.loadObject(ofClass: String.self) { value, _ in continuation.resume(returning: value) }
        }
        #expect(string == "made later")
        #expect(made.value == 1)
        let failure: NSError? = await withCheckedContinuation { continuation in
            provider.loadObject(ofClass: URL.self) { _, error in continuation.resume(returning: error as NSError?) }
        }
        #expect(failure?.domain == NSItemProviderErrorDomain)
        #expect(failure?.code == NSItemProvider.ErrorCode.unavailableCoercionError.rawValue)
        #expect(failure?.localizedDescription == "NSURL reads public.url; the item provider has public.utf8-plain-text.")
    }

    @Test("data that the class cannot read gives unexpectedValueClass")
    func badData() async throws {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .url) { completion in
            completion(Data([0xFF, 0x00]), nil)
            return nil
        }
        let error: NSError? = await withCheckedContinuation { continuation in
            provider.loadObject(ofClass: URL.self) { _, error in continuation.resume(returning: error as NSError?) }
        }
        #expect(error?.code == NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue)
    }
}

@Suite("The legacy API")
struct LegacyTests {
    func item(_ provider: NSItemProvider, _ type: String) async -> ((any NSSecureCoding)?, NSError?) {
        let box: UncheckedBox<((any NSSecureCoding)?, NSError?)> = await withCheckedContinuation { continuation in
            provider.loadItem(forTypeIdentifier: type, options: nil) { item, error in
                continuation.resume(returning: UncheckedBox((item, error as NSError?)))
            }
        }
        return box.value
    }

    @Test("loadItem hands over what was registered, uncoerced: a URL stays a URL where an image was asked for")
    func uncoerced() async throws {
        let url = URL(fileURLWithPath: "/var/mobile/Media/DCIM/IMG_0001.JPG")
        let provider = NSItemProvider(item: url as NSURL, typeIdentifier: "public.jpeg")
        #expect(provider.hasItemConformingToTypeIdentifier("public.image"))
        let (loaded, error) = await item(provider, "public.image")
        #expect(error == nil)
        #expect((loaded as Any) as? URL == url)
        #expect((loaded as Any) as? Data == nil)
    }

    @Test("loadItem of a data representation is NSData; of a file representation the loader's URL; of an object the object")
    func bridged() async throws {
        let scratch = try Scratch()
        let file = try scratch.file("a.txt", "A")
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .png) { completion in completion(Data([1, 2]), nil); return nil }
        provider.registerFileRepresentation(for: .plainText) { completion in completion(file, false, nil); return nil }
        provider.registerObject(URL(string: "https://example.com")! as NSURL, visibility: .all)
        #expect((await item(provider, "public.png")).0 as Any as? Data == Data([1, 2]))
        #expect((await item(provider, "public.plain-text")).0 as Any as? URL == file)
        #expect((await item(provider, "public.url")).0 as Any as? URL == URL(string: "https://example.com"))
        let missing = await item(provider, "com.adobe.pdf")
        #expect(missing.1?.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue)
    }

    @Test("the modern API reads legacy items: data as data, a file URL as the file, a plist as a binary plist")
    func modernOverLegacy() async throws {
        let scratch = try Scratch()
        let file = try scratch.file("legacy.txt", "legacy file")
        let provider = NSItemProvider(item: file as NSURL, typeIdentifier: "public.plain-text")
        #expect(await loadData(provider, .plainText).0 == Data("legacy file".utf8))
        let copied = await observeFile(provider, .plainText, openInPlace: false)
        #expect(copied.contents == "legacy file" && copied.url != file)

        let page = NSItemProvider(item: [NSExtensionJavaScriptPreprocessingResultsKey: ["title": "Page"]] as NSDictionary,
                                  typeIdentifier: "com.apple.property-list")
        let plist = try #require(await loadData(page, .propertyList).0)
        let decoded = try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]
        #expect((decoded?[NSExtensionJavaScriptPreprocessingResultsKey] as? [String: String])?["title"] == "Page")

        let object = NSItemProvider(item: NSNumber(value: 3), typeIdentifier: "public.data")
        let refused = await loadData(object, .data)
        #expect(refused.1?.code == NSItemProvider.ErrorCode.unavailableCoercionError.rawValue)
    }

    @Test("registerItem's handler gets the options; async loadItem")
    func registerItem() async throws {
        let provider = NSItemProvider()
        provider.registerItem(forTypeIdentifier: "public.plain-text") { completion, _, options in
            completion?(("options: \(options?.count ?? 0)" as NSString), nil)
        }
        let item = try await provider.loadItem(forTypeIdentifier: "public.plain-text", options: ["k": "v"])
        #expect(item as Any as? String == "options: 1")
        await #expect(performing: { try await provider.loadItem(forTypeIdentifier: "public.jpeg") },
                      throws: { error in let cocoa = error as NSError; return cocoa.domain == NSItemProviderErrorDomain && cocoa.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue })
    }

    @Test("init(contentsOf:) infers the type from the extension; nil for a missing file")
    func contentsOf() throws {
        let scratch = try Scratch()
        let file = try scratch.file("photo.jpg", "not really")
        #expect(NSItemProvider(contentsOf: file)?.registeredTypeIdentifiers == ["public.jpeg"])
        #expect(NSItemProvider(contentsOf: scratch.url.appendingPathComponent("missing.jpg")) == nil)
        let typed = NSItemProvider(contentsOf: file, contentType: .image, openInPlace: true)
        #expect(typed.registeredContentTypes == [.image])
        #expect(typed.registeredContentTypesForOpenInPlace == [.image])
    }

    @Test("preview images come from previewImageHandler, with the options; without one, an error")
    func previews() async throws {
        let provider = NSItemProvider()
        await #expect(performing: { try await provider.loadPreviewImage(options: [:]) },
                      throws: { error in let cocoa = error as NSError; return cocoa.domain == NSItemProviderErrorDomain && cocoa.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue && cocoa.localizedDescription == "The item provider has no preview image handler." })
        provider.previewImageHandler = { completion, _, options in
            let size = options?[NSItemProviderPreferredImageSizeKey] as? Int ?? 0
            completion?(NSData(data: Data(count: size)), nil)
        }
        let preview = try await provider.loadPreviewImage(options: [NSItemProviderPreferredImageSizeKey: 16])
        #expect((preview as Any as? Data)?.count == 16)
    }
}

@Suite("Registration and fidelity")
struct RegistrationTests {
    @Test("representations keep registration order; re-registering a type replaces it where it stands")
    func order() {
        let provider = NSItemProvider()
        for type in [UTType.heic, .jpeg, .png] {
            provider.registerDataRepresentation(for: type) { _ in nil }
        }
        provider.registerFileRepresentation(for: .jpeg) { _ in nil }
        #expect(provider.registeredTypeIdentifiers == ["public.heic", "public.jpeg", "public.png"])
        #expect(provider.registeredContentTypes(conformingTo: .image) == [.heic, .jpeg, .png])
        #expect(provider.registeredTypeIdentifiers(fileOptions: .openInPlace).isEmpty)
        let copy = provider.copy() as! NSItemProvider
        #expect(copy.registeredTypeIdentifiers == provider.registeredTypeIdentifiers)
    }

    @Test("loads pick the first representation in fidelity order that conforms")
    func fidelity() async {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .heic) { c in c(Data("heic".utf8), nil); return nil }
        provider.registerDataRepresentation(for: .jpeg) { c in c(Data("jpeg".utf8), nil); return nil }
        #expect(await loadData(provider, .image).0 == Data("heic".utf8))
        #expect(await loadData(provider, .jpeg).0 == Data("jpeg".utf8))
    }
}

@Suite("Visibility")
struct VisibilityTests {
    func provider() -> NSItemProvider {
        let provider = NSItemProvider()
        provider.origin = .init(processIdentifier: 100, teamIdentifier: "TEAM1", applicationGroups: ["group.one"])
        provider.registerDataRepresentation(forTypeIdentifier: "public.jpeg", visibility: .all) { c in c(Data(), nil); return nil }
        provider.registerDataRepresentation(forTypeIdentifier: "public.png", visibility: .team) { c in c(Data(), nil); return nil }
        provider.registerDataRepresentation(forTypeIdentifier: "public.heic", visibility: .group) { c in c(Data(), nil); return nil }
        provider.registerDataRepresentation(forTypeIdentifier: "com.adobe.pdf", visibility: .ownProcess) { c in c(Data(), nil); return nil }
        return provider
    }

    @Test("each consumer sees what its relation to the origin allows", arguments: [
        (NSItemProvider.Party(processIdentifier: 100), ["public.jpeg", "public.png", "public.heic", "com.adobe.pdf"]),
        (NSItemProvider.Party(processIdentifier: 200, teamIdentifier: "TEAM1"), ["public.jpeg", "public.png"]),
        (NSItemProvider.Party(processIdentifier: 200, applicationGroups: ["group.one"]), ["public.jpeg", "public.heic"]),
        (NSItemProvider.Party(processIdentifier: 200, teamIdentifier: "TEAM2", applicationGroups: ["group.two"]), ["public.jpeg"]),
    ])
    func visible(_ consumer: NSItemProvider.Party, _ expected: [String]) async {
        let provider = provider()
        provider.consumer = consumer
        #expect(provider.registeredTypeIdentifiers == expected)
        #expect(provider.hasItemConformingToTypeIdentifier("com.adobe.pdf") == expected.contains("com.adobe.pdf"))
        let pdf = await loadData(provider, .pdf)
        #expect((pdf.1 == nil) == expected.contains("com.adobe.pdf"))
    }

    @Test("an object's own visibility narrows the registration's")
    func objectVisibility() {
        let provider = NSItemProvider()
        provider.origin = .init(processIdentifier: 1)
        provider.consumer = .init(processIdentifier: 2)
        provider.registerObject("text" as NSString, visibility: .ownProcess)
        #expect(provider.registeredTypeIdentifiers.isEmpty)
    }
}
