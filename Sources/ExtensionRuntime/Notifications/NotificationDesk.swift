import Foundation
import OpenUserNotifications
#if canImport(Darwin)
import UniformTypeIdentifiers
#else
import OpenUniformTypeIdentifiers
#endif
import PackageSupport
import SharingSystem

/// The host's side of notification service: the payloads in order, each notification's fate, the data store
/// attachments move into, and the notification center (categories, delivered notifications) the extension
/// sees, kept across the processes of one run. Used on one thread at a time.
// @unchecked: used from one thread at a time (the supervisor's, then the next process's); what another thread reads (the bytes stored) is a Locked.
final class NotificationDesk: @unchecked Sendable {
    private let payloads: [PushPayload]
    private let dataStore: URL
    private let allowsFiltering: Bool
    /// The bytes the desk has moved into the data store for the extension and not yet removed: counted against
    /// the run's disk budget (`DiskMeter`), read from the supervisor's measuring thread.
    let storedBytes = Locked(0)
    /// The run's disk budget, which what the desk stores counts against.
    private let diskLimit: Int
    /// Everything stored for the extension now, what the desk stored included: the current process's meter,
    /// set by its supervisor.
    var diskInUse: @Sendable () -> Int = { 0 }
    private var deliveries: [NotificationDelivery?]
    /// The next payload to hand out.
    private var position = 0
    /// The payloads the current process was sent, by notification index.
    private var sent: [Int] = []
    /// The payload sent whose content has not come.
    private var inFlight: Int?
    private var process = -1
    private var categories: [WireCategory] = []
    /// The notifications shown so far, as the notification center lists them.
    private var shown: [WireDelivered] = []

    /// The most attachments one notification keeps; more are dropped. Apple documents no count (a notification
    /// shows one thumbnail); ten is the runtime's own bound, so that what is stored for one notification is
    /// bounded by the families' sizes.
    static let maximumAttachments = 10

    init(payloads: [PushPayload], dataStore: URL, allowsFiltering: Bool, diskLimit: Int) {
        self.payloads = payloads
        self.dataStore = dataStore
        self.allowsFiltering = allowsFiltering
        self.diskLimit = diskLimit
        deliveries = Array(repeating: nil, count: payloads.count)
    }

    /// Whether a payload still to come asks for the extension: a process is needed.
    var needsProcess: Bool {
        payloads[position...].contains { $0.skipsServiceExtension == nil }
    }

    /// Each payload's notification, once every one has been handed out.
    var results: [NotificationDelivery] {
        while next() != nil {}
        return deliveries.compactMap { $0 }
    }

    /// A new process is starting: notification indices start again at 0.
    func beginProcess() {
        process += 1
        sent = []
    }

    /// The next notification for the extension, showing the payloads before it that do not ask for one.
    func next() -> RuntimeMessage? {
        while position < payloads.count {
            let payload = payloads[position]
            defer { position += 1 }
            if let skip = payload.skipsServiceExtension {
                record(position, NotificationDelivery(payload: payload.name, identifier: payload.identifier, shown: .original, status: nil,
                                                      reason: skip, content: show(payload.content, attachments: [])))
                continue
            }
            inFlight = position
            sent.append(position)
            return .notification(index: UInt32(sent.count - 1), identifier: payload.identifier, content: payload.content)
        }
        return nil
    }

    /// Whether notification `index` of this process has been sent.
    func wasSent(_ index: UInt32) -> Bool { Int(index) < sent.count }

    /// Whether notification `index` is the one whose content is awaited.
    func awaits(_ index: UInt32) -> Bool { Int(index) < sent.count && sent[Int(index)] == inFlight }

