@testable import ExtensionRuntime
import Foundation
import OpenUserNotifications
import PropertyBased
import Testing

@Suite("The runtime's messages")
struct RuntimeMessageTests {
    static let samples: [RuntimeMessage] = [
        .ready(process: 4242, optimised: true),
        .ready(process: 7, optimised: false),
        .endedAgain(call: "cancelRequest(withError:)"),
        .tapped(button: "Post"),
        .tapped(button: "row 0.3"),
        .tapped(button: "bar item \"Save to Board\""),
        .posted(name: "com.example.newMessage"),
        .transfer(id: 3, WireTransfer(session: "org.example.upload", sharedContainer: "group.org.example", method: "POST",
                                      url: "https://example.org/add", headers: [WireHeader(name: "Content-Type", value: "text/plain")])),
        .transfer(id: 4, WireTransfer(session: "s", sharedContainer: nil, method: "PUT", url: "http://127.0.0.1:8080/", headers: [])),
        .transferEnded(id: 3, status: 201, error: nil),
        .transferEnded(id: 4, status: 0, error: RemoteError(domain: NSURLErrorDomain, code: -1004, message: "Could not connect to the server.")),
        .load(id: 1, attachment: 3, type: "public.jpeg", form: .file),
        .cancelLoad(id: 9),
        .openURL(id: 2, url: "https://example.org/ü"),
        .complete(items: [WireItem(title: "Title", contentText: nil, attachments: [
            WireAttachment(suggestedName: "photo", representations: [
                WireRepresentation(type: "public.jpeg", form: .data, payload: .memory(length: 1 << 20)),
                WireRepresentation(type: "public.plain-text", form: .item, payload: .text("HELLO")),
            ]),
        ])]),
        .cancel(RemoteError(domain: NSCocoaErrorDomain, code: 3072, message: "The user cancelled.")),
        .request(items: [WireItem(title: nil, contentText: "Shopping", attachments: [
            WireAttachment(representations: [WireRepresentation(type: "public.url", form: .item)]),
        ])]),
        .loaded(id: 1, .file(name: "report.pdf", openedInPlace: false)),
        .loaded(id: 6, .file(name: "Notes", openedInPlace: true)),
        .loaded(id: 8, .image(type: "public.png", length: 4096)),
        .loaded(id: 2, .failed(RemoteError(domain: "NSItemProviderErrorDomain", code: -1000, message: "gone"))),
        .loaded(id: 3, .propertyList([0x62, 0x70])),
        .loaded(id: 9, .textInMemory(length: 200_000)),
        .donated(interaction: "INSendMessageIntent, incoming, from Ana (ana@example.com), in Lunch crew"),
        .loaded(id: 10, .propertyListInMemory(length: 70_000)),
        .loaded(id: 4, .bytes([1, 2, 3])),
        .loaded(id: 5, .url("file:///tmp/x")),
        .openedURL(id: 2, opened: true),
        .timeWarning(phase: .request),
        .progress(id: 7, completed: 250_000, total: 1_000_000),
        .loaded(id: 8, .stream(name: "camera feed")),
        .streamEnded(id: 8, bytes: 5 << 30, complete: true),
        .alert(WireAlert(title: "Upload?", message: nil, actions: [("Cancel", "cancel"), (nil, "default")], chosen: 1)),
        .alert(WireAlert(title: nil, message: "Nothing chosen", actions: [], chosen: -1)),
        .ended,
        .notification(index: 0, identifier: "A1B2", content: RuntimeMessageTests.content(carryingFiles: false)),
        .deliver(index: 2, content: RuntimeMessageTests.content(carryingFiles: true)),
        .center(id: 5, call: .setCategories([WireCategory(identifier: "message", actions: [WireAction(identifier: "reply", title: "Reply", options: 4)],
                                                          intentIdentifiers: ["INSendMessageIntent"], options: 1, hiddenPreviewsBodyPlaceholder: "",
                                                          categorySummaryFormat: "%u more")])),
        .center(id: 6, call: .categories),
        .center(id: 7, call: .delivered),
        .center(id: 8, call: .removeDelivered(["A1B2", "C3"])),
        .center(id: 9, call: .removeAllDelivered),
        .centerAnswer(id: 6, answer: .categories([])),
        .centerAnswer(id: 7, answer: .delivered([WireDelivered(identifier: "A1B2", date: 786_000_000.5, content: RuntimeMessageTests.content(carryingFiles: false))])),
    ]

