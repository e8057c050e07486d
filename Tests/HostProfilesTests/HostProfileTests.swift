import Foundation
@testable import HostProfiles
import SharingShim
import Testing

/// What each profile's share delivers, representation by representation, loaded three ways.
@Suite("Host profiles")
struct HostProfileTests {
    func probe(_ name: String) async throws -> ShareProbe {
        let fixture = try ShareFixture.read(from: examples.appendingPathComponent("shares/\(name).json"))
        return await ShareProbe.probe(try fixture.makeItems(relativeTo: examples.appendingPathComponent("shares")))
    }

    func outcomes(_ probe: ShareProbe, item: Int = 0, attachment: Int = 0, _ type: String) -> ShareProbe.Representation? {
        probe.items[item].attachments?[attachment].representations.first { $0.type == type }
    }

    /// The whole of what each example share delivers, against the reviewed record in `Expected/`.
    @Test("every profile delivers exactly what its record says", arguments: HostProfile.all.map(\.name))
    func record(_ name: String) async throws {
        let fixture = try ShareFixture.read(from: examples.appendingPathComponent("shares/\(name).json"))
        let probed = await ShareProbe.probe(try fixture.makeItems(relativeTo: examples.appendingPathComponent("shares")))
        let expected = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/HostProfilesTests/Expected/\(name).txt"), encoding: .utf8)
        let root = repositoryRoot.standardizedFileURL.path
        #expect(probed.outline(of: fixture).replacingOccurrences(of: root, with: "$ROOT") + "\n" == expected)
    }

    @Test("Photos: one item, a provider per photo; loadItem gives a file URL, not data")
    func photos() async throws {
        let probe = try await probe("photos")
        #expect(probe.items.count == 1 && probe.items[0].attachments?.count == 3)
        let jpeg = try #require(outcomes(probe, "public.jpeg"))
        #expect(jpeg.data == .delivered("31863 bytes"))
        #expect(jpeg.item.description.hasPrefix("NSURL file://") && jpeg.item.description.hasSuffix("/Examples/files/sunset.jpg"))
    }

    @Test("a Live Photo's first type fails; the still after it loads")
    func livePhoto() async throws {
        let probe = try await probe("live-photo")
        let live = try #require(outcomes(probe, "com.apple.live-photo"))
        #expect(live.data == .failed("PHPhotosErrorDomain -1: The Live Photo cannot be provided as data."))
        #expect(live.file == live.data && live.item == live.data)
        #expect(try #require(outcomes(probe, "public.jpeg")).file == .delivered("sunset.jpeg, 31863 bytes"))
    }

    @Test("Messages: loadItem points at a path the extension cannot read; the provider still delivers the image")
    func messages() async throws {
        let probe = try await probe("messages")
        let jpeg = try #require(outcomes(probe, "public.jpeg"))
        let item = jpeg.item.description
        #expect(item.hasPrefix("NSURL file:///private/var/mobile/Library/SMS/Attachments/"))
        let path = String(item.dropFirst("NSURL file://".count))
        #expect(!FileManager.default.isReadableFile(atPath: path))
        #expect(jpeg.data == .delivered("31863 bytes"))
        let url = try #require(outcomes(probe, "public.url"))
        guard case .failed(let error) = url.data else { Issue.record("public.url data loaded"); return }
        #expect(error.contains("does not exist"))
    }

