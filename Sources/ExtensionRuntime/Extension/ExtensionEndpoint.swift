import Foundation
import OpenExtensionUI
import OpenItemProvider
import OpenUserNotifications
import PackageSupport
import SharingSystem

/// The extension's end of the connection: its loads wait here for the host's answers, each answered once —
/// by the host, by the consumer's cancellation, or by the host's going away, whichever comes first.
final class ExtensionEndpoint: Sendable {
    private let channel: PacketChannel
    private let pending = Locked<Pending>(Pending())

    private struct Pending {
        var nextIdentifier: UInt32 = 1
        var loads: [UInt32: Load] = [:]
        var openings: [UInt32: ReplyBox<Bool>] = [:]
        /// How each stream that answered a load ended, as the host says, by the load it answered.
        var streamEnds: [UInt32: ReplyBox<(bytes: UInt64, complete: Bool)?>] = [:]
        /// Notification center calls awaiting the host's answer (`nil` when the host went away).
        var centerCalls: [UInt32: ReplyBox<WireCenterAnswer?>] = [:]
        /// Background transfers the host carries, awaiting its word of their end while this process lives.
        var transfers: [UInt32: @Sendable (Int32, RemoteError?) -> Void] = [:]
        var closed = false

        /// A new identifier for a call that waits for the host's answer; `nil` once the host has gone.
        mutating func newIdentifier() -> UInt32? {
            guard !closed else { return nil }
            defer { nextIdentifier &+= 1 }
            return nextIdentifier
        }
    }

    /// A load in flight: its one reply, and its progress, which follows the host's.
    private struct Load {
        var reply: ReplyBox<Answer>
        var progress: Progress
    }

    /// What a load gets: a result and its descriptors.
    struct Answer: Sendable {
        var result: LoadResult
        var files: [OpenFile]
    }

    /// The exit status of an extension that could not read its host's message: the host reports it as a
    /// protocol violation (`EX_PROTOCOL`).
    static let unreadableHostStatus: Int32 = 76

    private init(channel: PacketChannel) {
        self.channel = channel
    }

    /// Says the extension is ready on descriptor 3, handing the host one end of a socket pair this process
    /// makes: the host checks with SO_PEERCRED that its maker is the process it started, and the request goes
    /// on over that pair.
    static func connect() throws(SystemError) -> ExtensionEndpoint {
        let bootstrap = PacketChannel(adopting: 3, name: "the host")
        let (channel, hostEnd) = try PacketChannel.pair(name: "the host")
        // Compiled as the extension's own code is (one configuration for a package and its dependencies).
        let optimised = !_isDebugAssertConfiguration()
        try bootstrap.send(RuntimeMessage.ready(process: Processes.current, optimised: optimised).encoded().bytes, channels: [hostEnd])
        return ExtensionEndpoint(channel: channel)
    }

    /// The first message: the request, or a notification service's first notification.
    func awaitRequest() throws(ProtocolViolation) -> RuntimeMessage {
        let packet: PacketChannel.Packet?
        do {
            packet = try channel.receive(capacity: RuntimeMessage.maximumPacket + 1)
        } catch {
            throw ProtocolViolation("cannot read the request: \(error)")
        }
        guard let packet else { throw ProtocolViolation("the host closed the connection before sending the request") }
        let message = try RuntimeMessage.decode(packet.bytes, descriptors: packet.files.count)
        switch message {
        case .request, .notification: return message
        default: throw ProtocolViolation("the host's first message was not the request")
        }
    }

    /// What a notification service does with the host's next notifications, and when its time runs out.
    func serveNotifications(_ receive: @escaping @Sendable (UInt32, String, WireContent) -> Void, expiring: @escaping @Sendable () -> Void) {
        notificationHandlers.withLock { $0 = (receive, expiring) }
    }

    private let notificationHandlers = Locked<(receive: @Sendable (UInt32, String, WireContent) -> Void, expiring: @Sendable () -> Void)?>(nil)

