import Foundation
import HostProfiles
import ShareInbox
@testable import ShareIntake
import SharingShim
import Testing
import Thumbnails

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let examples = repositoryRoot.appendingPathComponent("Examples")

/// A scratch directory for one test: an inbox, and files to share.
final class Scratch {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("opensharing-intake-\(UUID().uuidString)")
    lazy var inbox = try! ShareInbox(at: root.appendingPathComponent("inbox"))

    init() {
        try! FileManager.default.createDirectory(at: root.appendingPathComponent("files"), withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Writes a file to share.
    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) -> URL {
        let url = root.appendingPathComponent("files").appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(bytes).write(to: url)
        return url
    }

    func leftovers() -> [String] {
        ["tmp", "cur"].flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: inbox.url.appendingPathComponent(directory).path)) ?? []).map { "\(directory)/\($0)" }
        }
    }
}

let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x20, count: 60)
let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 60)
let pdfBytes: [UInt8] = Array("%PDF-1.7\n%%EOF\n".utf8)

/// One line per entry: "1.2 received public.jpeg name.jpeg", "1 skipped why", "1.1 failed".
func lines(_ report: IntakeReport) -> [String] {
    report.entries.map { entry in
        let place = "\(entry.item)" + (entry.attachment.map { ".\($0)" } ?? "")
        switch entry.outcome {
        case .received(let received): return "\(place) received \(received.type) \(received.name)"
        case .skipped(let reason): return "\(place) skipped \(reason)"
        case .failed: return "\(place) failed"
        }
    }
}

func item(_ providers: [NSItemProvider], text: String? = nil) -> NSExtensionItem {
    let item = NSExtensionItem()
    item.attachments = providers
    if let text { item.attributedContentText = NSAttributedString(string: text) }
    return item
}

func fileProvider(_ url: URL, type: UTType, name: String? = nil, openInPlace: Bool = false) -> NSItemProvider {
    let provider = NSItemProvider(contentsOf: url, contentType: type, openInPlace: openInPlace)
    provider.suggestedName = name
    return provider
}

@Suite("Receiving what host apps share")
struct HostShareTests {
    /// What each example share becomes in the inbox, accepting anything.
    static let expected: [String: [String]] = [
        "safari": ["1.1 received public.url www.apple.com.webloc"],
        "safari-javascript": ["1.1 received com.apple.binary-property-list property list.plist"],
        "safari-image": ["1.1 received public.jpeg JPEG image.jpeg", "2.1 received public.url example.com.webloc"],
        "chrome": ["1.1 received public.url www.swift.org.webloc"],
        "firefox": ["1.1 received public.url www.mozilla.org.webloc", "1.2 skipped the same as item 1, attachment 1"],
        "photos": ["1.1 received public.jpeg sunset.jpeg", "1.2 received public.png diagram.png", "1.3 received public.mpeg-4 clip.mp4"],
        "live-photo": ["1.1 received public.jpeg sunset.jpeg"],
        "live-photo-messages": ["1.1 received public.jpeg sunset.jpeg"],
        "live-photo-bundle": ["1.1 received com.apple.live-photo-bundle Sunset"],
        "messages": ["1.1 received public.jpeg sunset.jpeg"],
        "screenshot": ["1.1 received public.png PNG image.png"],
        "files": ["1.1 received com.adobe.pdf report.pdf", "1.2 received com.apple.private.live-photo-bundle Sunset.pvt"],
        "notes": ["1.1 received public.utf8-plain-text item.txt", "1.2 received public.png diagram.png"],
        "mail": ["1 received public.utf8-plain-text Quarterly report.txt"],
        "empty": [],
        "no-attachments": ["1 skipped the item has no attachments and no text"],
        "empty-attachment": ["1.1 skipped the attachment has no representations"],
        "duplicates": ["1.1 received public.url www.apple.com.webloc", "2.1 skipped the same as item 1, attachment 1",
                       "3.1 skipped the same as item 1, attachment 1"],
    ]