    /// The content handler of notification `index` was called, first: the content is shown, its attachments
    /// checked and copied into the data store from the descriptors that crossed (the extension's side removes
    /// its own files, as iOS moves them: the host never removes by a path the extension controls).
    ///
    /// - Throws: `ProtocolViolation` for an attachment's descriptor the host may not read through (opened
    ///   `O_PATH` or write-only) or that is not a regular file's.
    func delivered(_ index: UInt32, content: WireContent, files: [OpenFile], expired: Bool, peak: Int) throws(ProtocolViolation) {
        var remaining = files[...]
        var carried: [(WireNotificationAttachment, OpenFile?)] = []
        for attachment in content.attachments {
            let file = attachment.carriesFile ? remaining.popFirst() : nil
            if let file { _ = try ProviderMirror.incomingFile(file, "attachment \(attachment.identifier)") }
            carried.append((attachment, file))
        }
        let payloadIndex = sent[Int(index)]
        inFlight = nil
        let payload = payloads[payloadIndex]
        var stored: [StoredAttachment] = []
        var rejected: [RejectedAttachment] = []
        var copiedFromStore: Set<String> = []
        for (position, (attachment, file)) in carried.enumerated() {
            guard position < Self.maximumAttachments else {
                rejected.append(RejectedAttachment(identifier: attachment.identifier, code: .attachmentMoveIntoDataStoreFailed,
                                                   message: "\(UNError.Code.attachmentMoveIntoDataStoreFailed.summary): a notification keeps at most \(Self.maximumAttachments) attachments here"))
                continue
            }
            switch store(attachment, file: file, copiedFromStore: &copiedFromStore) {
            case .success(let attachment): stored.append(attachment)
            case .failure(let rejection): rejected.append(rejection)
            }
        }
        var delivery = NotificationDelivery(payload: payload.name, identifier: payload.identifier, shown: .modified, status: .completed,
                                            reason: nil, expired: expired, content: show(content, attachments: stored),
                                            rejectedAttachments: rejected, handlerCalls: 1, peakFootprint: peak, process: process)
        if content.title.isEmpty && content.subtitle.isEmpty && content.body.isEmpty {
            if allowsFiltering {
                delivery.shown = .suppressed
                delivery.reason = "the extension passed content with no title, subtitle or body, and has the filtering entitlement"
            } else {
                delivery.shown = .original
                delivery.content = show(payload.content, attachments: [])
                delivery.reason = "the extension passed content with no title, subtitle or body, which would not alert visibly; "
                    + "without the filtering entitlement (com.apple.developer.usernotifications.filtering) iOS delivers the original"
            }
        }
        record(payloadIndex, delivery)
    }

    /// The content handler of notification `index` was called again: counted, not shown.
    func calledAgain(_ index: UInt32) {
        let payloadIndex = sent[Int(index)]
        deliveries[payloadIndex]?.handlerCalls += 1
    }

    /// The process ended with the notification in flight, if any, undelivered: its original is shown, and why.
    func interrupted(_ run: ExtensionRun) {
        guard let payloadIndex = inFlight else { return }
        inFlight = nil
        let payload = payloads[payloadIndex]
        let (status, reason): (ExtensionStatus, String)
        switch run.outcome {
        case .interrupted(.timeout(let phase)) where phase == .request:
            (status, reason) = (.interruptedTimeout, "the content handler was not called in time, nor from serviceExtensionTimeWillExpire()")
        case .interrupted(let interruption):
            (status, reason) = (run.status, "\(interruption)")
        case .completed, .cancelled:
            (status, reason) = (run.status, "the extension ended without calling its content handler")
        }
        record(payloadIndex, NotificationDelivery(payload: payload.name, identifier: payload.identifier, shown: .original, status: status,
                                                  reason: reason, content: show(payload.content, attachments: []), peakFootprint: run.peakFootprint,
                                                  process: process))
    }