    /// Reads the host's answers on a thread of the platform layer's, until the host closes the connection or
    /// goes away (then every pending load ends, and `closed` says so) or sends what this runtime cannot read
    /// (then the process says why and ends with `unreadableHostStatus`). `ended` runs when the host says it has
    /// the request's outcome.
    func startReading(ended: @escaping @Sendable () -> Void, closed: @escaping @Sendable () -> Void) {
        endedHandler.withLock { $0 = ended }
        BlockingThreads.submit { [self] in
            while true {
                let packet: PacketChannel.Packet
                do {
                    guard let received = try channel.receive(capacity: RuntimeMessage.maximumPacket + 1) else { break }
                    packet = received
                } catch {
                    break
                }
                do throws(ProtocolViolation) {
                    guard !packet.truncated else { throw ProtocolViolation("a message larger than \(RuntimeMessage.maximumPacket) bytes") }
                    handle(try RuntimeMessage.decode(packet.bytes, descriptors: packet.files.count), files: packet.files)
                } catch {
                    ExtensionProcess.say("the host sent a message this runtime cannot read (\(error.message)); ending")
                    exit(Self.unreadableHostStatus)
                }
            }
            endAll()
            closed()
        }
    }

    private let endedHandler = Locked<(@Sendable () -> Void)?>(nil)
    private let settledHandler = Locked<(@Sendable () -> Void)?>(nil)
    private let loadsInFlight = Locked(0)

    /// Whether a load the extension asked for has yet to reach its consumer.
    var hasLoadsInFlight: Bool { loadsInFlight.withLock { $0 > 0 } }

    /// Runs `settled` each time a load's answer has reached its consumer.
    func onLoadSettled(_ settled: @escaping @Sendable () -> Void) {
        settledHandler.withLock { $0 = settled }
    }

    private func handle(_ message: RuntimeMessage, files: [OpenFile]) {
        switch message {
        case .loaded(let id, let result):
            guard let load = pending.withLock({ $0.loads.removeValue(forKey: id) }) else { return }
            if case .stream(let name) = result, let pipe = files.first {
                let end = ReplyBox<(bytes: UInt64, complete: Bool)?>()
                pending.withLock { $0.streamEnds[id] = end }
                BlockingThreads.submit { load.reply.resolve(Self.drain(pipe, named: name, end: end)) }
            } else {
                load.reply.resolve(Answer(result: result, files: files))
            }
        case .streamEnded(let id, let bytes, let complete):
            pending.withLock { $0.streamEnds.removeValue(forKey: id) }?.resolve((bytes, complete))
        case .progress(let id, let completed, let total):
            // The host's units: the load's own progress follows them until its answer completes it.
            if let progress = pending.withLock({ $0.loads[id]?.progress }), total > 0 {
                progress.totalUnitCount = total
                progress.completedUnitCount = min(completed, total)
            }
        case .openedURL(let id, let opened):
            pending.withLock { $0.openings.removeValue(forKey: id) }?.resolve(opened)
        case .timeWarning(let phase):
            ExtensionProcess.say("the host's \(phase.rawValue) time budget ran out; the extension is about to be killed")
            // Work after completion is told it has expired, as iOS tells it before suspending the process.
            if phase == .afterCompletion { ProcessActivities.expire() }
            // A notification service is told its time will expire.
            if phase == .request { notificationHandlers.withLock { $0 }?.expiring() }
        case .notification(let index, let identifier, let content):
            notificationHandlers.withLock { $0 }?.receive(index, identifier, content)
        case .centerAnswer(let id, let answer):
            pending.withLock { $0.centerCalls.removeValue(forKey: id) }?.resolve(answer)
        case .transferEnded(let id, let status, let error):
            pending.withLock { $0.transfers.removeValue(forKey: id) }?(status, error)
        case .ended:
            endedHandler.withLock { $0 }?()
        case .request, .ready, .load, .cancelLoad, .openURL, .complete, .cancel, .alert, .deliver, .center, .endedAgain, .tapped, .posted, .stuck, .donated,
             .transfer:
            ExtensionProcess.say("the host sent an extension's message (\(message.kindName)); ignored")
        }
    }