    @Test("every host profile's example share arrives as it should", arguments: HostProfile.all.map(\.name))
    func profile(_ name: String) async throws {
        let scratch = Scratch()
        let shares = examples.appendingPathComponent("shares")
        let fixture = try ShareFixture.read(from: shares.appendingPathComponent("\(name).json"))
        let context = NSExtensionContext(inputItems: try fixture.makeItems(relativeTo: shares))
        let report = try await ShareIntake(policy: IntakePolicy(loadTimeout: .seconds(2))).receive(from: context, into: scratch.inbox, host: name)
        #expect(lines(report) == Self.expected[name], "\(name)")
        // Each received item is whole: its bytes are what its manifest says.
        let pending = try scratch.inbox.pending()
        #expect(pending.count == report.received.count)
        for item in pending { #expect(try item.verify(), "\(name): \(item.manifest.name)") }
        #expect(scratch.leftovers().isEmpty)
        guard case .completed? = context.outcome else { Issue.record("\(name): the request did not complete"); return }
    }

    @Test("Photos' file URL where an image was promised arrives as the image; Messages' unreadable path too")
    func photosAndMessages() async throws {
        let scratch = Scratch()
        let shares = examples.appendingPathComponent("shares")
        for name in ["photos", "messages"] {
            let items = try ShareFixture.read(from: shares.appendingPathComponent("\(name).json")).makeItems(relativeTo: shares)
            let report = try await ShareIntake(policy: IntakePolicy(acceptedTypes: [.image])).receive(items, into: scratch.inbox)
            #expect(report.received.first?.hash == "blake3:51e52422d78db399c2b4c2e13e87034e06b9bc1a6ba37a805b1019d5f8d11cdc", "\(name)")
        }
    }

    @Test("a share of which nothing could be received is cancelled, saying which attachment failed and why, so that the person is told")
    func nothingReceivedCancels() async throws {
        let scratch = Scratch()
        let shares = examples.appendingPathComponent("shares")
        let context = NSExtensionContext(inputItems: try ShareFixture.read(from: shares.appendingPathComponent("messages.json")).makeItems(relativeTo: shares))
        let report = try await ShareIntake(policy: IntakePolicy(acceptedTypes: [.url])).receive(from: context, into: scratch.inbox)
        #expect(report.received.isEmpty)
        guard case .cancelled(let error)? = context.outcome else { Issue.record("\(String(describing: context.outcome))"); return }
        let cocoa = error as NSError
        #expect(cocoa.domain == NSItemProviderErrorDomain && cocoa.code == IntakeError.Code.itemUnavailable.rawValue, "\(cocoa)")
        #expect(cocoa.localizedDescription.hasPrefix("item 1, attachment 1: nothing of the share was received: public.url: "), "\(cocoa.localizedDescription)")
        #expect(try scratch.inbox.pending().isEmpty)
    }

    @Test("a share the policy takes nothing of is cancelled, saying why, where one with nothing in it completes",
          arguments: [true, false])
    func nothingTakenCancels(withContent: Bool) async throws {
        let scratch = Scratch()
        // A note declared as an image (a host's vague type), to an extension that takes images: the bytes say text.
        let note = scratch.file("note.txt", Array("a note, not a picture".utf8))
        let provider = NSItemProvider()
        if withContent {
            provider.registerFileRepresentation(forTypeIdentifier: "public.image", fileOptions: [], visibility: .all) { completion in
                completion(note, false, nil)
                return nil
            }
        }
        let item = NSExtensionItem()
        item.attachments = [provider]
        let context = NSExtensionContext(inputItems: [item])
        let report = try await ShareIntake(policy: IntakePolicy(acceptedTypes: [.image])).receive(from: context, into: scratch.inbox)
        #expect(report.received.isEmpty)
        guard withContent else {
            guard case .completed? = context.outcome else { Issue.record("\(String(describing: context.outcome))"); return }
            return
        }
        guard case .skipped(let reason)? = report.entries.first?.outcome else { Issue.record("\(report.entries)"); return }
        guard case .cancelled(let error)? = context.outcome else { Issue.record("\(String(describing: context.outcome))"); return }
        let cocoa = error as NSError
        #expect(cocoa.domain == "OpenSharing.ShareIntake" && cocoa.code == IntakeError.Code.refused.rawValue, "\(cocoa)")
        #expect(cocoa.localizedDescription == "item 1, attachment 1: nothing of the share was received: \(reason)")
        #expect(try scratch.inbox.pending().isEmpty)
    }

    @Test("Messages' URL representation is a file URL that cannot be read: it fails, saying so")
    func messagesURL() async throws {
        let scratch = Scratch()
        let shares = examples.appendingPathComponent("shares")
        let items = try ShareFixture.read(from: shares.appendingPathComponent("messages.json")).makeItems(relativeTo: shares)
        let report = try await ShareIntake(policy: IntakePolicy(acceptedTypes: [.url])).receive(items, into: scratch.inbox)
        guard case .failed(let reasons) = report.entries.first?.outcome else { Issue.record("expected a failure"); return }
        #expect(reasons.count == 1 && reasons[0].hasPrefix("public.url: ") && reasons[0].contains("does not exist"))
    }
}

@Suite("Choosing a representation")
struct SelectionTests {
    @Test("accepted types first, then precise before vague, content before a file URL, then fidelity", arguments: [
        (["public.image", "public.jpeg"], ["public.item"], ["public.jpeg", "public.image"]),
        (["public.file-url", "com.adobe.pdf"], ["public.item"], ["com.adobe.pdf", "public.file-url"]),
        (["public.jpeg", "public.url"], ["public.url", "public.image"], ["public.url", "public.jpeg"]),
        (["public.png", "public.jpeg"], ["public.image"], ["public.png", "public.jpeg"]),
        (["public.plain-text", "public.url"], ["public.url"], ["public.url"]),
        (["com.apple.live-photo", "public.jpeg"], ["public.item"], ["public.jpeg"]),
        (["com.example.unknown"], ["public.data"], ["com.example.unknown"]),
        (["public.movie"], ["public.image"], []),
    ])
    func order(_ registered: [String], _ accepted: [String], _ expected: [String]) {
        let ordered = Candidates.ordered(registered: registered, accepted: accepted.compactMap { UTType($0) })
        #expect(ordered.map(\.identifier) == expected)
    }