    /// Answers a notification center call, or records it. An answer is what fits in one message: the
    /// categories the extension set (it sent them in one), the delivered notifications newest first, the
    /// oldest left out when all would not fit — the host sends nothing larger than it lets the extension send.
    func center(_ call: WireCenterCall) -> WireCenterAnswer? {
        func fits(_ answer: WireCenterAnswer) -> Bool {
            RuntimeMessage.centerAnswer(id: .max, answer: answer).encoded().bytes.count <= RuntimeMessage.maximumPacket
        }
        switch call {
        case .setCategories(let categories):
            self.categories = categories
            return nil
        case .categories:
            var listed = categories
            while !fits(.categories(listed)) { listed.removeLast() }
            return .categories(listed)
        case .delivered:
            var listed = shown
            while !fits(.delivered(listed)) { listed.removeFirst() }
            return .delivered(listed)
        case .removeDelivered(let identifiers):
            removeShown { identifiers.contains($0.identifier) }
            return nil
        case .removeAllDelivered:
            removeShown { _ in true }
            return nil
        }
    }

    /// Removes notifications from the center, and their attachments from the data store.
    private func removeShown(_ matching: (WireDelivered) -> Bool) {
        for notification in shown where matching(notification) {
            for attachment in notification.content.attachments {
                let file = NotificationMirror.fileURL(attachment.url)
                let size = (try? FileSystem.status(file, followingLinks: false))??.allocatedSize ?? 0
                if (try? FileSystem.removeFile(file)) != nil { storedBytes.withLock { $0 = max(0, $0 - Int(size)) } }
            }
        }
        shown.removeAll(where: matching)
    }

    private func record(_ payloadIndex: Int, _ delivery: NotificationDelivery) {
        deliveries[payloadIndex] = delivery
        guard delivery.shown != .suppressed else { return }
        var content = payloads[payloadIndex].content
        if delivery.shown == .modified, let wire = shownWire(delivery) { content = wire }
        shown.append(WireDelivered(identifier: delivery.identifier, date: Date().timeIntervalSinceReferenceDate, content: content))
    }

    /// The shown content as the notification center gives it back: its attachments where the data store has them.
    private func shownWire(_ delivery: NotificationDelivery) -> WireContent? {
        let content = delivery.content
        var wire = WireContent()
        wire.title = content.title
        wire.subtitle = content.subtitle
        wire.body = content.body
        wire.badge = content.badge.map(Int64.init)
        wire.launchImageName = content.launchImageName
        wire.threadIdentifier = content.threadIdentifier
        wire.categoryIdentifier = content.categoryIdentifier
        wire.targetContentIdentifier = content.targetContentIdentifier
        wire.relevanceScore = content.relevanceScore
        wire.filterCriteria = content.filterCriteria
        wire.interruptionLevel = UInt8(Self.levels.firstIndex(of: content.interruptionLevel) ?? 1)
        wire.attachments = content.attachments.map {
            WireNotificationAttachment(identifier: $0.identifier, url: $0.url.absoluteString, type: $0.type, thumbnailHidden: false,
                                       thumbnailClippingRect: nil, thumbnailTime: -1, carriesFile: false)
        }
        return wire
    }

    static let levels = ["passive", "active", "time-sensitive", "critical"]

    private func show(_ content: WireContent, attachments: [StoredAttachment]) -> ShownContent {
        let fields = NotificationMirror.fields(content)
        return ShownContent(title: content.title, subtitle: content.subtitle, body: content.body, badge: content.badge.map { Int(clamping: $0) },
                            sound: fields.sound?.summary, launchImageName: content.launchImageName,
                            threadIdentifier: content.threadIdentifier, categoryIdentifier: content.categoryIdentifier,
                            targetContentIdentifier: content.targetContentIdentifier,
                            interruptionLevel: Self.levels[Int(min(content.interruptionLevel, 3))], relevanceScore: content.relevanceScore,
                            filterCriteria: content.filterCriteria, attachments: attachments,
                            communication: content.communication.map {
                                ShownContent.Communication(sender: $0.senderName, senderHandle: $0.senderHandle, avatar: $0.avatar, group: $0.groupName,
                                                           groupImage: $0.groupImage, conversationIdentifier: $0.conversationIdentifier,
                                                           recipients: $0.recipients)
                            })
    }