    /// Ends every pending load, URL request and notification center call: the host went away.
    private func endAll() {
        let (loads, openings, streams, calls) = pending.withLock { state in
            state.closed = true
            defer { state.loads = [:]; state.openings = [:]; state.streamEnds = [:]; state.centerCalls = [:] }
            return (Array(state.loads.values), Array(state.openings.values), Array(state.streamEnds.values), Array(state.centerCalls.values))
        }
        calls.forEach { $0.resolve(nil) }
        let gone = Answer(result: .failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the host went away")), files: [])
        loads.forEach { $0.reply.resolve(gone) }
        openings.forEach { $0.resolve(false) }
        streams.forEach { $0.resolve(nil) }
    }

    /// The fetch the input items' providers load through: the same call, on the host's provider of input
    /// attachment `attachment`.
    func fetch(attachment: UInt32) -> Fetch {
        { [self] type, form, reply in load(attachment: attachment, type: type, form: form, reply) }
    }

    /// Asks the host to load; `reply` gets the answer once. The returned progress follows the host's, and
    /// cancelling it cancels the load at the host.
    private func load(attachment: UInt32, type: String, form: WireForm,
                      _ reply: @escaping @Sendable (LoadResult, [OpenFile]) -> Void) -> Progress {
        let progress = SynchronizedProgress(detachedTotal: 1)
        loadsInFlight.withLock { $0 += 1 }
        let box = ReplyBox<Answer> { [self] answer in
            progress.completedUnitCount = progress.totalUnitCount
            reply(answer.result, answer.files)
            // Settled once the consumer's handler has run (and queued what it queues).
            loadsInFlight.withLock { $0 -= 1 }
            settledHandler.withLock { $0 }?()
        }
        let id: UInt32? = pending.withLock { state in
            let id = state.newIdentifier()
            if let id { state.loads[id] = Load(reply: box, progress: progress) }
            return id
        }
        // Answers never come on the caller's thread: a provider's loads start on it.
        guard let id else {
            BlockingThreads.submit { box.resolve(Self.failed("the host went away")) }
            return progress
        }
        progress.cancellationHandler = { [self] in
            guard pending.withLock({ $0.loads.removeValue(forKey: id) }) != nil else { return }
            try? channel.send(RuntimeMessage.cancelLoad(id: id).encoded().bytes)
            BlockingThreads.submit {
                box.resolve(Answer(result: .failed(RemoteError(domain: NSCocoaErrorDomain, code: Int64(CocoaError.userCancelled.rawValue),
                                                               message: "The load was cancelled.")), files: []))
            }
        }
        do {
            try channel.send(RuntimeMessage.load(id: id, attachment: attachment, type: type, form: form).encoded().bytes)
        } catch {
            if pending.withLock({ $0.loads.removeValue(forKey: id) }) != nil {
                BlockingThreads.submit { box.resolve(Self.failed("the host went away: \(error)")) }
            }
        }
        return progress
    }

    /// Hands a background session's upload to the host, its body's file with it; `ended` gets the server's
    /// status or the error if the host says so while this process lives. Whether the host has it.
    func handOff(_ transfer: WireTransfer, body: OpenFile, ended: @escaping @Sendable (Int32, RemoteError?) -> Void) -> Bool {
        let id: UInt32? = pending.withLock { state in
            let id = state.newIdentifier()
            if let id { state.transfers[id] = ended }
            return id
        }
        guard let id else { return false }
        guard (try? channel.send(RuntimeMessage.transfer(id: id, transfer).encoded().bytes, files: [body])) != nil else {
            pending.withLock { _ = $0.transfers.removeValue(forKey: id) }
            return false
        }
        return true
    }

    /// Asks the host to open a URL; `reply` learns whether it did, once.
    func open(_ url: URL, _ reply: @escaping @Sendable (Bool) -> Void) {
        let box = ReplyBox<Bool>(reply)
        let id: UInt32? = pending.withLock { state in
            let id = state.newIdentifier()
            if let id { state.openings[id] = box }
            return id
        }
        guard let id, (try? channel.send(RuntimeMessage.openURL(id: id, url: url.absoluteString).encoded().bytes)) != nil else {
            return BlockingThreads.submit { box.resolve(false) }
        }
    }

    /// The input items, their providers registered with the host's types and forms, every load crossing.
    func inputItems(_ items: [WireItem]) -> [NSExtensionItem] {
        var index: UInt32 = 0
        return items.map { wire in
            let item = NSExtensionItem()
            item.attributedTitle = wire.title.map { NSAttributedString(string: $0) }
            item.attributedContentText = wire.contentText.map { NSAttributedString(string: $0) }
            item.attachments = wire.attachments?.map { attachment in
                defer { index += 1 }
                return ProviderMirror.forwardingProvider(for: attachment, fetch: fetch(attachment: index))
            }
            return item
        }
    }

    /// Tells the host of an alert the extension presented and what the user did with it.
    func report(_ alert: PresentedAlert) {
        let wire = WireAlert(title: alert.title, message: alert.message, actions: alert.actions, chosen: Int32(alert.chosen ?? -1))
        try? channel.send(RuntimeMessage.alert(wire).encoded().bytes)
    }

    /// Tells the host the extension posted `name` to the Darwin notify center; a name too long to carry is
    /// cut at a character's end.
    func reportPosted(_ name: String) {
        try? channel.send(RuntimeMessage.posted(name: Self.cut(name)).encoded().bytes)
    }

    /// Tells the host the extension donated `interaction` (`INInteraction.reported`), cut as a posted name is.
    func reportDonated(_ interaction: String) {
        try? channel.send(RuntimeMessage.donated(interaction: Self.cut(interaction)).encoded().bytes)
    }

    /// `text` cut at a character's end to what a report's name carries.
    private static func cut(_ text: String) -> String {
        var cut = text
        while cut.utf8.count > RuntimeMessage.longestPostedName { cut.removeLast() }
        return cut
    }

    /// Tells the host the user tapped `button` (a button, bar item or row, as `ExtensionPresenter.tapObserver` names it).
    func reportTap(_ button: String) {
        try? channel.send(RuntimeMessage.tapped(button: button).encoded().bytes)
    }

    /// Tells the host the scripted user is stuck, and why (cut to what a message carries).
    func reportStuck(_ reason: String) {
        var cut = ""
        for character in reason where cut.utf8.count + character.utf8.count <= RuntimeMessage.longestStuckReason { cut.append(character) }
        try? channel.send(RuntimeMessage.stuck(reason: cut).encoded().bytes)
    }

    /// Tells the host the extension ended its request again with `call`, which was ignored.
    func reportEndedAgain(by call: String) {
        try? channel.send(RuntimeMessage.endedAgain(call: call).encoded().bytes)
    }

    /// Sends how the request ended: the returned items with their payloads, loaded now (the process ends
    /// soon), or the error. `sent` runs once the host has the message.
    func send(_ outcome: NSExtensionContext.Outcome, then sent: @escaping @Sendable () -> Void) {
        switch outcome {
        case .completed(let returned):
            ProviderMirror.encodeReturned(returned) { [self] items, files in
                deliver(.complete(items: items), files: files)
                sent()
            }
        case .cancelled(let error):
            let cocoa = error as NSError
            deliver(.cancel(RemoteError(domain: cocoa.domain, code: Int64(cocoa.code), message: cocoa.localizedDescription)), files: [])
            sent()
        }
    }

    /// Sends the content a notification service's handler was given for notification `index`, its attachments'
    /// files opened here (those it cannot open cross without one), then removes those files, as the system
    /// moves them into its data store (one in the bundle is copied, and stays). A `userInfo` value that secure
    /// coding would refuse crashes the extension, as the exception does on a device, after it says what and where.
    func deliver(_ index: UInt32, _ content: UNNotificationContent) {
        var files: [OpenFile] = []
        var wire: WireContent
        do {
            wire = try NotificationMirror.wire(content) { attachment in
                // A shown notification's file is the host's to copy, as only the system reads its data store.
                guard !attachment.isInDataStore, files.count < PacketChannel.maximumDescriptors,
                      let file = try? OpenFile.reading(attachment.url) else { return false }
                files.append(file)
                return true
            }
        } catch {
            ExtensionProcess.say("the content handler was given content that cannot be sent: \(error)")
            abort()
        }
        if RuntimeMessage.deliver(index: index, content: wire).encoded().bytes.count > RuntimeMessage.maximumPacket {
            ExtensionProcess.say("the content's userInfo makes it larger than a message holds (\(RuntimeMessage.maximumPacket) bytes); it is sent without its userInfo")
            wire.userInfo = .dictionary([])
        }
        do {
            try channel.send(RuntimeMessage.deliver(index: index, content: wire).encoded().bytes, files: files)
        } catch {
            ExtensionProcess.say("cannot send the notification's content to the host: \(error)")
            return
        }
        // The host has the files' descriptors; the paths go.
        let bundle = Bundle.main.bundleURL.standardizedFileURL.path + "/"
        for (attachment, carried) in zip(content.attachments, wire.attachments) where carried.carriesFile
            && !attachment.url.standardizedFileURL.path.hasPrefix(bundle) {
            try? FileManager.default.removeItem(at: attachment.url)
        }
    }

    /// Makes a notification center call; `reply` gets the host's answer (`nil` when the host went away), on
    /// a thread of the reader's.
    func center(_ call: WireCenterCall, reply: (@Sendable (WireCenterAnswer?) -> Void)? = nil) {
        let box = reply.map { ReplyBox<WireCenterAnswer?>($0) }
        let id: UInt32? = pending.withLock { state in
            let id = state.newIdentifier()
            if let id, let box { state.centerCalls[id] = box }
            return id
        }
        guard let id, (try? channel.send(RuntimeMessage.center(id: id, call: call).encoded().bytes)) != nil else {
            if let box { BlockingThreads.submit { box.resolve(nil) } }
            return
        }
    }

    private func deliver(_ message: RuntimeMessage, files: [OpenFile]) {
        var message = message
        var files = files
        if message.encoded().bytes.count > RuntimeMessage.maximumPacket {
            ExtensionProcess.say("the returned items take \(message.encoded().bytes.count) bytes, more than a completion holds "
                                 + "(\(RuntimeMessage.maximumPacket)); the request completes with none")
            message = .complete(items: [])
            files = []
        }
        do {
            try channel.send(message.encoded().bytes, files: files)
        } catch {
            ExtensionProcess.say("cannot send the request's outcome to the host: \(error)")
        }
    }

    private static func failed(_ message: String) -> Answer {
        Answer(result: .failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: message)), files: [])
    }

    /// Reads a stream the host answered a load with to its end, into a file of the extension's own (in its
    /// temporary directory), and answers with that file once the host says the stream ended whole; a stream
    /// cut short, or a host gone first, fails the load. The file is unlinked once open: the answer's descriptor
    /// keeps it until the consumer is done.
    private static func drain(_ pipe: OpenFile, named name: String, end: ReplyBox<(bytes: UInt64, complete: Bool)?>) -> Answer {
        let directory: TemporaryDirectory
        do {
            directory = try TemporaryDirectory(in: nil)
        } catch {
            return failed("cannot make a file for the stream \(name): \(error)")
        }
        defer { directory.remove() }
        let copy = directory.url.appendingPathComponent(ProviderMirror.safeName(name))
        let drained: Int64
        do {
            drained = try FileCopier.copyStream(from: pipe, to: copy)
        } catch {
            // The pipe closes when this returns, which ends the host's side of the stream.
            return failed("the stream \(name) could not be saved: \(error)")
        }
        guard let reply = end.wait(), let said = reply else { return failed("the host went away while sending the stream \(name)") }
        guard said.complete, said.bytes == UInt64(drained) else {
            return failed("the stream \(name) was cut short in the host after \(said.bytes) bytes (\(drained) arrived)")
        }
        do {
            return Answer(result: .file(name: copy.lastPathComponent, openedInPlace: false), files: [try OpenFile.reading(copy)])
        } catch {
            return failed("\(error)")
        }
    }
}