    @Test("a failed representation falls back to the next, and the report says what was tried first")
    func fallback() async throws {
        let scratch = Scratch()
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .heic) { completion in
            completion(nil, CocoaError(.fileReadCorruptFile))
            return nil
        }
        let png = scratch.file("still.png", pngBytes)
        provider.registerFileRepresentation(for: .png) { completion in
            completion(png, false, nil)
            return nil
        }
        let report = try await ShareIntake().receive([item([provider])], into: scratch.inbox)
        #expect(lines(report) == ["1.1 received public.png still.png"])
        #expect(report.received.first?.notes.first?.hasPrefix("tried first: public.heic: ") == true)
    }

    @Test("counts and sizes refuse before copying: skipped, not failed")
    func limits() async throws {
        let scratch = Scratch()
        let big = scratch.file("big.pdf", pdfBytes + Array(repeating: 0x20, count: 4096))
        let small = scratch.file("small.pdf", pdfBytes)
        let providers = [fileProvider(big, type: .pdf), fileProvider(small, type: .pdf), fileProvider(small, type: .pdf, name: "third.pdf")]
        let report = try await ShareIntake(policy: IntakePolicy(maximumCount: 2, maximumItemSize: 1024)).receive([item(providers)], into: scratch.inbox)
        #expect(lines(report) == [
            "1.1 skipped com.adobe.pdf: 4111 bytes, more than the maximum of 1024",
            "1.2 received com.adobe.pdf small.pdf",
            "1.3 skipped beyond the maximum of 2 attachments",
        ])
        #expect(report.failureCount == 0)
    }
}

@Suite("Hostile and broken shares")
struct HostileTests {
    @Test("hostile names become safe names; the original is kept in the manifest", arguments: [
        ("../../x", "x.jpeg"), ("/etc/passwd", "passwd.jpeg"), ("a/b", "b.jpeg"), ("nul\u{0}and\u{7}bell.jpg", "nulandbell.jpg"),
        ("..", "Image.jpeg"), (".hidden", "hidden.jpeg"), ("CON", "_CON.jpeg"), ("photo.jpg.exe", "photo.jpg.jpeg"),
    ])
    func names(_ hostile: String, _ safe: String) async throws {
        let scratch = Scratch()
        let photo = scratch.file("p.jpg", jpegBytes)
        let report = try await ShareIntake().receive([item([fileProvider(photo, type: .jpeg, name: hostile)])], into: scratch.inbox)
        #expect(lines(report) == ["1.1 received public.jpeg \(safe)"])
        let delivered = try #require(try scratch.inbox.pending().first)
        #expect(delivered.manifest.originalName == hostile)
        #expect(delivered.payloadURL.deletingLastPathComponent().lastPathComponent == "payload")
    }