    /// Content with every field set, a userInfo of every kind of value, and two attachments.
    static func content(carryingFiles: Bool) -> WireContent {
        var content = WireContent()
        content.title = "Ana"
        content.subtitle = "Lunch"
        content.body = "At noon? 🍜"
        content.badge = 3
        content.sound = WireSound(name: "chime.caf", critical: true, volume: 0.5, ringtone: false)
        content.launchImageName = "Launch"
        content.userInfo = .dictionary([
            ("aps", .dictionary([("mutable-content", .integer(1))])), ("data", .data([0, 1, 2])), ("date", .date(1.5)),
            ("list", .array([.bool(true), .double(2.5), .null, .string("x")])),
        ])
        content.attachments = [
            WireNotificationAttachment(identifier: "photo", url: "file:///tmp/photo.jpg", type: "public.jpeg", thumbnailHidden: true,
                                       thumbnailClippingRect: ["X": 0, "Y": 0.25, "Width": 1, "Height": 0.5], thumbnailTime: -1, carriesFile: carryingFiles),
            WireNotificationAttachment(identifier: "gone", url: "file:///tmp/gone.png", type: "public.png", thumbnailHidden: false,
                                       thumbnailClippingRect: nil, thumbnailTime: 2, carriesFile: false),
        ]
        content.categoryIdentifier = "message"
        content.threadIdentifier = "chat-7"
        content.communication = CommunicationFields(senderName: "Ana", senderHandle: "ana@example.com", avatar: "image data, 2048 bytes",
                                                    groupName: "Lunch crew", groupImage: nil, conversationIdentifier: "room-7", recipients: 2)
        content.targetContentIdentifier = "chat-7"
        content.interruptionLevel = 2
        content.relevanceScore = 0.75
        content.filterCriteria = "work"
        return content
    }

    @Test("every kind of message survives encoding, and names the descriptors it needs", arguments: samples)
    func roundTrip(message: RuntimeMessage) throws {
        let (bytes, descriptors) = message.encoded()
        #expect(try RuntimeMessage.decode(bytes, descriptors: descriptors) == message)
        #expect(bytes.prefix(3) == [0x4F, 0x53, 1])
    }

    @Test("malformed packets are protocol violations that say what is wrong and where", arguments: [
        ([0x58, 0x58, 1, 1, 0, 0, 0, 0], 1, "not a runtime message (no OS magic)"),
        ([0x4F, 0x53, 2, 1, 0, 0, 0, 0], 1, "message version 2; this runtime speaks version 1"),
        ([0x4F, 0x53, 1, 99], 0, "unknown message kind 99"),
        ([0x4F, 0x53, 1, 3, 7, 0], 0, "message ends at byte 4, in the middle of a field"),
        ([0x4F, 0x53, 1, 3, 7, 0, 0, 0, 0xFF], 0, "1 bytes after the end of a cancelLoad message"),
        ([0x4F, 0x53, 1, 4, 1, 0, 0, 0, 0xFF, 0xFF, 0, 0], 0, "a field at byte 8 claims 65535 bytes; 0 remain"),
        ([0x4F, 0x53, 1, 4, 1, 0, 0, 0, 1, 0, 0, 0, 0xC3], 0, "the string at byte 8 is not UTF-8"),
        ([0x4F, 0x53, 1, 32, 0xFF, 0xFF, 0xFF, 0x7F], 0, "a count at byte 4 claims 2147483647 elements; 0 bytes remain"),
        ([0x4F, 0x53, 1, 1, 1, 0, 0, 0, 1], 0, "a ready message naming 1 descriptors arrived with 0"),
        ([0x4F, 0x53, 1, 10, 1, 0, 0, 0, 0x78], 0, "a request ended again by \"x\", which does not end a request"),
        ([0x4F, 0x53, 1, 11, 1, 0, 0, 0, 0x78], 0, "a tap of \"x\", which names no button, bar item or row a person taps"),
        ([0x4F, 0x53, 1, 12, 0, 0, 0, 0], 0, "a Darwin notification named with 0 bytes; a name has 1 to 1024"),
        ([0x4F, 0x53, 1, 12, 1, 4, 0, 0] + [UInt8](repeating: 0x61, count: 1025), 0, "a Darwin notification named with 1025 bytes; a name has 1 to 1024"),
        ([0x4F, 0x53, 1, 3, 7, 0, 0, 0], 2, "a cancelLoad message naming 0 descriptors arrived with 2"),
        ([0x4F, 0x53, 1, 7, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0x78, 5, 0, 0, 0], 0, "an alert's chosen action 5 of 1"),
        ([0x4F, 0x53, 1, 9, 1, 0, 0, 0, 6], 0, "unknown notification center call 6 at byte 8"),
        ([0x4F, 0x53, 1, 9, 1, 0, 0, 0, 4, 1, 0, 0, 0], 0, "a count at byte 9 claims 1 elements; 0 bytes remain"),
        ([0x4F, 0x53, 1, 8, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 12) + [0, 0] + [0, 0, 0, 0] + [8, 0, 0, 0, 0, 0, 0, 0, 0]
         + [0, 0, 0, 0] + [0, 0, 0, 0] + [0] + [9], 0, "interruption level 9 at byte 44"),
        ([0x4F, 0x53, 1, 8, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 12) + [0, 0] + [0, 0, 0, 0] + [4, 0, 0, 0, 0], 0,
         "a content's userInfo at byte 26 is not a dictionary"),
        ([0x4F, 0x53, 1, 8, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 12) + [0, 0] + [0, 0, 0, 0]
         + Array([[UInt8]](repeating: [7, 1, 0, 0, 0], count: 65).joined()), 0, "a value nested more than 64 deep at byte 346"),
    ] as [([UInt8], Int, String)])
    func violations(bytes: [UInt8], descriptors: Int, message: String) {
        #expect(throws: ProtocolViolation(message)) { try RuntimeMessage.decode(bytes, descriptors: descriptors) }
    }

