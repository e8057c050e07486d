import SharingShim

// For tests: a notification service that does what each payload's "probe" key says, so that one program shows
// every way a service can end. Its body always ends with the process's identifier and how many notifications
// this instance has had, which shows when iOS-style reuse happened.
//
// probe: edit (the default) | double | late-double | expire | expire-silent | block-main | suppress | crash | hog | attach |
//        center | unsendable | log-crash | darwin | communication
final class NotificationService: UNNotificationServiceExtension {
    private var received = 0
    private var handler: ((UNNotificationContent) -> Void)?
    private var best: UNMutableNotificationContent?
    /// What the "darwin" probe does once it hears its own post.
    nonisolated(unsafe) private static var heard: (() -> Void)?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        received += 1
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        content.body += " (pid \(ProcessInfo.processInfo.processIdentifier), notification \(received), main thread \(Thread.isMainThread))"
        handler = contentHandler
        best = content
        switch content.userInfo["probe"] as? String ?? "edit" {
        case "double":
            content.title = "first"
            contentHandler(content)
            let second = content.mutableCopy() as! UNMutableNotificationContent
            second.title = "second"
            contentHandler(second)
        case "late-double":
            // The race Mattermost's wrapper guards against: a second call half a second after the first.
            content.title = "first"
            contentHandler(content)
            let second = content.mutableCopy() as! UNMutableNotificationContent
            second.title = "second"
            // Called on the main queue, as the first was.
            nonisolated(unsafe) let (handler, late) = (contentHandler, second)
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) { handler(late) }
        case "expire":
            content.title = "best attempt"
        case "expire-silent":
            best = nil
        case "block-main":
            content.title = "best attempt while the main thread was stuck"
            while true { usleep(1000) }
        case "suppress":
            contentHandler(UNMutableNotificationContent())
        case "crash":
            fatalError("the probe crashes on purpose")
        case "log-crash":
            // The os module's logging as services use it, then a crash: what was logged is among its last words.
            os_log("%{public}@ has %d attachments", log: OSLog(subsystem: "org.opensharing.prober", category: "service"), type: .error,
                   content.title, content.attachments.count)
            os_log(.info, "a constant message with a 100% sign")
            let logger = Logger(subsystem: "org.opensharing.prober", category: "crash")
            let code = 48879
            logger.warning("code \(code, format: .hex(includePrefix: true, uppercase: true)), [\(content.title, align: .left(columns: 6))] \(true, format: .answer) \(1.5, format: .fixed(precision: 2))")
            logger.critical("about to crash: \(content.title, privacy: .private) \(CocoaError(.fileNoSuchFile), privacy: .public)")
            fatalError("the probe crashes on purpose, having logged")
        case "hog":
            let megabytes = content.userInfo["megabytes"] as? Int ?? 64
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: megabytes << 20, alignment: 16)
            buffer.initializeMemory(as: UInt8.self, repeating: 1)
            content.title = "survived \(megabytes) MB"
            contentHandler(content)
            buffer.deallocate()
        case "attach":
            attach(to: content)
            contentHandler(content)
        case "communication":
            // A chat app's communication notification (iOS 15): the sender as an INPerson with an avatar, an
            // INSendMessageIntent donated as an incoming interaction, and the content updated from the intent.
            let handle = INPersonHandle(value: "ana@example.com", type: .emailAddress)
            let avatar = INImage(imageData: Data(repeating: 0xAB, count: 2048))
            let sender = INPerson(personHandle: handle, nameComponents: nil, displayName: "Ana", image: avatar,
                                  contactIdentifier: nil, customIdentifier: "user-42", isMe: false, suggestionType: .none)
            let intent = INSendMessageIntent(recipients: nil, outgoingMessageType: .outgoingMessageText, content: content.body,
                                             speakableGroupName: INSpeakableString(spokenPhrase: "Lunch crew"), conversationIdentifier: "room-7",
                                             serviceName: nil, sender: sender, attachments: nil)
            intent.setImage(INImage(url: URL(string: "https://example.com/group.png")!), forParameterNamed: \.speakableGroupName)
            let interaction = INInteraction(intent: intent, response: nil)
            interaction.direction = .incoming
            nonisolated(unsafe) let (handler, original) = (contentHandler, content)
            interaction.donate { error in
                DispatchQueue.main.async {
                    guard error == nil, let updated = try? original.updating(from: intent) else { return handler(original) }
                    handler(updated)
                }
            }
        case "darwin":
            // How a chat app's service tells its app that a message arrived: a Darwin notification, which the app
            // observes. The service observes the name itself too, and ends when it hears its own post.
            let center = CFNotificationCenterGetDarwinNotifyCenter()
            let name = "org.opensharing.prober.newMessage"
            Self.heard = { content.title = "heard \(name)"; contentHandler(content) }
            CFNotificationCenterAddObserver(center, nil, { _, _, name, _, _ in
                NotificationService.heardOne(name.map { $0.rawValue as String } ?? "")
            }, name as CFString, nil, .deliverImmediately)
            CFNotificationCenterPostNotification(center, CFNotificationName(name as CFString), nil, nil, true)
        case "center":
            center(content, contentHandler)
        case "unsendable":
            content.userInfo["object"] = NSObject()
            contentHandler(content)
        default:
            content.title = "edited: " + content.title
            contentHandler(content)
        }
    }

    /// Called by the Darwin center's observer (a callback that captures nothing, as a C function pointer is).
    static func heardOne(_ name: String) {
        let heard = Self.heard
        Self.heard = nil
        heard?()
    }

    override func serviceExtensionTimeWillExpire() {
        guard let handler, let best else { return }
        best.subtitle = "expiry on the main thread: \(Thread.isMainThread)"
        handler(best)
    }

    /// Makes the files `userInfo["attachments"]` describes and attaches them; each one `init` refuses is noted in
    /// the subtitle as `identifier:code`.
    private func attach(to content: UNMutableNotificationContent) {
        var refused: [String] = []
        for description in content.userInfo["attachments"] as? [[String: Any]] ?? [] {
            let identifier = description["id"] as? String ?? ""
            var options: [AnyHashable: Any] = [:]
            if let hint = description["hint"] as? String { options[UNNotificationAttachmentOptionsTypeHintKey] = hint }
            let url: URL
            if let given = description["url"] as? String, let named = URL(string: given) {
                url = named
            } else {
                let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.org.opensharing.examples")
                let directory = description["in-group"] as? Bool == true ? group ?? FileManager.default.temporaryDirectory
                    : FileManager.default.temporaryDirectory
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                url = directory.appendingPathComponent(description["name"] as? String ?? "file")
                let size = description["size"] as? Int ?? 0
                var bytes: [UInt8] = switch description["bytes"] as? String {
                case "png": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                case "gif": Array("GIF89a".utf8)
                case "jpeg": [0xFF, 0xD8, 0xFF, 0xE0]
                case "text": Array("just some text".utf8)
                default: []
                }
                bytes += [UInt8](repeating: 0, count: max(0, min(size, 1 << 20) - bytes.count))
                guard FileManager.default.createFile(atPath: url.path, contents: Data(bytes)) else { continue }
                // A large file is sparse: its size is what is checked.
                if size > bytes.count, let handle = try? FileHandle(forWritingTo: url) {
                    try? handle.truncate(atOffset: UInt64(size))
                    try? handle.close()
                }
            }
            do {
                let attachment = try UNNotificationAttachment(identifier: identifier, url: url, options: options)
                content.attachments.append(attachment)
                if description["delete"] as? Bool == true { try? FileManager.default.removeItem(at: url) }
            } catch let error as UNError {
                refused.append("\(identifier):\(error.code.rawValue)")
            } catch {
                refused.append("\(identifier):?")
            }
        }
        content.subtitle = "refused " + refused.joined(separator: ",")
    }

    /// Sets a category, then reads the categories and the delivered notifications back into the content; with
    /// `reattach`, removes the delivered notifications first and re-attaches the first one's attachment.
    private func center(_ content: UNMutableNotificationContent, _ contentHandler: @escaping (UNNotificationContent) -> Void) {
        let center = UNUserNotificationCenter.current()
        let reply = UNNotificationAction(identifier: "reply", title: "Reply", options: [.foreground])
        center.setNotificationCategories([UNNotificationCategory(identifier: "message", actions: [reply], intentIdentifiers: [])])
        let reattach = content.userInfo["reattach"] as? Bool == true
        nonisolated(unsafe) let contentHandler = contentHandler
        center.getNotificationCategories { categories in
            center.getDeliveredNotifications { delivered in
                content.title = "categories " + categories.map { "\($0.identifier)[\($0.actions.map(\.identifier).joined())]" }.sorted().joined(separator: ",")
                content.subtitle = "delivered " + delivered.map(\.request.content.title).joined(separator: "|")
                if reattach, let first = delivered.first?.request.content.attachments.first {
                    if content.userInfo["remove"] as? Bool == true { center.removeAllDeliveredNotifications() }
                    content.attachments = [first]
                }
                contentHandler(content)
            }
        }
    }
}