    @Test("a 1,000-byte name is cut to 255 bytes, keeping its extension; names differing only in normalization both arrive, in NFC")
    func longAndUnicodeNames() async throws {
        let scratch = Scratch()
        let photo = scratch.file("p.jpg", jpegBytes)
        let long = String(repeating: "é", count: 500) + ".jpg"
        let composed = "Cr\u{E8}me.jpg", decomposed = "Cre\u{300}me.jpg"
        let providers = [fileProvider(photo, type: .jpeg, name: long), fileProvider(photo, type: .jpeg, name: composed),
                         fileProvider(scratch.file("q.jpg", jpegBytes + [1]), type: .jpeg, name: decomposed)]
        let report = try await ShareIntake().receive([item(providers)], into: scratch.inbox)
        let names = report.entries.compactMap { if case .received(let received) = $0.outcome { received.name } else { nil } }
        #expect(names.count == 2, "the second is the same bytes as the first: \(lines(report))")
        #expect(names[0].utf8.count <= 255 && names[0].hasSuffix(".jpg"))
        #expect(names[1] == composed)
        #expect(lines(report)[1] == "1.2 skipped the same as item 1, attachment 1")
    }

    @Test("links inside a shared directory that lead out are left out, and said so")
    func directoryLinks() async throws {
        let scratch = Scratch()
        let bundle = scratch.root.appendingPathComponent("files/Shared.bundle")
        scratch.file("Shared.bundle/inside.txt", Array("inside".utf8))
        try FileManager.default.createSymbolicLink(atPath: bundle.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        try FileManager.default.createSymbolicLink(atPath: bundle.appendingPathComponent("up").path, withDestinationPath: "../../..")
        try FileManager.default.createSymbolicLink(atPath: bundle.appendingPathComponent("same").path, withDestinationPath: "inside.txt")
        let provider = fileProvider(bundle, type: .bundle, openInPlace: true)
        let report = try await ShareIntake().receive([item([provider])], into: scratch.inbox)
        let received = try #require(report.received.first)
        #expect(received.type == "com.apple.bundle" && received.name == "Shared.bundle")
        let payload = try #require(try scratch.inbox.pending().first).payloadURL
        #expect(try FileManager.default.contentsOfDirectory(atPath: payload.path).sorted() == ["inside.txt", "same"])
    }

    @Test("a declared image that is a directory, or a PDF: refused as an image, delivered as what it is when that is accepted")
    func mismatches() async throws {
        let scratch = Scratch()
        let folder = scratch.root.appendingPathComponent("files/folder")
        scratch.file("folder/x.txt", [0x61])
        let pdf = scratch.file("fake.jpg", pdfBytes)
        let providers = [fileProvider(folder, type: .jpeg), fileProvider(pdf, type: .image, name: "fake.jpg")]
        let images = try await ShareIntake(policy: IntakePolicy(acceptedTypes: [.image])).receive([item(providers)], into: scratch.inbox)
        #expect(lines(images) == [
            "1.1 skipped public.jpeg: declared public.jpeg, but it is a directory, which is not accepted",
            "1.2 skipped public.image: declared public.image, but the bytes are com.adobe.pdf, which is not accepted",
        ])
        let anything = try await ShareIntake().receive([item(providers)], into: scratch.inbox)
        #expect(lines(anything) == ["1.1 received public.folder folder", "1.2 received com.adobe.pdf fake.pdf"])
        #expect(anything.received[1].notes == ["declared public.image, but the bytes are com.adobe.pdf"])
        let strict = try await ShareIntake(policy: IntakePolicy(mismatch: .refuse)).receive([item([providers[1]])], into: scratch.inbox)
        #expect(lines(strict) == ["1.1 skipped public.image: declared public.image, but the bytes are com.adobe.pdf"])
    }

    @Test("a vague declared type is made precise by the bytes (Messages' Live Photo: public.image that is a JPEG)")
    func precise() async throws {
        let scratch = Scratch()
        let report = try await ShareIntake().receive([item([fileProvider(scratch.file("x", jpegBytes), type: .image, name: "photo")])], into: scratch.inbox)
        #expect(lines(report) == ["1.1 received public.jpeg photo.jpeg"])
        #expect(try scratch.inbox.pending().first?.manifest.declaredType == "public.image")
    }

    @Test("a 0-byte file: fine as text, not as an image")
    func empty() async throws {
        let scratch = Scratch()
        let empty = scratch.file("empty", [])
        let report = try await ShareIntake(policy: IntakePolicy(acceptedTypes: [.text, .image]))
            .receive([item([fileProvider(empty, type: .plainText, name: "empty.txt"), fileProvider(empty, type: .jpeg, name: "empty.jpg")])], into: scratch.inbox)
        #expect(lines(report) == ["1.1 received public.plain-text empty.txt", "1.2 failed"])
        guard case .failed(let reasons) = report.entries[1].outcome else { return }
        #expect(reasons == ["public.jpeg: as a file, declared public.jpeg, but the file is empty; as an item, declared public.jpeg, but the file is empty"])
    }

    @Test("a host that never answers: the policy's timeout, then the next representation, and nothing left behind",
          .timeLimit(.minutes(5)))
    func silentHost() async throws {
        let scratch = Scratch()
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .png) { _ in nil }
        provider.registerDataRepresentation(for: .jpeg) { completion in
            completion(Data(jpegBytes), nil)
            return nil
        }
        let report = try await ShareIntake(policy: IntakePolicy(loadTimeout: .milliseconds(200))).receive([item([provider])], into: scratch.inbox)
        #expect(lines(report).count == 1 && lines(report)[0].hasPrefix("1.1 received public.jpeg "))
        #expect(report.received[0].notes == ["tried first: public.png: as a file, the host app did not answer within 0.2 s (a file of public.png); as an item, the host app did not answer within 0.2 s (the item of public.png)"])
        #expect(scratch.leftovers().isEmpty)
    }
}