    @Test("a background transfer's fields are checked: header fields, their number, the method, the session, the URL's length", arguments: [
        (WireTransfer(session: "s", sharedContainer: nil, method: "POST", url: "https://e.org/", headers: [WireHeader(name: "X", value: "a\r\nHost: evil")]),
         "a transfer's header field \"X\" is not one"),
        (WireTransfer(session: "s", sharedContainer: nil, method: "POST", url: "https://e.org/", headers: [WireHeader(name: "Bad Name", value: "1")]),
         "a transfer's header field \"Bad Name\" is not one"),
        (WireTransfer(session: "s", sharedContainer: nil, method: "POST", url: "https://e.org/",
                      headers: Array(repeating: WireHeader(name: "X", value: ""), count: 101)), "a transfer with 101 header fields; at most 100"),
        (WireTransfer(session: "s", sharedContainer: nil, method: "PO ST", url: "https://e.org/", headers: []), "a transfer's method \"PO ST\" is not one"),
        (WireTransfer(session: "", sharedContainer: nil, method: "POST", url: "https://e.org/", headers: []), "a transfer's session identifier of 0 bytes"),
        (WireTransfer(session: "s", sharedContainer: nil, method: "POST", url: "", headers: []), "a transfer's URL of 0 bytes"),
    ] as [(WireTransfer, String)])
    func transferViolations(transfer: WireTransfer, message: String) {
        let (bytes, descriptors) = RuntimeMessage.transfer(id: 1, transfer).encoded()
        #expect(throws: ProtocolViolation(message)) { try RuntimeMessage.decode(bytes, descriptors: descriptors) }
    }

    @Test("any bytes decode to a message or a violation; a message that decodes re-encodes to itself")
    func arbitraryBytes() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 0...255).array(of: 0...64), Gen.int(in: 0...3)) { values, descriptors in
            let tail = values.map { UInt8($0) }
            // Keep the header valid half the time, so that the bodies are exercised, not only the magic.
            let bytes = tail.first.map { $0 % 2 == 0 } == true ? [0x4F, 0x53, 1] + Array(tail.dropFirst()) : tail
            if let message = try? RuntimeMessage.decode(bytes, descriptors: descriptors) {
                let encoded = message.encoded()
                #expect(encoded.descriptors == descriptors)
                #expect((try? RuntimeMessage.decode(encoded.bytes, descriptors: descriptors)) == message)
            }
        }
    }
}

extension RuntimeMessage: CustomTestStringConvertible {
    public var testDescription: String { "\(self)".prefix(60).description }
}
