import Foundation
@testable import OpenUserNotifications
import SharingShim
import Testing

/// A directory of files for one test, removed after it.
private func withFiles<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// A file of `size` bytes beginning with `leading` (sparse past the first bytes).
private func file(_ name: String, in directory: URL, leading: [UInt8], size: Int? = nil) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try Data(leading).write(to: url)
    if let size, size > leading.count {
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }
    return url
}

private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
private let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]
private let mp3: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0]
private let mp4: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0]

@Suite("UNNotificationAttachment: the file checked as Apple documents")
struct AttachmentTests {
    @Test("a file of a supported family is accepted; its type is what its bytes show, JPEG under a .png name included")
    func accepted() throws {
        try withFiles { directory in
            let cases: [(String, [UInt8], [AnyHashable: Any]?, String)] = [
                ("photo.png", png, nil, "public.png"),
                ("photo.JPG", jpeg, nil, "public.jpeg"),
                // Bark's and a published 24 MB extension's habit: JPEG bytes under .png. The family is checked.
                ("misnamed.png", jpeg, nil, "public.jpeg"),
                // The type hint names the type of a file whose extension says nothing (Bark's .tmp).
                ("download.tmp", png, [UNNotificationAttachmentOptionsTypeHintKey: "public.png"], "public.png"),
                ("voice.mp3", mp3, nil, "public.mp3"),
                ("clip.mp4", mp4, nil, "public.mpeg-4"),
            ]
            for (name, bytes, options, type) in cases {
                let url = try file(name, in: directory, leading: bytes, size: 4096)
                let attachment = try UNNotificationAttachment(identifier: name, url: url, options: options)
                #expect(attachment.type == type, "\(name)")
                #expect(attachment.identifier == name && attachment.url == url)
            }
            let unnamed = try UNNotificationAttachment(identifier: "", url: try file("x.gif", in: directory, leading: Array("GIF89a".utf8)))
            #expect(UUID(uuidString: unnamed.identifier) != nil, "an empty identifier is made unique")
        }
    }

    @Test("each refusal is a UNError in UNErrorDomain with Apple's code, and says which file and why", arguments: [
        ("https", 100, "https://example.com/photo.png is not a file URL"),
        ("missing", 100, "missing.png cannot be read"),
        ("directory", 100, "is not a file"),
        ("no-extension", 101, "photo: no type hint, and no extension"),
        ("tmp", 101, "download.tmp: no type hint, and the extension .tmp names no known type"),
        ("bad-hint", 101, "the type hint not.a.type is no type this system knows"),
        ("text", 101, "notes.txt is public.plain-text, not a supported image, audio or movie type"),
        ("quicktime", 101, "clip.mov is com.apple.quicktime-movie, not a supported image, audio or movie type"),
        ("large-image", 102, "big.jpg holds 10000001 bytes; an image attachment holds at most 10000000"),
        ("large-audio", 102, "long.mp3 holds 5000001 bytes; an audio attachment holds at most 5000000"),
        ("text-as-png", 105, "fake.png is public.png by its extension, but its bytes are no file this system recognizes"),
        ("empty", 105, "empty.jpg is public.jpeg by its extension, but its bytes are empty"),
        ("image-as-mp3", 105, "song.mp3 is public.mp3 by its extension, but its bytes are a public.png file"),
    ] as [(String, Int, String)])
    func refused(situation: String, code: Int, detail: String) throws {
        try withFiles { directory in
            var options: [AnyHashable: Any]?
            let url: URL
            switch situation {
            case "https": url = URL(string: "https://example.com/photo.png")!
            case "missing": url = directory.appendingPathComponent("missing.png")
            case "directory": url = directory
            case "no-extension": url = try file("photo", in: directory, leading: png)
            case "tmp": url = try file("download.tmp", in: directory, leading: png)
            case "bad-hint":
                url = try file("download.tmp", in: directory, leading: png)
                options = [UNNotificationAttachmentOptionsTypeHintKey: "not.a.type"]
            case "text": url = try file("notes.txt", in: directory, leading: Array("hello".utf8))
            case "quicktime": url = try file("clip.mov", in: directory, leading: [0, 0, 0, 20] + Array("ftypqt  ".utf8))
            case "large-image": url = try file("big.jpg", in: directory, leading: jpeg, size: 10_000_001)
            case "large-audio": url = try file("long.mp3", in: directory, leading: mp3, size: 5_000_001)
            case "text-as-png": url = try file("fake.png", in: directory, leading: Array("not an image at all".utf8))
            case "empty": url = try file("empty.jpg", in: directory, leading: [])
            default: url = try file("song.mp3", in: directory, leading: png)
            }
            do {
                _ = try UNNotificationAttachment(identifier: situation, url: url, options: options)
                Issue.record("\(situation) was accepted")
            } catch let error as UNError {
                let bridged = error as NSError
                #expect(bridged.domain == UNErrorDomain)
                #expect(error.code.rawValue == code)
                #expect(error.localizedDescription.contains(detail), "\(error.localizedDescription)")
            }
        }
    }