/// A host that answers a load only when the test says so.
final class HeldAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var held: [@Sendable (Data?, (any Error)?) -> Void] = []

    /// A provider of `type` whose loads wait for `release`.
    func provider(_ type: UTType) -> NSItemProvider {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: type) { [self] completion in
            lock.withLock { held.append(completion) }
            return nil
        }
        return provider
    }

    var isWaiting: Bool { lock.withLock { !held.isEmpty } }

    /// Answers every load held so far.
    func release(_ bytes: [UInt8]) {
        for completion in lock.withLock({ held }) { completion(Data(bytes), nil) }
    }
}

/// A preview maker that asks for 20 MB and makes nothing.
struct Hungry: PreviewMaking {
    func memoryNeeded(for type: UTType, sizes: [Int]) -> Int { 20 << 20 }
    func makePreviews(of file: URL, type: UTType, sizes: [Int], into directory: URL, memoryBudget: Int) throws -> [InboxManifest.Preview] { [] }
}

@Suite("Progress, cancellation and the request's end")
struct IntakeLifecycleTests {
    @Test("progress counts bytes per attachment and ends complete; the request completes once")
    func progress() async throws {
        let scratch = Scratch()
        let big = scratch.file("big.pdf", pdfBytes + Array(repeating: 0x20, count: 3 << 20))
        let context = NSExtensionContext(inputItems: [item([fileProvider(big, type: .pdf), fileProvider(scratch.file("s.jpg", jpegBytes), type: .jpeg)])])
        let progress = Progress(totalUnitCount: 0)
        let report = try await ShareIntake().receive(from: context, into: scratch.inbox, progress: progress)
        #expect(report.received.count == 2)
        #expect(progress.totalUnitCount == 2 && progress.completedUnitCount == 2 && progress.fractionCompleted == 1)
        guard case .completed? = context.outcome else { Issue.record("not completed"); return }
        #expect(context.misuses.isEmpty)
    }

