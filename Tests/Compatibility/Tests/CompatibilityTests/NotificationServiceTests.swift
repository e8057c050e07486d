#if os(Linux)
@testable import CallOnceService
@testable import ChatAvatarService
import CompatibilityHarness
@testable import DiscardService
@testable import ErrorImageService
import Foundation
@testable import ImageDownloadService
import SharingShim
import Testing
@testable import TmpHintService

/// Notification services in the patterns real apps use, each delivered a push in this process and as a
/// process (`NotificationHarness`), with images downloaded from a server on 127.0.0.1.
@Suite("Compatibility: notification service extensions")
struct NotificationServiceCompatibilityTests {
    private static func push(_ extra: [String: Any]) -> [String: Any] {
        extra.merging(["aps": ["alert": ["title": "Ana", "body": "Lunch?"], "mutable-content": 1]]) { _, new in new }
    }

    /// Runs `body` with a server of `Examples/files` (`sunset.jpg` is a JPEG, `diagram.png` a PNG).
    private func withServer(_ body: (URL) async throws -> Void) async throws {
        let server = try LocalWebServer(serving: ExtensionHarness.examples.appendingPathComponent("files"))
        defer { server.stop() }
        try await body(server.base)
    }

    @Test("Firebase's helper: the image downloaded with URLSession and attached by its URL's extension; a URL without one shows no image")
    func imageDownload() async throws {
        try await withServer { base in
            let shown = try await NotificationHarness.deliver(ImageDownloadService.NotificationService(),
                                                              payload: Self.push(["fcm_options": ["image": base.appendingPathComponent("sunset.jpg").absoluteString]]))
            #expect(shown == ShownNotification(shown: "modified", title: "Ana", body: "Lunch?", attachmentTypes: ["public.jpeg"]))
            let bare = try await NotificationHarness.deliver(ImageDownloadService.NotificationService(),
                                                             payload: Self.push(["fcm_options": ["image": base.appendingPathComponent("sunset.jpg").absoluteString + "?size=large"]]))
            #expect(bare.attachmentTypes == ["public.jpeg"], "a query does not hide the path's extension")
            let none = try await NotificationHarness.deliver(ImageDownloadService.NotificationService(),
                                                             payload: Self.push(["fcm_options": ["image": base.absoluteString + "/image"]]))
            #expect(none == ShownNotification(shown: "modified", title: "Ana", body: "Lunch?", attachmentTypes: []))
        }
    }

    @Test("Home Assistant's error image, drawn under #if os(iOS): the run shows no image and names the branch that never ran")
    func errorImageLeftOut() async throws {
        try await withServer { base in
            // Nothing is at /missing.png: the download fails, and the branch that would attach an error image is iOS's.
            let payload = Self.push(["attachment": ["url": base.appendingPathComponent("missing.png").absoluteString]])
            let shown = try await NotificationHarness.deliver(ErrorImageService.NotificationService(), payload: payload)
            #expect(shown == ShownNotification(shown: "modified", title: "Ana", body: "Lunch?", attachmentTypes: []))
            let findings = try await NotificationHarness.asProcess(ErrorImageService.NotificationService(), payload: payload)
                .processes.flatMap(\.findings).map(\.description)
            // Beside debug-build: the suite bundles in debug, as a developer does while writing.
            let leftOut = findings.filter { $0.hasPrefix("not-compiled-here") }
            #expect(leftOut.count == 1, "\(findings)")
            let finding = try #require(leftOut.first)
            #expect(finding.hasPrefix("not-compiled-here: 2 blocks of the extension's code that iOS compiles were not compiled here"))
            #expect(finding.contains("Sources/ErrorImageService/NotificationService.swift:27: #if os(iOS)"))
            #expect(finding.contains("Sources/ErrorImageService/NotificationService.swift:37: #if os(iOS)"))
            // Firebase's helper has no code only iOS compiles (its FoundationNetworking import is Linux's).
            let none = try await NotificationHarness.asProcess(ImageDownloadService.NotificationService(),
                                                               payload: Self.push(["fcm_options": ["image": base.appendingPathComponent("sunset.jpg").absoluteString]]))
                .processes.flatMap(\.findings).map(\.description)
            #expect(!none.contains { $0.hasPrefix("not-compiled-here") }, "\(none)")
        }
    }