    @Test("catch UNError.code matches as on Apple's systems, and the limits are the smaller reading of 5, 10 and 50 MB")
    func patternsAndLimits() throws {
        try withFiles { directory in
            let exactly = try file("edge.jpg", in: directory, leading: jpeg, size: 10_000_000)
            #expect(try UNNotificationAttachment(identifier: "edge", url: exactly).type == "public.jpeg")
            do {
                _ = try UNNotificationAttachment(identifier: "tmp", url: try file("x.tmp", in: directory, leading: png))
                Issue.record("accepted")
            } catch UNError.attachmentUnrecognizedType {
                // The pattern Apple's overlay offers.
            }
        }
        #expect(AttachmentFamily.allCases.map(\.maximumSize) == [5_000_000, 10_000_000, 50_000_000])
        #expect(UNError.Code.attachmentInvalidURL.rawValue == 100 && UNError.Code.attachmentCorrupt.rawValue == 105)
        #expect(UNError.Code.notificationInvalidNoContent.rawValue == 1401 && UNError.Code.badgeInputInvalid.rawValue == 1600)
    }
}

@Suite("Notification content, sounds, requests and the notification center")
struct NotificationContentTests {
    @Test("mutableCopy gives an editable copy and copy a read-only one; the defaults are Apple's")
    func copies() throws {
        let content = UNMutableNotificationContent()
        #expect(content.interruptionLevel == .active && content.relevanceScore == 0 && content.badge == nil && content.title.isEmpty)
        content.title = "Ana"
        content.body = "At noon?"
        content.badge = 2
        content.userInfo = ["aps": ["mutable-content": 1], "id": 7]
        content.sound = .defaultCriticalSound(withAudioVolume: 0.5)
        let frozen = try #require(content.copy() as? UNNotificationContent)
        #expect(!(frozen is UNMutableNotificationContent))
        let edited = try #require(frozen.mutableCopy() as? UNMutableNotificationContent)
        edited.title = "Bo"
        #expect(frozen.title == "Ana" && edited.title == "Bo" && edited.body == "At noon?")
        #expect(edited.userInfo["id"] as? Int == 7)
        #expect(frozen.sound == UNNotificationSound.defaultCriticalSound(withAudioVolume: 0.5))
        #expect(frozen.isEqual(content))
    }

    @Test("content survives secure coding, attachments and sound included")
    func secureCoding() throws {
        let content = UNMutableNotificationContent()
        content.title = "Ana"
        content.threadIdentifier = "chat-7"
        content.interruptionLevel = .timeSensitive
        content.sound = UNNotificationSound(named: UNNotificationSoundName("chime.caf"))
        content.attachments = [UNNotificationAttachment(identifier: "a", url: URL(fileURLWithPath: "/tmp/a.png"), type: "public.png")]
        let data = try NSKeyedArchiver.archivedData(withRootObject: content, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClasses: [UNMutableNotificationContent.self, UNNotificationContent.self,
                                                                                     UNNotificationSound.self, UNNotificationAttachment.self,
                                                                                     NSDictionary.self, NSArray.self, NSString.self, NSNumber.self],
                                                                          from: data) as? UNNotificationContent)
        #expect(decoded.title == "Ana" && decoded.threadIdentifier == "chat-7" && decoded.interruptionLevel == .timeSensitive)
        #expect(decoded.sound == UNNotificationSound(named: UNNotificationSoundName("chime.caf")))
        #expect(decoded.attachments.map(\.identifier) == ["a"] && decoded.attachments.first?.type == "public.png")
    }

    @Test("sounds: default, named, critical at a volume (clamped to 0…1), ringtone; equal by what they play")
    func sounds() {
        #expect(UNNotificationSound.default.summary == "default")
        #expect(UNNotificationSound(named: UNNotificationSoundName(rawValue: "a.caf")).summary == "a.caf")
        #expect(UNNotificationSound.criticalSoundNamed(UNNotificationSoundName("a.caf"), withAudioVolume: 2).summary == "critical a.caf at volume 1.0")
        #expect(UNNotificationSound.defaultCritical.summary == "critical default")
        #expect(UNNotificationSound.ringtoneSoundNamed(UNNotificationSoundName("ring.caf")).summary == "ringtone ring.caf")
        #expect(UNNotificationSound.default == UNNotificationSound.default)
        #expect(UNNotificationSound.default != UNNotificationSound.defaultCritical)
    }

    @Test("a request keeps a copy of its content; a push trigger does not repeat")
    func request() {
        let content = UNMutableNotificationContent()
        content.title = "before"
        let request = UNNotificationRequest(identifier: "r", content: content, trigger: UNPushNotificationTrigger())
        content.title = "after"
        #expect(request.content.title == "before" && request.identifier == "r")
        #expect(request.trigger is UNPushNotificationTrigger && request.trigger?.repeats == false)
    }

    @Test("the center in this process keeps categories and delivered notifications; handlers run off the caller's thread")
    func localCenter() async {
        let store = LocalNotificationCenter()
        let previous = NotificationCenterStore.current
        NotificationCenterStore.current = store
        defer { NotificationCenterStore.current = previous }
        let center = UNUserNotificationCenter.current()
        let reply = UNNotificationAction(identifier: "reply", title: "Reply", options: [.foreground, .authenticationRequired])
        let category = UNNotificationCategory(identifier: "message", actions: [reply], intentIdentifiers: [], options: .customDismissAction)
        center.setNotificationCategories([category])
        let categories = await center.notificationCategories()
        #expect(categories == [category])
        #expect(categories.first?.actions.first?.options == [.foreground, .authenticationRequired])
        for identifier in ["a", "b"] {
            store.deliver(UNNotification(date: Date(), request: UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil)))
        }
        center.removeDeliveredNotifications(withIdentifiers: ["a"])
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["b"])
        center.removeAllDeliveredNotifications()
        #expect(await center.deliveredNotifications().isEmpty)
    }
}