    @Test("cancelling ends a share without waiting for its host: what was delivered stays whole, nothing else is left, the request ends cancelled",
          .timeLimit(.minutes(5)))
    func cancellation() async throws {
        let scratch = Scratch()
        let fast = fileProvider(scratch.file("a.jpg", jpegBytes), type: .jpeg)
        let host = HeldAnswer()
        let context = NSExtensionContext(inputItems: [item([fast, host.provider(.png)])])
        let intake = try ShareIntake(policy: IntakePolicy(concurrency: 1))
        let inbox = scratch.inbox
        let task = Task { try await intake.receive(from: context, into: inbox) }
        // Cancel once the first attachment is delivered and the second is waiting for its host.
        while try inbox.pending().isEmpty || !host.isWaiting { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        let thrown = await #expect(throws: IntakeError.self) { try await task.value }
        #expect(thrown?.code == .cancelled)
        guard case .cancelled(let error)? = context.outcome else { Issue.record("not cancelled"); return }
        #expect((error as NSError).domain == NSCocoaErrorDomain && (error as NSError).code == NSUserCancelledError)
        // The host answers after all, too late: nothing more arrives.
        host.release(pngBytes)
        let pending = try scratch.inbox.pending()
        #expect(pending.count == 1, "\(pending.map(\.manifest.name)) \(scratch.leftovers())")
        #expect(try pending.allSatisfy { try $0.verify() })
        #expect(scratch.leftovers().isEmpty)
    }

    @Test("cancelling the Progress cancels as the task does")
    func progressCancellation() async throws {
        let scratch = Scratch()
        let slow = NSItemProvider()
        slow.registerDataRepresentation(for: .png) { completion in
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { completion(Data(pngBytes), nil) }
            return nil
        }
        let progress = Progress(totalUnitCount: 0)
        let intake = try ShareIntake()
        let inbox = scratch.inbox
        let task = Task { try await intake.receive([item([slow])], into: inbox, progress: progress) }
        try await Task.sleep(for: .milliseconds(300))
        progress.cancel()
        let thrown = await #expect(throws: IntakeError.self) { try await task.value }
        #expect(thrown?.code == .cancelled)
        #expect(try scratch.leftovers().isEmpty && scratch.inbox.pending().isEmpty)
    }

    @Test("previews: each size an upright JPEG beside the payload, named in the manifest; none for what is not an image")
    func previews() async throws {
        let scratch = Scratch()
        let photo = examples.appendingPathComponent("files/sunset.jpg")
        let report = try await ShareIntake(policy: IntakePolicy(previewSizes: [64, 200]))
            .receive([item([fileProvider(photo, type: .jpeg), fileProvider(scratch.file("n.txt", Array("hi".utf8)), type: .plainText)])], into: scratch.inbox)
        #expect(report.received.count == 2)
        let items = try scratch.inbox.pending()
        let image = try #require(items.first { $0.manifest.type == "public.jpeg" })
        #expect(image.manifest.previews.map(\.name) == ["preview-64.jpg", "preview-200.jpg"])
        #expect(image.manifest.previews.map { max($0.width, $0.height) } == [64, 200])
        for preview in image.manifest.previews {
            let header = try Thumbnailer.header(of: image.previewURL(preview))
            #expect(header.format == .jpeg && (header.width, header.height) == (preview.width, preview.height))
        }
        #expect(items.first { $0.manifest.type == "public.plain-text" }?.manifest.previews.isEmpty == true)
    }

    @Test("the memory budget plans the work: concurrency fits it, previews only when they fit, too small is an error")
    func budget() throws {
        let refused = #expect(throws: IntakeError.self) { try ShareIntake(policy: IntakePolicy(memoryBudget: 1 << 20)) }
        #expect(refused?.code == .memoryBudget)
        #expect(refused?.message == "a memory budget of 1 MB cannot hold one attachment in flight, which needs 1.5 MB")
        #expect(try ShareIntake(policy: IntakePolicy(memoryBudget: 2 << 20, concurrency: 8)).concurrency == 1)
        #expect(try ShareIntake(policy: IntakePolicy(memoryBudget: 24 << 20, concurrency: 8)).concurrency == 8)
        let withPreviews = try ShareIntake(policy: IntakePolicy(memoryBudget: 24 << 20, previewSizes: [300], concurrency: 4), previewMaker: Hungry())
        #expect(withPreviews.concurrency == 1 && withPreviews.plan.previewBudget == 20 << 20)
        let tooSmall = try ShareIntake(policy: IntakePolicy(memoryBudget: 8 << 20, previewSizes: [300]), previewMaker: Hungry())
        #expect(tooSmall.plan.previewBudget == 0)
    }
}

@Suite("Sniffing")
struct SniffingTests {
    static let cases: [([UInt8], String)] = [
        (jpegBytes, "public.jpeg"), (pngBytes, "public.png"), (Array("GIF89a....".utf8), "com.compuserve.gif"),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "org.webmproject.webp"), ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "public.tiff"),
        ([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0], "public.heic"), ([0, 0, 0, 24] + Array("ftypmif1".utf8), "public.heif"),
        ([0, 0, 0, 24] + Array("ftypisom".utf8), "public.mpeg-4"), ([0, 0, 0, 20] + Array("ftypqt  ".utf8), "com.apple.quicktime-movie"),
        (pdfBytes, "com.adobe.pdf"), ([0x50, 0x4B, 0x03, 0x04, 20, 0], "public.zip-archive"), (Array("bplist00".utf8), "com.apple.binary-property-list"),
        ([0, 0, 0, 24] + Array("ftypM4A ".utf8), "public.mpeg-4-audio"), ([0x00, 0x00, 0x01, 0xBA, 0x44], "public.mpeg"),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8), "public.avi"), (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8), "com.microsoft.waveform-audio"),
        (Array("FORM\u{0}\u{0}\u{0}\u{0}AIFFCOMM".utf8), "public.aiff-audio"), (Array("ID3\u{4}\u{0}".utf8), "public.mp3"),
        ([0xFF, 0xFB, 0x90, 0x64], "public.mp3"),
        (Array("{\\rtf1 hello}".utf8), "public.rtf"), (Array("héllo\nworld\t!".utf8), "text"), ([0xFF, 0xFE, 0x68, 0], "text"),
        ([0x00, 0x01, 0x02], "unknown"), ([0xC3, 0x28], "unknown"), ([], "empty"),
        ]

    @Test("one table: each signature, and what is not one", arguments: cases)
    func table(_ bytes: [UInt8], _ expected: String) {
        let found: String = switch ContentSniffer.sniff(bytes) {
        case .format(let type): type.identifier
        case .text: "text"
        case .empty: "empty"
        case .unknown: "unknown"
        }
        #expect(found == expected)
    }
}