    /// Checks an attachment's file as iOS does after the extension finishes, and moves it into the data store,
    /// within the run's disk budget. A file already in the data store (an attachment of a notification shown)
    /// is copied at most once per notification; a sparse file, which a copy would write out whole, is refused.
    private func store(_ attachment: WireNotificationAttachment, file: OpenFile?, copiedFromStore: inout Set<String>) -> Result<StoredAttachment, RejectedAttachment> {
        func reject(_ code: UNError.Code, _ message: String) -> Result<StoredAttachment, RejectedAttachment> {
            .failure(RejectedAttachment(identifier: attachment.identifier, code: code, message: "\(code.summary): \(message)"))
        }
        let url = NotificationMirror.fileURL(attachment.url)
        let storePath = dataStore.standardizedFileURL.path + "/"
        var source = file
        if source == nil {
            // An attachment of a notification already shown names a file in the data store, which the
            // extension cannot read: the host can, while the notification is there.
            guard url.standardizedFileURL.path.hasPrefix(storePath) else {
                return reject(.attachmentMoveIntoDataStoreFailed, "\(url.path) was gone, or could not be read, when the system came to move it into the data store")
            }
            guard let inStore = try? OpenFile.reading(url, followingLinks: false) else {
                return reject(.attachmentNotInDataStore, "\(url.lastPathComponent) is no longer in the data store (its notification was removed)")
            }
            guard copiedFromStore.insert(url.standardizedFileURL.path).inserted else {
                return reject(.attachmentMoveIntoDataStoreFailed, "\(url.lastPathComponent) is already attached to this notification")
            }
            source = inStore
        }
        guard let source, let status = try? source.status(), status.kind == .regular else {
            return reject(.attachmentMoveIntoDataStoreFailed, "\(url.path) is not a regular file")
        }
        // A hole is written out whole by a copy: what it claims beyond what it stores would be stored for it.
        guard status.size <= status.allocatedSize + ProviderMirror.sparseAllowance else {
            return reject(.attachmentMoveIntoDataStoreFailed, "\(url.lastPathComponent) claims \(status.size) bytes but stores \(status.allocatedSize): the system takes no sparse file")
        }
        guard status.size + Int64(diskInUse()) <= Int64(diskLimit) else {
            return reject(.attachmentMoveIntoDataStoreFailed, "\(url.lastPathComponent) (\(status.size) bytes) would take the data store past the run's disk budget of \(diskLimit) bytes")
        }
        let reading = source
        let checked: AttachmentFile.Checked
        do {
            let leading = try reading.bytes(at: 0, count: 16)
            checked = try AttachmentFile.check(name: url.lastPathComponent, typeHint: attachment.type, size: Int(status.size), leadingBytes: leading)
        } catch let error as UNError {
            return .failure(RejectedAttachment(identifier: attachment.identifier, code: error.code, message: error.localizedDescription))
        } catch {
            return reject(.attachmentCorrupt, "\(url.path) could not be read: \(error)")
        }
        let name = UUID().uuidString + (UTType(checked.type)?.preferredFilenameExtension.map { ".\($0)" } ?? "")
        let destination = dataStore.appendingPathComponent(name)
        do {
            try FileSystem.createDirectories(dataStore)
            let copied = try FileCopier.copy(from: reading, to: destination) { $0 <= Int64(checked.family.maximumSize) }
            guard copied.bytes == status.size else {
                try? FileSystem.removeFile(destination)
                return reject(.attachmentMoveIntoDataStoreFailed, "\(url.path) changed while it was moved (\(copied.bytes) bytes of \(status.size))")
            }
            let allocated = (try? FileSystem.status(destination, followingLinks: false))??.allocatedSize ?? copied.bytes
            storedBytes.withLock { $0 += Int(allocated) }
        } catch {
            return reject(.attachmentMoveIntoDataStoreFailed, "\(url.path) could not be moved into \(dataStore.path): \(error)")
        }
        return .success(StoredAttachment(identifier: attachment.identifier, type: checked.type, size: Int(status.size), url: destination))
    }
}
