/// The messages between a host and an extension process, version 1: one message per `SOCK_SEQPACKET` packet,
/// little-endian, starting with the magic bytes `OS`, the version and the kind. Bulk bytes never travel in a
/// message: a message names them (`LoadResult.memory`, `.file`) and the packet carries their descriptors, in
/// order.
///
/// Decoding trusts nothing: every length is checked against what remains, every count against the bytes
/// that could hold it, every kind against the known ones, and the descriptors against what the message names.
package enum RuntimeMessage: Equatable, Sendable {
    // Extension to host.
    /// The extension is running; it gives its process identifier and, as the packet's descriptor, one end
    /// of a socket pair it made, over which the request goes on. The host checks that the pair's maker
    /// (SO_PEERCRED) is the process it started; and whether its program was compiled with optimisation.
    case ready(process: Int32, optimised: Bool)
    /// Load `type` from input attachment `attachment` (numbered across all items, in order) the way `form`
    /// says: the same call, on the host's provider, that the extension made on its own.
    case load(id: UInt32, attachment: UInt32, type: String, form: WireForm)
    /// The extension's consumer cancelled load `id`.
    case cancelLoad(id: UInt32)
    /// Ask the host to open a URL.
    case openURL(id: UInt32, url: String)
    /// `completeRequest(returningItems:)`, with the items (their payloads included).
    case complete(items: [WireItem])
    /// `cancelRequest(withError:)`.
    case cancel(RemoteError)
    /// The extension presented an alert, and the scripted user chose action `chosen` (none: -1), for the report.
    case alert(WireAlert)
    /// A notification service's content handler was called for notification `index` with this content; the
    /// packet carries the files of the attachments that say so, in order.
    case deliver(index: UInt32, content: WireContent)
    /// A notification center call; `categories` and `delivered` are answered with `centerAnswer` of the same `id`.
    case center(id: UInt32, call: WireCenterCall)
    /// The extension ended its request again, with `call` (`completeRequest(returningItems:)` or
    /// `cancelRequest(withError:)`), after it had ended it: for the report, since the call itself is ignored.
    case endedAgain(call: String)
    /// The scripted user tapped a button or row (`ExtensionPresenter.tapObserver`'s names), for the report.
    case tapped(button: String)
    /// The extension posted `name` to the Darwin notify center, for the report.
    case posted(name: String)
    /// The scripted user is stuck (`ExtensionPresenter.stuckObserver`): the sheet stayed quiet and offers
    /// nothing they came to tap, for the reason given; the host ends the run there.
    case stuck(reason: String)
    /// The extension donated an interaction (`INInteraction.donate`), as `INInteraction.reported` describes it,
    /// for the report.
    case donated(interaction: String)
    /// An upload of a background session (`URLSessionConfiguration.background(withIdentifier:)`), handed to the
    /// host, which carries it to its end whether or not the process lives that long; the packet carries the
    /// body's file, opened for reading. `transferEnded` of the same `id` answers it while the process lives.
    case transfer(id: UInt32, WireTransfer)

    // Host to extension.
    /// The request: the input items, their attachments' registered types and forms, no payloads.
    case request(items: [WireItem])
    /// The answer to load `id`.
    case loaded(id: UInt32, LoadResult)
    /// Whether the host opened the URL of request `id`.
    case openedURL(id: UInt32, opened: Bool)
    /// A time budget is about to run out: the extension is killed if it has not ended the request.
    case timeWarning(phase: TimeoutPhase)
    /// How far the host's side of load `id` has got: `completed` of `total` (the host sends millionths).
    case progress(id: UInt32, completed: Int64, total: Int64)
    /// The stream that answered load `id` has ended, after `bytes` bytes: at the source's end (`complete`),
    /// or cut short (the source failed). Sent before the pipe's end shows.
    case streamEnded(id: UInt32, bytes: UInt64, complete: Bool)
    /// The host has the request's outcome and has measured the process: once its work after completion is
    /// done, it may end.
    case ended
    /// A notification for the service, numbered from 0 in the order the process gets them: its request's
    /// identifier and content. The first is the process's request; the host sends the next once the service
    /// has given the content of the one before.
    case notification(index: UInt32, identifier: String, content: WireContent)
    /// The answer to notification center call `id`.
    case centerAnswer(id: UInt32, answer: WireCenterAnswer)
    /// Background transfer `id` has ended: the server's HTTP status, or the error that ended it.
    case transferEnded(id: UInt32, status: Int32, error: RemoteError?)

    static let magic: [UInt8] = [0x4F, 0x53]  // "OS"
    static let version: UInt8 = 1
    /// The calls that end a request, as `endedAgain` names them.
    package static let endingCalls: Set<String> = ["completeRequest(returningItems:)", "cancelRequest(withError:)"]

    /// The longest name of a Darwin notification `posted` carries.
    package static let longestPostedName = 1024

    /// The most header fields a transfer carries, and the longest URL, method, header name or value.
    package static let transferHeaders = 100
    package static let longestTransferField = 8 << 10

    /// What `tapped` names: the compose sheet's buttons, or a row, item, button or bar item of a sheet the extension
    /// built, whose title (the extension's own words) is at most `longestTapName` bytes in all.
    package static func isTapName(_ name: String) -> Bool {
        guard name.utf8.count <= longestTapName else { return false }
        return ["Post", "Cancel"].contains(name) || ["row ", "item ", "button \"", "bar item "].contains { name.hasPrefix($0) }
    }
    package static let longestTapName = 512
    /// The longest reason `stuck` carries.
    package static let longestStuckReason = 2048

    /// The largest packet either side sends or accepts.
    package static let maximumPacket = 64 << 10
    /// Payloads up to this size travel inside the message; larger ones in a sealed memory file.
    package static let inlineLimit = 16 << 10
}