@Suite("The intake's errors")
struct IntakeErrorTests {
    @Test("as Cocoa sees them: Apple's item-provider codes in NSItemProviderErrorDomain, cancellation as NSUserCancelledError")
    func nsErrors() {
        let host = NSError(domain: NSItemProviderErrorDomain, code: -1000)
        var unavailable = IntakeError(.itemUnavailable, "the host's file /x does not exist", typeIdentifier: "public.jpeg", underlying: host)
        unavailable = unavailable.at(item: 2, attachment: 1)
        #expect(unavailable.description == "item 2, attachment 1: the host's file /x does not exist")
        let bridged = unavailable.nsError
        #expect(bridged.domain == NSItemProviderErrorDomain && bridged.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue)
        #expect((bridged.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == -1000)
        #expect(IntakeError(.unexpectedValueClass, "x").nsError.code == NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue)
        #expect(IntakeError(.unavailableCoercion, "x").nsError.code == NSItemProvider.ErrorCode.unavailableCoercionError.rawValue)
        let cancelled = IntakeError(.cancelled, "cancelled").nsError
        #expect(cancelled.domain == NSCocoaErrorDomain && cancelled.code == NSUserCancelledError)
        let inbox = IntakeError(.inbox, "no space").nsError
        #expect(inbox.domain == "OpenSharing.ShareIntake" && inbox.code == IntakeError.Code.inbox.rawValue)
    }
}
