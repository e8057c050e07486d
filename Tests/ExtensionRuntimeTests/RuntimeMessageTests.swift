@testable import ExtensionRuntime
import Foundation
import PropertyBased
import Testing

@Suite("The runtime's messages")
struct RuntimeMessageTests {
    static let samples: [RuntimeMessage] = [
        .ready(process: 4242),
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
        .loaded(id: 4, .bytes([1, 2, 3])),
        .loaded(id: 5, .url("file:///tmp/x")),
        .openedURL(id: 2, opened: true),
        .timeWarning(phase: "request"),
        .progress(id: 7, completed: 250_000, total: 1_000_000),
        .loaded(id: 8, .stream(name: "camera feed")),
        .streamEnded(id: 8, bytes: 5 << 30, complete: true),
        .alert(WireAlert(title: "Upload?", message: nil, actions: [("Cancel", "cancel"), (nil, "default")], chosen: 1)),
        .alert(WireAlert(title: nil, message: "Nothing chosen", actions: [], chosen: -1)),
        .ended,
    ]

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
        ([0x4F, 0x53, 1, 1, 1, 0, 0, 0], 0, "a ready message naming 1 descriptors arrived with 0"),
        ([0x4F, 0x53, 1, 3, 7, 0, 0, 0], 2, "a cancelLoad message naming 0 descriptors arrived with 2"),
        ([0x4F, 0x53, 1, 7, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0x78, 5, 0, 0, 0], 0, "an alert's chosen action 5 of 1"),
    ] as [([UInt8], Int, String)])
    func violations(bytes: [UInt8], descriptors: Int, message: String) {
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