/// How a representation was registered (as data, as a file to copy or one openable in place, or as an item),
/// which the other side's provider mirrors; and, in a load, which of the provider's calls to make:
/// `loadDataRepresentation`, `loadFileRepresentation`, `loadInPlaceFileRepresentation` or `loadItem`.
package enum WireForm: UInt8, Sendable, Equatable {
    case data = 1, file, item, fileInPlace

    /// How a load of this form is reported.
    var loadForm: LoadForm {
        switch self {
        case .data: .data
        case .file, .fileInPlace: .file
        case .item: .item
        }
    }
}

/// The answer to a load, or a returned item's payload.
package enum LoadResult: Equatable, Sendable {
    /// The bytes themselves (small data).
    case bytes([UInt8])
    /// Data of this length in the sealed memory file the packet carries.
    case memory(length: UInt64)
    /// A file (or a directory), opened read-only, that the packet carries; `name` is its name on the other side,
    /// `openedInPlace` whether it is the provider's original, opened in place.
    case file(name: String, openedInPlace: Bool)
    /// A stream of unknown length (the host's file is a FIFO, socket or device): the packet carries the
    /// reading end of a pipe the host pumps it into; `streamEnded` says how it ended.
    case stream(name: String)
    /// An item that is a URL.
    case url(String)
    /// An item that is a string.
    case text(String)
    /// An item that is a property-list object (a dictionary from JavaScript preprocessing), as a binary plist.
    case propertyList([UInt8])
    /// An item that is a string too long for a message: its UTF-8, of this length, in the sealed memory file the
    /// packet carries.
    case textInMemory(length: UInt64)
    /// An item that is a property list too large for a message: the binary plist, of this length, in the sealed
    /// memory file the packet carries.
    case propertyListInMemory(length: UInt64)
    /// An item that is an image object (a `UIImage`): its encoded bytes, of this type, in the sealed memory
    /// file the packet carries.
    case image(type: String, length: UInt64)
    /// The load failed.
    case failed(RemoteError)

    /// How many descriptors this result takes from its packet.
    var descriptorCount: Int {
        switch self {
        case .memory, .file, .stream, .image, .textInMemory, .propertyListInMemory: 1
        default: 0
        }
    }
}