    @Test("Mattermost's communication notification: the avatar downloaded, the intent donated, the content shown from its sender; the app told by a Darwin notification")
    func communication() async throws {
        try await withServer { base in
            let payload = Self.push(["avatar_url": base.appendingPathComponent("diagram.png").absoluteString, "channel_id": "town-square",
                                     "sender_id": "u42", "sender_name": "Ana"])
            let shown = try await NotificationHarness.deliver(ChatAvatarService.NotificationService(), payload: payload)
            #expect(shown == ShownNotification(shown: "modified", title: "Ana", body: "Lunch?", attachmentTypes: []))
            let runs = try await NotificationHarness.asProcess(ChatAvatarService.NotificationService(), payload: payload)
            let message = try #require(runs.deliveries.first?.content.communication, "shown as a message from its sender")
            let avatar = try Data(contentsOf: ExtensionHarness.examples.appendingPathComponent("files/diagram.png"))
            #expect(message.sender == "Ana" && message.senderHandle == "u42" && message.avatar == "image data, \(avatar.count) bytes")
            #expect(message.conversationIdentifier == "town-square" && message.group == nil)
            #expect(runs.processes.flatMap(\.posted) == [ChatAvatarService.NotificationService.newMessage])

            // No avatar (the server has none): the original text, no sender, and what the service logged is kept.
            let missing = Self.push(["avatar_url": base.appendingPathComponent("none.png").absoluteString, "channel_id": "town-square"])
            let plain = try await NotificationHarness.asProcess(ChatAvatarService.NotificationService(), payload: missing)
            #expect(plain.deliveries.first?.content.communication == nil && plain.processes.flatMap(\.posted).isEmpty)
            #expect(plain.processes.first?.log.contains("error: the avatar did not download") == true, "\(plain.processes.first?.log ?? "")")
        }
    }

    @Test("Bark's .tmp file with a PNG type hint: a JPEG under the hint is an image, and shows; a PNG too")
    func typeHint() async throws {
        try await withServer { base in
            for (file, type) in [("sunset.jpg", "public.jpeg"), ("diagram.png", "public.png")] {
                let shown = try await NotificationHarness.deliver(TmpHintService.NotificationService(),
                                                                  payload: Self.push(["image": base.appendingPathComponent(file).absoluteString]))
                #expect(shown.attachmentTypes == [type])
            }
        }
    }

    @Test("Mattermost's call-once wrapper: a fetch that outlasts the time shows the expiry's content, and its late call is dropped")
    func callOnce() async throws {
        let late = try await NotificationHarness.deliver(CallOnceService.NotificationService(), payload: Self.push(["fetch-seconds": 5]),
                                                         timeLimit: .seconds(1))
        #expect(late == ShownNotification(shown: "modified", title: "Ana", body: "You have a new message", attachmentTypes: []))
        let prompt = try await NotificationHarness.deliver(CallOnceService.NotificationService(), payload: Self.push([:]))
        #expect(prompt.body == "fetched: Lunch?")
    }

    @Test("Element X's discard: empty content suppresses with the filtering entitlement, and is ignored for the original without it")
    func discard() async throws {
        let redaction = Self.push(["event_type": "m.room.redaction"])
        #expect(try await NotificationHarness.deliver(DiscardService.NotificationService(), payload: redaction, filtering: true).shown == "suppressed")
        #expect(try await NotificationHarness.deliver(DiscardService.NotificationService(), payload: redaction)
                == ShownNotification(shown: "original", title: "Ana", body: "Lunch?", attachmentTypes: []))
        let message = try await NotificationHarness.deliver(DiscardService.NotificationService(),
                                                            payload: Self.push(["event_type": "m.room.message", "sender_display_name": "Bo"]))
        #expect(message.title == "Bo" && message.shown == "modified")
    }
}
#endif