    @Test("the screenshot editor: an image object; asking for public.data fails, public.png works")
    func screenshot() async throws {
        let fixture = try ShareFixture.read(from: examples.appendingPathComponent("shares/screenshot.json"))
        let provider = try #require(try fixture.makeItems(relativeTo: examples.appendingPathComponent("shares"))[0].attachments?[0])
        await #expect(performing: { try await provider.loadData(for: .data) },
                      throws: { ($0 as NSError).domain == NSItemProviderErrorDomain && ($0 as NSError).code == NSItemProvider.ErrorCode.unavailableCoercionError.rawValue
                                && ($0 as NSError).localizedDescription == "Could not coerce an item to class NSData" })
        #expect(try await provider.loadData(for: .png).count == 1544)
        let item = try await provider.loadItem(forTypeIdentifier: "public.png", options: nil)
        #expect(item is UIImage)
        let dataItem: (any Error)? = await withCheckedContinuation { continuation in
            provider.loadItem(forTypeIdentifier: "public.data", options: nil) { _, error in continuation.resume(returning: error) }
        }
        #expect((dataItem as NSError?)?.code == NSItemProvider.ErrorCode.unavailableCoercionError.rawValue)
    }

    @Test("Files: the first public.item is a property list wrapping the URL, named 'file URL'")
    func files() async throws {
        let fixture = try ShareFixture.read(from: examples.appendingPathComponent("shares/files.json"))
        let provider = try #require(try fixture.makeItems(relativeTo: examples.appendingPathComponent("shares"))[0].attachments?[0])
        let file = try await provider.loadFile(for: .item)
        #expect(file.url.lastPathComponent == "file URL")
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: file.url), format: nil)
        #expect((plist as? String)?.hasSuffix("/File%20Provider%20Storage/report.pdf") == true)
        #expect(try await provider.loadObject(ofClass: URL.self).lastPathComponent == "report.pdf")
        #expect(try await provider.loadData(for: .pdf).count == 592)
    }

    @Test("Safari with a preprocessing script: the results under NSExtensionJavaScriptPreprocessingResultsKey")
    func safariJavaScript() async throws {
        let fixture = try ShareFixture.read(from: examples.appendingPathComponent("shares/safari-javascript.json"))
        let provider = try #require(try fixture.makeItems(relativeTo: examples)[0].attachments?[0])
        let item = try await provider.loadItem(forTypeIdentifier: "com.apple.property-list", options: nil)
        let results = (item as? NSDictionary)?[NSExtensionJavaScriptPreprocessingResultsKey] as? NSDictionary
        #expect(results?["URL"] as? String == "https://www.apple.com/newsroom/")
        #expect(results?["selection"] as? String == "the selected words")
    }

    @Test("the degenerate shares: no items, no attachments key, an empty attachment, one page three times")
    func degenerate() async throws {
        #expect(try await probe("empty").items.isEmpty)
        let noAttachments = try await probe("no-attachments")
        #expect(noAttachments.items.count == 1 && noAttachments.items[0].attachments == nil)
        let emptyAttachment = try await probe("empty-attachment")
        #expect(emptyAttachment.items[0].attachments?[0].representations.isEmpty == true)
        #expect(try await probe("duplicates").items.count == 3)
        let mail = try await probe("mail")
        #expect(mail.items[0].attachments == [] && mail.items[0].contentText?.hasPrefix("Hello") == true)
    }

    @Test("profiles refuse content they do not share, saying what they need")
    func refusals() {
        #expect(throws: HostProfileError(code: .missingContent, profile: "safari", message: "shares a page URL and was given none", missing: .url)) {
            try HostProfile.named("safari")!.share(SharedContent())
        }
        #expect(throws: HostProfileError(code: .missingContent, profile: "photos", message: "shares photos or videos and was given none", missing: .file)) {
            try HostProfile.named("photos")!.share(SharedContent(files: [examples.appendingPathComponent("files/report.pdf")]))
        }
        #expect(HostProfile.named("SAFARI")?.name == "safari")
        #expect(HostProfile.named("netscape") == nil)
    }

    @Test("the README lists every profile")
    func readme() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for profile in HostProfile.all { #expect(readme.contains("| `\(profile.name)` |"), "\(profile.name)") }
    }
}

@Suite("Faults")
struct FaultTests {
    func provider(_ fault: ShareFixture.Fault, provide: ShareFixture.Provision = .data) throws -> NSItemProvider {
        let fixture = ShareFixture(items: [.init(attachments: [.init(representations: [
            .init(type: "public.plain-text", provide: provide, payload: .text("payload"), fault: fault),
        ])])])
        return try #require(try fixture.makeItems(relativeTo: examples)[0].attachments?[0])
    }

    @Test("a loader that never completes: the load times out, and cancelling it ends it")
    func never() async throws {
        let probe = await ShareProbe.probe([{ let item = NSExtensionItem(); item.attachments = [try! provider(.neverCompletes)]; return item }()],
                                           timeout: .milliseconds(200))
        let representation = try #require(probe.items[0].attachments?[0].representations[0])
        #expect(representation.data == .timedOut && representation.file == .timedOut && representation.item == .timedOut)
    }

    @Test("a slow loader answers after its delay")
    func slow() async throws {
        let start = ContinuousClock.now
        #expect(try await provider(.slow(seconds: 0.3)).loadData(for: .plainText) == Data("payload".utf8))
        #expect(ContinuousClock.now - start >= .milliseconds(300))
    }

    @Test("an unexpected class from loadItem")
    func unexpectedClass() async throws {
        let item = try await provider(.unexpectedClass(.base64(Data([1, 2, 3]))), provide: .item).loadItem(forTypeIdentifier: "public.plain-text")
        #expect(item is NSData)
    }

    @Test("representations the consumer may not see stay hidden: the host is another process")
    func visibility() throws {
        let fixture = ShareFixture(origin: .init(team: "HOSTTEAM"), consumer: .init(team: "HOSTTEAM"), items: [.init(attachments: [.init(representations: [
            .init(type: "public.jpeg", provide: .data, payload: .text("a"), visibility: .ownProcess),
            .init(type: "public.png", provide: .data, payload: .text("b"), visibility: .team),
            .init(type: "public.heic", provide: .data, payload: .text("c"), visibility: .group),
        ])])])
        let provider = try #require(try fixture.makeItems(relativeTo: examples)[0].attachments?[0])
        #expect(provider.registeredTypeIdentifiers == ["public.png"])
    }
}
