// Uses only Apple's public API names, through SharingShim, so that this file compiles unchanged against
// Apple's Foundation and UniformTypeIdentifiers on an Apple platform, and against OpenSharing's elsewhere.
import SharingShim
import Testing

@Suite("Apple API compatibility")
struct AppleAPICompatibilityTests {
    @Test("UTType as Apple spells it")
    func types() throws {
        let heic = try #require(UTType(filenameExtension: "heic"))
        #expect(heic == .heic)
        #expect(heic.conforms(to: .image))
        #expect(UTType.png.preferredMIMEType == "image/png")
        #expect(UTType(mimeType: "application/pdf") == .pdf)
        #expect(UTType("public.jpeg")?.isDeclared == true)
        #expect(UTType(tag: "jpg", tagClass: .filenameExtension, conformingTo: nil) == .jpeg)
        #expect(UTType.types(tag: "jpg", tagClass: .filenameExtension, conformingTo: nil).contains(.jpeg))
        #expect(UTType.image.isSupertype(of: .jpeg) && UTType.jpeg.isSubtype(of: .image))
        #expect(UTType(exportedAs: "com.example.compat", conformingTo: .data).conforms(to: .data))
    }

    @Test("logging as the os module spells it: os_log with a format or a message, OSLog, OSLogType, Logger with privacy and formats")
    func logging() {
        let log = OSLog(subsystem: "org.opensharing.compat", category: "tests")
        #expect(log.isEnabled(type: .debug) && !OSLog.disabled.isEnabled(type: .error))
        os_log("%{public}@ loaded %{private}d items", log: log, type: .debug, "share", 3)
        os_log(.fault, log: .default, "constant")
        os_log("a message of \(2) parts")
        #expect(OSLogType.error.rawValue == 0x10 && OSLogType(rawValue: 0x11) == .fault)
        let logger = Logger(subsystem: "org.opensharing.compat", category: "tests")
        let url = URL(fileURLWithPath: "/tmp/a b.jpg")
        logger.info("loaded \(url, privacy: .public) of \(4096, format: .decimal(minDigits: 8), align: .right(columns: 10)) bytes")
        logger.error("failed: \(CocoaError(.fileReadNoSuchFile), privacy: .auto) after \(1.25, format: .hybrid, privacy: .private(mask: .hash))")
        logger.debug("type \(UTType.self) flag \(false, format: .truth) mask \(UInt(255), format: .octal(includePrefix: true))")
        Logger().log(level: .default, "plain")
        Logger(log).notice("from an OSLog")
    }

    @Test("communication notifications as Intents spells them: a sender with an avatar, the intent's images by key path, an updated content")
    func communication() async throws {
        var name = PersonNameComponents()
        name.givenName = "Ana"
        name.familyName = "Lima"
        let sender = INPerson(personHandle: INPersonHandle(value: "+351900000000", type: .phoneNumber), nameComponents: name, displayName: nil,
                              image: nil, contactIdentifier: nil, customIdentifier: "42")
        #expect(sender.displayName == "Ana Lima" && sender.personHandle?.type == .phoneNumber && !sender.isMe)
        let intent = INSendMessageIntent(recipients: [], outgoingMessageType: .outgoingMessageText, content: "Lunch?",
                                         speakableGroupName: nil, conversationIdentifier: "7", serviceName: nil, sender: sender, attachments: nil)
        let avatar = INImage(imageData: Data([1, 2, 3]))
        intent.setImage(avatar, forParameterNamed: \.sender)
        #expect(intent.image(forParameterNamed: \.sender) === avatar && intent.keyImage() === avatar)
        #expect(intent.image(forParameterNamed: \.speakableGroupName) == nil)
        let interaction = INInteraction(intent: intent, response: nil)
        interaction.direction = .incoming
        try await interaction.donate()
        let content = UNMutableNotificationContent()
        content.title = "Ana"
        content.body = "Lunch?"
        let updated = try content.updating(from: intent)
        #expect(updated.title == "Ana" && updated.body == "Lunch?")
    }

    @Test("providing and loading as Apple spells it")
    func providers() async throws {
        let provider = NSItemProvider()
        provider.suggestedName = "Greeting"
        provider.registerDataRepresentation(for: .utf8PlainText, visibility: .all) { completion in
            completion("hello".data(using: .utf8), nil)
            return nil
        }
        #expect(provider.registeredContentTypes == [.utf8PlainText])
        #expect(provider.hasItemConformingToTypeIdentifier(UTType.plainText.identifier))
        #expect(provider.canLoadObject(ofClass: String.self))

        let data: Data? = await withCheckedContinuation { continuation in
            _ = provider.loadDataRepresentation(for: .plainText) { data, _ in continuation.resume(returning: data) }
        }
        #expect(data.flatMap { String(data: $0, encoding: .utf8) } == "hello")

        let name: String? = await withCheckedContinuation { continuation in
            _ = provider.loadFileRepresentation(for: .plainText, openInPlace: false) { url, _, _ in
                continuation.resume(returning: url?.lastPathComponent)
            }
        }
        #expect(name == "Greeting.txt")

        let string: String? = await withCheckedContinuation { continuation in
            _ = provider.loadObject(ofClass: String.self) { value, _ in continuation.resume(returning: value) }
        }
        #expect(string == "hello")

        let legacy = NSItemProvider(item: URL(string: "https://example.com")! as NSURL, typeIdentifier: UTType.url.identifier)
        let item = try await legacy.loadItem(forTypeIdentifier: UTType.url.identifier, options: nil)
        #expect(item as Any as? URL == URL(string: "https://example.com"))
    }

    @Test("extension items as Apple spells them")
    func items() {
        let item = NSExtensionItem()
        item.attributedContentText = NSAttributedString(string: "Look at this")
        item.attachments = [NSItemProvider(object: URL(string: "https://example.com")! as NSURL)]
        #expect(item.attachments?.first?.hasItemConformingToTypeIdentifier("public.url") == true)
        #expect(item.userInfo?[NSExtensionItemAttachmentsKey] != nil)
    }
}