/// An `NSError` as it crosses the boundary: domain, code and description.
package struct RemoteError: Equatable, Sendable, Error, CustomStringConvertible {
    package var domain: String
    package var code: Int64
    package var message: String

    package init(domain: String, code: Int64, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    package var description: String { "\(domain) \(code): \(message)" }
}

/// An `NSExtensionItem` as it crosses the boundary.
package struct WireItem: Equatable, Sendable {
    package var title: String?
    package var contentText: String?
    /// `nil` when the item has none, as an `NSExtensionItem`'s may be: distinct from an empty array.
    package var attachments: [WireAttachment]?

    package init(title: String? = nil, contentText: String? = nil, attachments: [WireAttachment]?) {
        self.title = title
        self.contentText = contentText
        self.attachments = attachments
    }
}

/// An `NSItemProvider` as it crosses the boundary: its representations in fidelity order.
package struct WireAttachment: Equatable, Sendable {
    package var suggestedName: String?
    package var representations: [WireRepresentation]

    package init(suggestedName: String? = nil, representations: [WireRepresentation]) {
        self.suggestedName = suggestedName
        self.representations = representations
    }
}

/// One representation: its type, how it was registered, and, in returned items, its payload.
package struct WireRepresentation: Equatable, Sendable {
    package var type: String
    package var form: WireForm
    package var payload: LoadResult?

    package init(type: String, form: WireForm, payload: LoadResult? = nil) {
        self.type = type
        self.form = form
        self.payload = payload
    }
}

/// An alert as it crosses to the host: what it said, its actions (title, style), and the one the user chose.
package struct WireAlert: Equatable, Sendable {
    package var title: String?
    package var message: String?
    package var actions: [(title: String?, style: String)]
    /// The index of the action chosen; -1 for none.
    package var chosen: Int32

    package init(title: String?, message: String?, actions: [(title: String?, style: String)], chosen: Int32) {
        self.title = title
        self.message = message
        self.actions = actions
        self.chosen = chosen
    }

    package static func == (lhs: WireAlert, rhs: WireAlert) -> Bool {
        lhs.title == rhs.title && lhs.message == rhs.message && lhs.chosen == rhs.chosen
            && lhs.actions.map(\.title) == rhs.actions.map(\.title) && lhs.actions.map(\.style) == rhs.actions.map(\.style)
    }
}

/// An upload a background session hands to the host: the session's identifier and shared container, the
/// request's method, URL and header fields, in order.
package struct WireTransfer: Equatable, Sendable {
    package var session: String
    package var sharedContainer: String?
    package var method: String
    package var url: String
    package var headers: [WireHeader]

    package init(session: String, sharedContainer: String?, method: String, url: String, headers: [WireHeader]) {
        self.session = session
        self.sharedContainer = sharedContainer
        self.method = method
        self.url = url
        self.headers = headers
    }
}

/// One header field of a transfer's request.
package struct WireHeader: Equatable, Sendable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A message that broke the protocol: what was wrong, and where in the packet.
package struct ProtocolViolation: Error, Equatable, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

// MARK: - Encoding

extension RuntimeMessage {
    private enum Kind: UInt8 {
        case ready = 1, load, cancelLoad, openURL, complete, cancel, alert, deliver, center, endedAgain, tapped, posted, transfer, donated, stuck
        case request = 32, loaded, openedURL, timeWarning, progress, streamEnded, ended, notification, centerAnswer, transferEnded
    }

    /// The message's bytes, and how many descriptors must travel with them.
    package func encoded() -> (bytes: [UInt8], descriptors: Int) {
        var writer = WireWriter()
        writer.bytes += Self.magic
        writer.u8(Self.version)
        switch self {
        case .ready(let process, let optimised):
            writer.u8(Kind.ready.rawValue); writer.u32(UInt32(bitPattern: process)); writer.u8(optimised ? 1 : 0); writer.descriptors += 1
        case .load(let id, let attachment, let type, let form):
            writer.u8(Kind.load.rawValue); writer.u32(id); writer.u32(attachment); writer.string(type); writer.u8(form.rawValue)
        case .cancelLoad(let id):
            writer.u8(Kind.cancelLoad.rawValue); writer.u32(id)
        case .openURL(let id, let url):
            writer.u8(Kind.openURL.rawValue); writer.u32(id); writer.string(url)
        case .complete(let items):
            writer.u8(Kind.complete.rawValue); writer.items(items)
        case .cancel(let error):
            writer.u8(Kind.cancel.rawValue); writer.error(error)
        case .request(let items):
            writer.u8(Kind.request.rawValue); writer.items(items)
        case .loaded(let id, let result):
            writer.u8(Kind.loaded.rawValue); writer.u32(id); writer.result(result)
        case .openedURL(let id, let opened):
            writer.u8(Kind.openedURL.rawValue); writer.u32(id); writer.u8(opened ? 1 : 0)
        case .timeWarning(let phase):
            writer.u8(Kind.timeWarning.rawValue); writer.string(phase.rawValue)
        case .progress(let id, let completed, let total):
            writer.u8(Kind.progress.rawValue); writer.u32(id)
            writer.u64(UInt64(bitPattern: completed)); writer.u64(UInt64(bitPattern: total))
        case .streamEnded(let id, let bytes, let complete):
            writer.u8(Kind.streamEnded.rawValue); writer.u32(id); writer.u64(bytes); writer.u8(complete ? 1 : 0)
        case .alert(let alert):
            writer.u8(Kind.alert.rawValue); writer.optional(alert.title); writer.optional(alert.message)
            writer.u32(UInt32(alert.actions.count))
            for action in alert.actions { writer.optional(action.title); writer.string(action.style) }
            writer.u32(UInt32(bitPattern: alert.chosen))
        case .ended:
            writer.u8(Kind.ended.rawValue)
        case .deliver(let index, let content):
            writer.u8(Kind.deliver.rawValue); writer.u32(index); writer.content(content)
        case .center(let id, let call):
            writer.u8(Kind.center.rawValue); writer.u32(id); writer.centerCall(call)
        case .endedAgain(let call):
            writer.u8(Kind.endedAgain.rawValue); writer.string(call)
        case .tapped(let button):
            writer.u8(Kind.tapped.rawValue); writer.string(button)
        case .posted(let name):
            writer.u8(Kind.posted.rawValue); writer.string(name)
        case .stuck(let reason):
            writer.u8(Kind.stuck.rawValue); writer.string(reason)
        case .donated(let interaction):
            writer.u8(Kind.donated.rawValue); writer.string(interaction)
        case .transfer(let id, let transfer):
            writer.u8(Kind.transfer.rawValue); writer.u32(id); writer.string(transfer.session); writer.optional(transfer.sharedContainer)
            writer.string(transfer.method); writer.string(transfer.url); writer.u32(UInt32(transfer.headers.count))
            for header in transfer.headers { writer.string(header.name); writer.string(header.value) }
            writer.descriptors += 1
        case .transferEnded(let id, let status, let error):
            writer.u8(Kind.transferEnded.rawValue); writer.u32(id); writer.u32(UInt32(bitPattern: status))
            if let error { writer.u8(1); writer.error(error) } else { writer.u8(0) }
        case .notification(let index, let identifier, let content):
            writer.u8(Kind.notification.rawValue); writer.u32(index); writer.string(identifier); writer.content(content)
        case .centerAnswer(let id, let answer):
            writer.u8(Kind.centerAnswer.rawValue); writer.u32(id); writer.centerAnswer(answer)
        }
        return (writer.bytes, writer.descriptors)
    }

    /// Decodes one packet's bytes, which arrived with `descriptors` descriptors.
    package static func decode(_ bytes: [UInt8], descriptors: Int) throws(ProtocolViolation) -> RuntimeMessage {
        var reader = WireReader(bytes: bytes)
        guard try reader.u8() == magic[0], try reader.u8() == magic[1] else { throw ProtocolViolation("not a runtime message (no OS magic)") }
        let version = try reader.u8()
        guard version == Self.version else { throw ProtocolViolation("message version \(version); this runtime speaks version \(Self.version)") }
        let code = try reader.u8()
        guard let kind = Kind(rawValue: code) else { throw ProtocolViolation("unknown message kind \(code)") }
        let message: RuntimeMessage
        switch kind {
        case .ready: message = .ready(process: Int32(bitPattern: try reader.u32()), optimised: try reader.flag()); reader.descriptors += 1
        case .load: message = .load(id: try reader.u32(), attachment: try reader.u32(), type: try reader.string(), form: try reader.form())
        case .cancelLoad: message = .cancelLoad(id: try reader.u32())
        case .openURL: message = .openURL(id: try reader.u32(), url: try reader.string())
        case .complete: message = .complete(items: try reader.items())
        case .cancel: message = .cancel(try reader.error())
        case .request: message = .request(items: try reader.items())
        case .loaded: message = .loaded(id: try reader.u32(), try reader.result())
        case .openedURL: message = .openedURL(id: try reader.u32(), opened: try reader.flag())
        case .timeWarning:
            let name = try reader.string()
            guard let phase = TimeoutPhase(rawValue: name) else { throw ProtocolViolation("a time warning for \"\(name)\", which is no time budget") }
            message = .timeWarning(phase: phase)
        case .progress:
            message = .progress(id: try reader.u32(), completed: Int64(bitPattern: try reader.u64()), total: Int64(bitPattern: try reader.u64()))
        case .streamEnded: message = .streamEnded(id: try reader.u32(), bytes: try reader.u64(), complete: try reader.flag())
        case .alert:
            let title = try reader.optional(), text = try reader.optional()
            var actions: [(title: String?, style: String)] = []
            for _ in 0..<(try reader.count(minimumSize: 5)) { actions.append((try reader.optional(), try reader.string())) }
            let chosen = Int32(bitPattern: try reader.u32())
            guard chosen >= -1, chosen < actions.count else { throw ProtocolViolation("an alert's chosen action \(chosen) of \(actions.count)") }
            message = .alert(WireAlert(title: title, message: text, actions: actions, chosen: chosen))
        case .ended: message = .ended
        case .deliver: message = .deliver(index: try reader.u32(), content: try reader.content())
        case .center: message = .center(id: try reader.u32(), call: try reader.centerCall())
        case .endedAgain:
            let call = try reader.string()
            guard RuntimeMessage.endingCalls.contains(call) else { throw ProtocolViolation("a request ended again by \"\(call)\", which does not end a request") }
            message = .endedAgain(call: call)
        case .tapped:
            let button = try reader.string()
            guard RuntimeMessage.isTapName(button) else {
                throw ProtocolViolation("a tap of \"\(button.prefix(64))\", which names no button, bar item or row a person taps")
            }
            message = .tapped(button: button)
        case .posted:
            let name = try reader.string()
            guard !name.isEmpty, name.utf8.count <= RuntimeMessage.longestPostedName else {
                throw ProtocolViolation("a Darwin notification named with \(name.utf8.count) bytes; a name has 1 to \(RuntimeMessage.longestPostedName)")
            }
            message = .posted(name: name)
        case .stuck:
            let reason = try reader.string()
            guard !reason.isEmpty, reason.utf8.count <= RuntimeMessage.longestStuckReason else {
                throw ProtocolViolation("a stuck user's reason in \(reason.utf8.count) bytes; a reason has 1 to \(RuntimeMessage.longestStuckReason)")
            }
            message = .stuck(reason: reason)
        case .donated:
            let interaction = try reader.string()
            guard !interaction.isEmpty, interaction.utf8.count <= RuntimeMessage.longestPostedName else {
                throw ProtocolViolation("a donation described in \(interaction.utf8.count) bytes; a description has 1 to \(RuntimeMessage.longestPostedName)")
            }
            message = .donated(interaction: interaction)
        case .transfer: message = .transfer(id: try reader.u32(), try reader.transfer())
        case .transferEnded:
            message = .transferEnded(id: try reader.u32(), status: Int32(bitPattern: try reader.u32()), error: try reader.flag() ? try reader.error() : nil)
        case .notification: message = .notification(index: try reader.u32(), identifier: try reader.string(), content: try reader.content())
        case .centerAnswer: message = .centerAnswer(id: try reader.u32(), answer: try reader.centerAnswer())
        }
        guard reader.isAtEnd else { throw ProtocolViolation("\(reader.remaining) bytes after the end of a \(kind) message") }
        guard reader.descriptors == descriptors else {
            throw ProtocolViolation("a \(kind) message naming \(reader.descriptors) descriptors arrived with \(descriptors)")
        }
        return message
    }
}

struct WireWriter {
    var bytes: [UInt8] = []
    var descriptors = 0

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func data(_ value: [UInt8]) { u32(UInt32(value.count)); bytes += value }
    mutating func string(_ value: String) { data(Array(value.utf8)) }
    mutating func optional(_ value: String?) {
        if let value { u8(1); string(value) } else { u8(0) }
    }
    mutating func error(_ value: RemoteError) { string(value.domain); u64(UInt64(bitPattern: value.code)); string(value.message) }

    mutating func result(_ value: LoadResult) {
        switch value {
        case .bytes(let data): u8(1); self.data(data)
        case .memory(let length): u8(2); u64(length); descriptors += 1
        case .file(let name, let inPlace): u8(3); string(name); u8(inPlace ? 1 : 0); descriptors += 1
        case .stream(let name): u8(8); string(name); descriptors += 1
        case .url(let url): u8(4); string(url)
        case .text(let text): u8(5); string(text)
        case .propertyList(let data): u8(6); self.data(data)
        case .failed(let error): u8(7); self.error(error)
        case .image(let type, let length): u8(9); string(type); u64(length); descriptors += 1
        case .textInMemory(let length): u8(10); u64(length); descriptors += 1
        case .propertyListInMemory(let length): u8(11); u64(length); descriptors += 1
        }
    }

    mutating func items(_ items: [WireItem]) {
        u32(UInt32(items.count))
        for item in items {
            optional(item.title)
            optional(item.contentText)
            guard let attachments = item.attachments else {
                u8(0)
                continue
            }
            u8(1)
            u32(UInt32(attachments.count))
            for attachment in attachments {
                optional(attachment.suggestedName)
                u32(UInt32(attachment.representations.count))
                for representation in attachment.representations {
                    string(representation.type)
                    u8(representation.form.rawValue)
                    if let payload = representation.payload { u8(1); result(payload) } else { u8(0) }
                }
            }
        }
    }
}

struct WireReader {
    let bytes: [UInt8]
    var position = 0
    var descriptors = 0

    var remaining: Int { bytes.count - position }
    var isAtEnd: Bool { position == bytes.count }

    mutating func u8() throws(ProtocolViolation) -> UInt8 {
        guard remaining >= 1 else { throw ProtocolViolation("message ends at byte \(position), in the middle of a field") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u32() throws(ProtocolViolation) -> UInt32 {
        guard remaining >= 4 else { throw ProtocolViolation("message ends at byte \(position), in the middle of a field") }
        defer { position += 4 }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[position + $1]) << (8 * $1) }
    }

    mutating func u64() throws(ProtocolViolation) -> UInt64 {
        guard remaining >= 8 else { throw ProtocolViolation("message ends at byte \(position), in the middle of a field") }
        defer { position += 8 }
        return (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[position + $1]) << (8 * $1) }
    }

    mutating func data() throws(ProtocolViolation) -> [UInt8] {
        let start = position
        let length = Int(try u32())
        guard length <= remaining else {
            throw ProtocolViolation("a field at byte \(start) claims \(length) bytes; \(remaining) remain")
        }
        defer { position += length }
        return Array(bytes[position..<position + length])
    }

    mutating func string() throws(ProtocolViolation) -> String {
        let start = position
        let data = try data()
        guard let string = String(validating: data, as: UTF8.self) else { throw ProtocolViolation("the string at byte \(start) is not UTF-8") }
        return string
    }

    mutating func optional() throws(ProtocolViolation) -> String? {
        switch try u8() {
        case 0: return nil
        case 1: return try string()
        case let flag: throw ProtocolViolation("optional flag \(flag) at byte \(position - 1)")
        }
    }

    mutating func flag() throws(ProtocolViolation) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let value: throw ProtocolViolation("flag \(value) at byte \(position - 1)")
        }
    }

    mutating func form() throws(ProtocolViolation) -> WireForm {
        let code = try u8()
        guard let form = WireForm(rawValue: code) else { throw ProtocolViolation("unknown representation form \(code) at byte \(position - 1)") }
        return form
    }

    mutating func error() throws(ProtocolViolation) -> RemoteError {
        RemoteError(domain: try string(), code: Int64(bitPattern: try u64()), message: try string())
    }

    /// A count of elements that each take at least `minimumSize` bytes, refused if the rest could not hold them.
    /// A transfer's fields, each checked: a session named, a URL, a method and header fields of bounded length
    /// and number; the body's descriptor counted.
    mutating func transfer() throws(ProtocolViolation) -> WireTransfer {
        let session = try string(), shared = try optional(), method = try string(), url = try string()
        let longest = RuntimeMessage.longestTransferField
        var headers: [WireHeader] = []
        let count = try count(minimumSize: 8)
        guard count <= RuntimeMessage.transferHeaders else {
            throw ProtocolViolation("a transfer with \(count) header fields; at most \(RuntimeMessage.transferHeaders)")
        }
        for _ in 0..<count {
            let header = WireHeader(name: try string(), value: try string())
            guard !header.name.isEmpty, header.name.utf8.count <= longest, header.value.utf8.count <= longest,
                  !header.name.contains(where: { $0 == ":" || $0.isNewline || $0.isWhitespace }), !header.value.contains(where: \.isNewline) else {
                throw ProtocolViolation("a transfer's header field \(header.name.debugDescription.prefix(80)) is not one")
            }
            headers.append(header)
        }
        guard !session.isEmpty, session.utf8.count <= longest else { throw ProtocolViolation("a transfer's session identifier of \(session.utf8.count) bytes") }
        guard !method.isEmpty, method.utf8.count <= 32, method.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) else {
            throw ProtocolViolation("a transfer's method \(method.debugDescription.prefix(80)) is not one")
        }
        guard !url.isEmpty, url.utf8.count <= longest else { throw ProtocolViolation("a transfer's URL of \(url.utf8.count) bytes") }
        descriptors += 1
        return WireTransfer(session: session, sharedContainer: shared, method: method, url: url, headers: headers)
    }

    mutating func count(minimumSize: Int) throws(ProtocolViolation) -> Int {
        let start = position
        let count = Int(try u32())
        guard count <= remaining / minimumSize else {
            throw ProtocolViolation("a count at byte \(start) claims \(count) elements; \(remaining) bytes remain")
        }
        return count
    }

    mutating func result() throws(ProtocolViolation) -> LoadResult {
        switch try u8() {
        case 1: return .bytes(try data())
        case 2: descriptors += 1; return .memory(length: try u64())
        case 3: descriptors += 1; return .file(name: try string(), openedInPlace: try flag())
        case 4: return .url(try string())
        case 5: return .text(try string())
        case 6: return .propertyList(try data())
        case 7: return .failed(try error())
        case 8: descriptors += 1; return .stream(name: try string())
        case 9: descriptors += 1; return .image(type: try string(), length: try u64())
        case 10: descriptors += 1; return .textInMemory(length: try u64())
        case 11: descriptors += 1; return .propertyListInMemory(length: try u64())
        case let code: throw ProtocolViolation("unknown load result \(code) at byte \(position - 1)")
        }
    }

    mutating func items() throws(ProtocolViolation) -> [WireItem] {
        var items: [WireItem] = []
        for _ in 0..<(try count(minimumSize: 3)) {
            let title = try optional()
            let contentText = try optional()
            switch try u8() {
            case 0:
                items.append(WireItem(title: title, contentText: contentText, attachments: nil))
                continue
            case 1: break
            case let flag: throw ProtocolViolation("attachments flag \(flag) at byte \(position - 1)")
            }
            var attachments: [WireAttachment] = []
            for _ in 0..<(try count(minimumSize: 5)) {
                let suggestedName = try optional()
                var representations: [WireRepresentation] = []
                for _ in 0..<(try count(minimumSize: 6)) {
                    let type = try string()
                    let form = try form()
                    let payload: LoadResult?
                    switch try u8() {
                    case 0: payload = nil
                    case 1: payload = try result()
                    case let flag: throw ProtocolViolation("payload flag \(flag) at byte \(position - 1)")
                    }
                    representations.append(WireRepresentation(type: type, form: form, payload: payload))
                }
                attachments.append(WireAttachment(suggestedName: suggestedName, representations: representations))
            }
            items.append(WireItem(title: title, contentText: contentText, attachments: attachments))
        }
        return items
    }
}
