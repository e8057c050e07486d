import Foundation
import OpenExtensionUI
import OpenItemProvider
import PackageSupport
import PropertyLists
import SharingSystem

/// A load's answer as it crosses the boundary: the result, the descriptors its packet carries, the bytes it hands
/// over when known, and for a stream of unknown length (a FIFO, a device) its source, which the host pumps into
/// the pipe the result's descriptor reads.
struct CrossingAnswer: Sendable {
    var result: LoadResult
    var files: [OpenFile] = []
    var size: Int?
    var stream: OpenFile?

    static func failure(_ error: (any Error)?, _ fallback: String) -> CrossingAnswer {
        CrossingAnswer(result: .failed(ProviderMirror.remote(error, fallback)))
    }

    static func failure(_ code: NSItemProvider.ErrorCode, _ message: String) -> CrossingAnswer {
        CrossingAnswer(result: .failed(RemoteError(domain: NSItemProviderErrorDomain, code: Int64(code.rawValue), message: message)))
    }
}

/// Asks for `type` the way `form` says — from the other process, or from what it sent — and hands the answer to
/// `reply` once; the progress cancels the load.
typealias Fetch = @Sendable (_ type: String, _ form: WireForm, _ reply: @escaping @Sendable (LoadResult, [OpenFile]) -> Void) -> Progress?

/// Item providers across the process boundary, both ways, in one place:
///
/// - items to the wire: `describe` (what a request shows: types and forms), `encodeReturned` (returned items
///   with their payloads, loaded at completion);
/// - a load answered from a provider: `answer`, the same call the other side made, its value made into a
///   `LoadResult` and descriptors (the host answering an extension's load, the extension loading what it returns);
/// - the wire to providers: `forwardingProvider` (the extension's view of the host's providers: every call
///   crosses, so the host's provider behaves as it would in one process, faults and all) and `returnedItems`
///   (the host's view of returned items, from the payloads the message carried, checked first);
/// - a `LoadResult` to what a consumer gets: `data`, `withFile`, `item`.
enum ProviderMirror {
    /// Data up to this size travels inside a message; larger data in a sealed memory file.
    static let inlineLimit = RuntimeMessage.inlineLimit
    /// Texts, URLs and property lists travel inside the message; larger ones do not cross.
    static let itemLimit = 48 << 10
    /// The most bytes a memory payload may claim: data a consumer would hold whole.
    static let maximumMemoryPayload: UInt64 = 1 << 31
    /// How far a returned file's size may exceed the storage it takes (its last block, a few small holes).
    static let sparseAllowance: Int64 = 1 << 20

    // MARK: Items to the wire

    /// What a request shows of `items`: titles, content texts, and each attachment's types and forms.
    static func describe(_ items: [NSExtensionItem]) -> [WireItem] {
        items.map { item in
            WireItem(title: item.attributedTitle?.string, contentText: item.attributedContentText?.string,
                     attachments: item.attachments?.map { provider in
                         WireAttachment(suggestedName: provider.suggestedName,
                                        representations: provider.registeredForms.map { WireRepresentation(type: $0.typeIdentifier, form: WireForm($0.form)) })
                     })
        }
    }

    /// Returned items with every representation's payload, each loaded from the extension's own provider as
    /// registered; `reply` gets them, and the descriptors in order, once every load has answered. At most
    /// `PacketChannel.maximumDescriptors` descriptors travel: representations past them, and streams, fail.
    static func encodeReturned(_ returned: [Any], reply: @escaping @Sendable ([WireItem], [OpenFile]) -> Void) {
        let items = returned.compactMap { $0 as? NSExtensionItem }
        var found: [(item: Int, attachment: Int, type: String, form: WireForm, provider: NSItemProvider)] = []
        var outline = items.map { item in
            WireItem(title: item.attributedTitle?.string, contentText: item.attributedContentText?.string,
                     attachments: item.attachments.map { _ in [] })
        }
        for (itemIndex, item) in items.enumerated() {
            for (attachmentIndex, provider) in (item.attachments ?? []).enumerated() {
                outline[itemIndex].attachments?.append(WireAttachment(suggestedName: provider.suggestedName, representations: []))
                for (type, form) in provider.registeredForms {
                    found.append((itemIndex, attachmentIndex, type, WireForm(form), provider))
                }
            }
        }
        let slots = found, skeleton = outline
        let answers = Locked<[CrossingAnswer?]>(Array(repeating: nil, count: slots.count))
        let remaining = Locked(slots.count)
        let assemble: @Sendable ([CrossingAnswer]) -> ([WireItem], [OpenFile]) = { answers in
            var wire = skeleton
            var files: [OpenFile] = []
            for (slot, answer) in zip(slots, answers) {
                var answer = answer
                if answer.stream != nil {
                    answer = .failure(.unavailableCoercionError, "\(slot.type) is a stream of unknown length, which an extension cannot return")
                } else if files.count + answer.files.count > PacketChannel.maximumDescriptors {
                    answer = .failure(.unavailableCoercionError,
                                      "\(slot.type) needs a descriptor past the \(PacketChannel.maximumDescriptors) a completion carries")
                }
                files += answer.files
                wire[slot.item].attachments?[slot.attachment].representations.append(
                    WireRepresentation(type: slot.type, form: slot.form, payload: answer.result))
            }
            return (wire, files)
        }
        let finish: @Sendable () -> Void = {
            var settled = answers.withLock { $0 }.map { $0 ?? .failure(.unknownError, "the representation gave no answer") }
            // A completion is one packet: while the items do not fit it, the largest payload still in the message
            // moves to a sealed memory file, as an XPC message carries returned items of any size whole.
            for index in settled.indices.sorted(by: { (settled[$0].size ?? 0) > (settled[$1].size ?? 0) }) {
                guard RuntimeMessage.complete(items: assemble(settled).0).encoded().bytes.count > RuntimeMessage.maximumPacket else { break }
                settled[index] = carriedInMemory(settled[index])
            }
            let (wire, files) = assemble(settled)
            reply(wire, files)
        }
        if slots.isEmpty { return finish() }
        for (index, slot) in slots.enumerated() {
            _ = answer(slot.provider, type: slot.type, form: slot.form, store: nil) { answer in
                answers.withLock { $0[index] = answer }
                if remaining.withLock({ count in count -= 1; return count }) == 0 { finish() }
            }
        }
    }

    // MARK: A load answered from a provider

    /// Loads `type` from `provider` with the call `form` names, and hands `reply` what crosses, once. A file
    /// is its descriptor (a directory too: copied first into `store` unless opened in place, since the
    /// provider removes its copies when its handler returns; without a store, refused); a file of unknown
    /// length is a stream; a file on /proc or /sys is refused. The load's progress, when the call gives one.
    static func answer(_ provider: NSItemProvider, type: String, form: WireForm, store: URL?,
                       _ reply: @escaping @Sendable (CrossingAnswer) -> Void) -> Progress? {
        switch form {
        case .data:
            return provider.loadDataRepresentation(forTypeIdentifier: type) { data, error in
                guard let data else { return reply(.failure(error, "the provider gave no data for \(type)")) }
                reply(crossing(data: data))
            }
        case .file:
            return provider.loadFileRepresentation(forTypeIdentifier: type) { url, error in
                guard let url else { return reply(.failure(error, "the provider gave no file for \(type)")) }
                reply(crossing(file: url, openedInPlace: false, directories: store.map { .copy(into: $0) } ?? .refuse))
            }
        case .fileInPlace:
            return provider.loadInPlaceFileRepresentation(forTypeIdentifier: type) { url, inPlace, error in
                guard let url else { return reply(.failure(error, "the provider gave no file for \(type)")) }
                reply(crossing(file: url, openedInPlace: inPlace, directories: inPlace ? .pass : store.map { .copy(into: $0) } ?? .refuse))
            }
        case .item:
            provider.loadItem(forTypeIdentifier: type, options: nil) { item, error in
                guard let item else { return reply(.failure(error, "the provider gave no item for \(type)")) }
                crossing(item: item, reply)
            }
            return nil
        }
    }

    private static func crossing(data: Data) -> CrossingAnswer {
        if data.count <= inlineLimit { return CrossingAnswer(result: .bytes(Array(data)), size: data.count) }
        do {
            return CrossingAnswer(result: .memory(length: UInt64(data.count)), files: [try MemoryFile.sealed(data, name: "opensharing-payload")],
                                  size: data.count)
        } catch {
            return .failure(error, "")
        }
    }

    /// What crosses for a directory: a copy (the provider's own copy is removed when its handler returns), the
    /// directory itself (an original, opened in place or registered), or nothing.
    private enum Directories {
        case copy(into: URL)
        case pass
        case refuse
    }

    /// A file the provider handed over, valid only now: its descriptor, or a stream's, or why not.
    private static func crossing(file url: URL, openedInPlace: Bool, directories: Directories) -> CrossingAnswer {
        let name = url.lastPathComponent
        do {
            let file = try OpenFile.reading(url, regularOnly: false)
            if let filesystem = file.pseudoFileSystem {
                return .failure(.itemUnavailableError, "The item provider's file \(url.path) is on \(filesystem), which is not shared.")
            }
            let status = try file.status()
            switch (status.kind, directories) {
            case (.regular, _):
                return CrossingAnswer(result: .file(name: name, openedInPlace: openedInPlace), files: [file], size: Int(status.size))
            case (.directory, .pass):
                return CrossingAnswer(result: .file(name: name, openedInPlace: openedInPlace), files: [file])
            case (.directory, .copy(let store)):
                let copy = try FileSystem.createUniqueDirectory(in: store, prefix: "load-").appending(component: name)
                _ = try TreeCopier.copyTree(from: url, to: copy, progress: { _ in true })
                return CrossingAnswer(result: .file(name: name, openedInPlace: false), files: [try OpenFile.reading(copy, regularOnly: false)])
            case (.directory, .refuse):
                return .failure(.unavailableCoercionError, "\(name) is a directory, which an extension cannot return")
            case (.other, _):
                return CrossingAnswer(result: .stream(name: name), stream: file)
            case (.symbolicLink, _):
                return .failure(.itemUnavailableError, "\(url.path) is a link")
            }
        } catch {
            return .failure(.itemUnavailableError, "The provider's file \(url.path) cannot be opened: \(error)")
        }
    }

    /// A legacy item as it crosses: URLs and strings as themselves (a file URL as its descriptor when it can be
    /// opened, else as the URL, unreadable there as here), data as data, property lists as binary property
    /// lists, an image object as its encoded bytes.
    private static func crossing(item: any NSSecureCoding, _ reply: @escaping @Sendable (CrossingAnswer) -> Void) {
        switch item {
        case let url as NSURL where url.isFileURL:
            // The provider's own file: its descriptor when it opens here; the URL as it is when it does not,
            // unreadable there as here (Messages' attachment paths).
            guard (try? OpenFile.reading(url as URL, regularOnly: false)) != nil else { return reply(text(.url((url as URL).absoluteString))) }
            return reply(crossing(file: url as URL, openedInPlace: false, directories: .pass))
        case let url as NSURL:
            return reply(text(.url((url as URL).absoluteString)))
        case let string as NSString:
            return reply(text(.text(string as String)))
        case let data as NSData:
            return reply(crossing(data: data as Data))
        case let image as UIImage:
            _ = image.loadData(withTypeIdentifier: "public.png") { data, error in
                guard let data else { return reply(.failure(error, "the image gave no PNG")) }
                do {
                    reply(CrossingAnswer(result: .image(type: "public.png", length: UInt64(data.count)),
                                         files: [try MemoryFile.sealed(data, name: "opensharing-image")], size: data.count))
                } catch {
                    reply(.failure(error, ""))
                }
            }
        case is NSDictionary, is NSArray, is NSNumber, is NSDate:
            guard let plist = try? PropertyListSerialization.data(fromPropertyList: item, format: .binary, options: 0) else {
                return reply(.failure(.unexpectedValueClassError, "an item of class \(type(of: item)) does not write as a property list"))
            }
            return reply(text(.propertyList(Array(plist))))
        default:
            reply(.failure(.unexpectedValueClassError, "an item of class \(type(of: item)) cannot cross to another process"))
        }
    }

    /// A URL, string or property list: in the message while it fits; a longer string or property list in a
    /// sealed memory file, as an XPC message carries any length on a device.
    private static func text(_ result: LoadResult) -> CrossingAnswer {
        let size = result.size ?? 0
        let answer = CrossingAnswer(result: result, size: size)
        guard size > itemLimit else { return answer }
        if case .url = result { return .failure(.unavailableCoercionError, "a URL of \(size) bytes is longer than the \(itemLimit) that cross in a message") }
        return carriedInMemory(answer)
    }

    /// `answer` with what it carries in the message (data, a string, a property list) moved to a sealed memory
    /// file; any other answer as it is.
    private static func carriedInMemory(_ answer: CrossingAnswer) -> CrossingAnswer {
        let moved: (LoadResult, Data)
        switch answer.result {
        case .bytes(let bytes): moved = (.memory(length: UInt64(bytes.count)), Data(bytes))
        case .text(let text): moved = (.textInMemory(length: UInt64(text.utf8.count)), Data(text.utf8))
        case .propertyList(let bytes): moved = (.propertyListInMemory(length: UInt64(bytes.count)), Data(bytes))
        default: return answer
        }
        do {
            return CrossingAnswer(result: moved.0, files: [try MemoryFile.sealed(moved.1, name: "opensharing-payload")], size: moved.1.count)
        } catch {
            return .failure(error, "")
        }
    }

    // MARK: The wire to providers

    /// The extension's view of a host's attachment: its representations registered as the host registered them,
    /// and every load crossing as the same call on the host's provider (`fetch`), so that what the host's provider
    /// does — a fault for one type asked, an unreadable URL from `loadItem`, an image object — it does here.
    static func forwardingProvider(for attachment: WireAttachment, fetch: @escaping Fetch) -> NSItemProvider {
        let provider = ForwardingItemProvider(fetch: fetch)
        register(attachment, in: provider, crossed: provider.crossed, fetch: fetch)
        return provider
    }

    /// The host's view of the items an extension returned: each attachment a `carriedProvider`, its
    /// payloads checked, taking the message's descriptors in order.
    static func returnedItems(_ items: [WireItem], files: [OpenFile]) throws(ProtocolViolation) -> [NSExtensionItem] {
        var remaining = files[...]
        var returned: [NSExtensionItem] = []
        for wire in items {
            let item = NSExtensionItem()
            item.attributedTitle = wire.title.map { NSAttributedString(string: $0) }
            item.attributedContentText = wire.contentText.map { NSAttributedString(string: $0) }
            if let attachments = wire.attachments {
                var providers: [NSItemProvider] = []
                for attachment in attachments { providers.append(try carriedProvider(for: attachment, files: &remaining)) }
                item.attachments = providers
            }
            returned.append(item)
        }
        return returned
    }

    /// The host's view of a returned attachment: each representation registered as the extension registered it,
    /// serving the payload the message carried. Payloads are checked first: memory files must be sealed and as
    /// long as they claim, property lists must read within the reader's limits, and nothing returned may be a
    /// stream; anything else is the extension's protocol violation.
    private static func carriedProvider(for attachment: WireAttachment, files: inout ArraySlice<OpenFile>) throws(ProtocolViolation) -> NSItemProvider {
        var carried: [String: (LoadResult, [OpenFile])] = [:]
        for representation in attachment.representations {
            guard let payload = representation.payload else {
                throw ProtocolViolation("a returned \(representation.type) representation without its payload")
            }
            let taken = Array(files.prefix(payload.descriptorCount))
            files = files.dropFirst(payload.descriptorCount)
            carried[representation.type] = (try checked(payload, files: taken, type: representation.type), taken)
        }
        let payloads = carried
        let provider = NSItemProvider()
        // A file URL the extension returns names a file of its own; the host reads no such file.
        provider.readsItemFiles = false
        register(attachment, in: provider, crossed: CrossedFiles(trustsPaths: false)) { type, _, reply in
            let (result, files) = payloads[type] ?? (.failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "nothing returned for \(type)")), [])
            reply(result, files)
            return nil
        }
        return provider
    }

    /// A returned payload, checked against what it claims; a directory's descriptor fails its loads.
    private static func checked(_ payload: LoadResult, files: [OpenFile], type: String) throws(ProtocolViolation) -> LoadResult {
        switch payload {
        case .memory(let length), .image(_, let length), .textInMemory(let length), .propertyListInMemory(let length):
            guard let file = files.first, MemoryFile.isSealed(file) else {
                throw ProtocolViolation("the returned \(type) payload's memory file is not sealed against change")
            }
            let size = (try? file.status().size).map { UInt64($0) }
            guard size == length else {
                throw ProtocolViolation("the returned \(type) payload claims \(length) bytes; its memory file holds \(size.map(String.init) ?? "none")")
            }
            guard length <= maximumMemoryPayload else {
                throw ProtocolViolation("the returned \(type) payload of \(length) bytes is larger than the \(maximumMemoryPayload) a memory payload may be")
            }
            if case .propertyListInMemory = payload {
                do {
                    _ = try PropertyList.read(try memoryBytes(length: length, files: files).get())
                } catch {
                    throw ProtocolViolation("the returned \(type) property list does not read: \(error)")
                }
            }
            return payload
        case .propertyList(let bytes):
            do {
                _ = try PropertyList.read(Data(bytes))
            } catch {
                throw ProtocolViolation("the returned \(type) property list does not read: \(error)")
            }
            return payload
        case .file(let name, _):
            let code = Int64(NSItemProvider.ErrorCode.unavailableCoercionError.rawValue)
            guard let file = files.first else { throw ProtocolViolation("the returned \(type) file \(name) came without its descriptor") }
            let status = try incomingFile(file, "the returned \(type) file \(name)")
            // A load copies the file: what it claims beyond what it stores (a hole) would be written out whole,
            // outside any budget of the extension's.
            guard status.size <= status.allocatedSize + sparseAllowance else {
                return .failed(RemoteError(domain: NSItemProviderErrorDomain, code: code,
                                           message: "\(name) claims \(status.size) bytes but stores \(status.allocatedSize); the host takes no sparse file from an extension"))
            }
            return payload
        case .stream:
            throw ProtocolViolation("a returned \(type) payload is a stream; an extension returns data, files and items")
        case .bytes, .url, .text, .failed:
            return payload
        }
    }

    /// The status of a regular file's descriptor the extension passed, when it grants reading it: the host
    /// reads through that descriptor alone, so that it reads nothing the extension could not have read itself.
    /// A descriptor opened `O_PATH` or write-only, a directory's, a device's, a FIFO's or a socket's is the
    /// extension's protocol violation.
    static func incomingFile(_ file: OpenFile, _ what: String) throws(ProtocolViolation) -> FileStatus {
        switch file.access {
        case .pathOnly: throw ProtocolViolation("\(what) came as a descriptor opened with O_PATH, which grants no reading: the host reads only what the extension could")
        case .writeOnly: throw ProtocolViolation("\(what) came as a write-only descriptor: the host reads only what the extension could")
        case .readable: break
        }
        guard let status = try? file.status() else { throw ProtocolViolation("\(what) came as a descriptor that cannot be inspected") }
        guard status.kind == .regular else {
            throw ProtocolViolation("\(what) is not a regular file: the host takes no directory, device, FIFO or socket from an extension")
        }
        return status
    }

    /// What returned items hold, representation by representation: type, form, and size, from the message or
    /// from a descriptor's status (a file is never read for it).
    static func records(of items: [WireItem], files: [OpenFile]) -> [ExtensionLoad] {
        var remaining = files[...]
        var records: [ExtensionLoad] = []
        for representation in items.flatMap({ ($0.attachments ?? []).flatMap(\.representations) }) {
            guard let payload = representation.payload else { continue }
            let carried = remaining.prefix(payload.descriptorCount)
            remaining = remaining.dropFirst(payload.descriptorCount)
            var record = ExtensionLoad(typeIdentifier: representation.type, form: representation.form.loadForm, size: payload.size)
            if case .file = payload { record.size = (try? carried.first?.status().size).flatMap { $0.map { Int($0) } } }
            if case .failed(let error) = payload { record.failure = error.message }
            records.append(record)
        }
        return records
    }

    /// Registers each representation of `attachment` in `provider` in its form, loading through `fetch`; files
    /// that cross are copied into `crossed`.
    private static func register(_ attachment: WireAttachment, in provider: NSItemProvider, crossed: CrossedFiles, fetch: @escaping Fetch) {
        provider.suggestedName = attachment.suggestedName
        provider.loadersReturnAtOnce = true
        for representation in attachment.representations {
            let type = representation.type
            switch representation.form {
            case .data:
                provider.registerDataRepresentation(forTypeIdentifier: type, visibility: .all) { completion in
                    fetch(type, .data) { result, files in
                        switch data(of: result, files: files) {
                        case .success(let data): completion(data, nil)
                        case .failure(let error): completion(nil, error)
                        }
                    }
                }
            case .file, .fileInPlace:
                let form = representation.form
                provider.registerFileRepresentation(forTypeIdentifier: type, fileOptions: form == .fileInPlace ? [.openInPlace] : [],
                                                    visibility: .all) { completion in
                    fetch(type, form) { result, files in
                        withFile(result, files: files, in: crossed, keeping: form == .fileInPlace) { url, _, error in completion(url, false, error) }
                    }
                }
            case .item:
                provider.registerItem(forTypeIdentifier: type) { handler, _, _ in
                    // A legacy completion handler (not `@Sendable`, as Apple's is not), for the thread that answers.
                    let handler = UncheckedBox(handler)
                    _ = fetch(type, .item) { result, files in
                        item(of: result, files: files, in: crossed) { item, error in handler.value?(item, error) }
                    }
                }
            }
        }
    }

    // MARK: A result to what a consumer gets

    /// The data a result stands for: bytes, a memory file read whole (within its claimed length), or the error.
    static func data(of result: LoadResult, files: [OpenFile]) -> Result<Data, NSError> {
        switch result {
        case .bytes(let bytes):
            return .success(Data(bytes))
        case .memory(let length), .image(_, let length):
            return memoryBytes(length: length, files: files)
        case .failed(let remote):
            return .failure(nsError(remote))
        default:
            return .failure(error(.unexpectedValueClassError, "the other side answered a data load with \(result.kindName)"))
        }
    }

    /// The bytes of the memory file a result carries, `length` of them.
    private static func memoryBytes(length: UInt64, files: [OpenFile]) -> Result<Data, NSError> {
        guard let file = files.first, length <= maximumMemoryPayload else {
            return .failure(error(.itemUnavailableError, "a memory payload of \(length) bytes is missing or larger than \(maximumMemoryPayload)"))
        }
        do {
            let data = try file.bytes(at: 0, count: Int(length))
            guard data.count == Int(length) else { return .failure(error(.itemUnavailableError, "a memory payload ended at \(data.count) of \(length) bytes")) }
            return .success(Data(data))
        } catch {
            return .failure(Self.error(.itemUnavailableError, "\(error)"))
        }
    }

    /// Hands `body` the file a result carries, as the one process gave it: a regular file (or directory) of the
    /// receiving side's own, so that everything a consumer does with a file — its size, a copy or move of it,
    /// a link to it — works as it would have. A `.file` load is a copy made from the descriptor (a reflink where
    /// the file system has them), named as the other side named it, removed when `body` returns, as a provider
    /// removes its copy when its handler returns. A file that stays — an item's, or one opened in place — is
    /// the file itself where `crossed` trusts the other side's paths and the path the file was opened at still
    /// names it (iOS hands such a file over itself), else a copy that stays while `crossed` does.
    static func withFile(_ result: LoadResult, files: [OpenFile], in crossed: CrossedFiles, keeping: Bool,
                         _ body: (URL?, Bool, NSError?) -> Void) {
        guard case .file(let name, let inPlace) = result, let file = files.first else {
            if case .failed(let remote) = result { return body(nil, false, nsError(remote)) }
            return body(nil, false, error(.unexpectedValueClassError, "the other side answered a file load with \(result.kindName)"))
        }
        if keeping, let original = crossed.original(of: file) { return body(original, inPlace, nil) }
        let copy: URL
        do {
            copy = try crossed.copy(file, named: safeName(name))
        } catch {
            return body(nil, inPlace, Self.error(.itemUnavailableError, "the file \(name) could not be copied across: \(error)"))
        }
        defer { if !keeping { try? FileSystem.removeTree(copy.deletingLastPathComponent()) } }
        body(copy, inPlace, nil)
    }

    /// The legacy item a result stands for, handed to `body` (a file URL to a copy kept in `crossed`).
    static func item(of result: LoadResult, files: [OpenFile], in crossed: CrossedFiles, _ body: ((any NSSecureCoding)?, NSError?) -> Void) {
        switch result {
        case .url(let string):
            guard let url = NSURL(string: string) else { return body(nil, error(.unexpectedValueClassError, "\"\(string)\" is not a URL")) }
            body(url, nil)
        case .text(let text):
            body(text as NSString, nil)
        case .textInMemory(let length):
            switch memoryBytes(length: length, files: files) {
            case .success(let data): body(String(decoding: data, as: UTF8.self) as NSString, nil)
            case .failure(let error): body(nil, error)
            }
        case .propertyListInMemory(let length):
            switch memoryBytes(length: length, files: files) {
            case .success(let data): item(of: .propertyList(Array(data)), files: [], in: crossed, body)
            case .failure(let error): body(nil, error)
            }
        case .bytes, .memory:
            switch data(of: result, files: files) {
            case .success(let data): body(NSData(data: data), nil)
            case .failure(let error): body(nil, error)
            }
        case .image:
            switch data(of: result, files: files) {
            case .success(let data):
                guard let image = UIImage(data: data) else { return body(nil, error(.unexpectedValueClassError, "an image object whose bytes do not read")) }
                body(image, nil)
            case .failure(let error): body(nil, error)
            }
        case .propertyList(let bytes):
            do {
                guard let object = try PropertyList.read(Data(bytes)).foundationObject as? any NSSecureCoding else {
                    return body(nil, Self.error(.unexpectedValueClassError, "a property list that is no object"))
                }
                body(object, nil)
            } catch {
                body(nil, Self.error(.unexpectedValueClassError, "a property list that does not read: \(error)"))
            }
        case .file:
            withFile(result, files: files, in: crossed, keeping: true) { url, _, error in body(url.map { $0 as NSURL }, error) }
        case .stream(let name):
            body(nil, error(.unexpectedValueClassError, "the stream \(name) where an item was expected"))
        case .failed(let remote):
            body(nil, nsError(remote))
        }
    }

    // MARK: Errors

    static func remote(_ error: (any Error)?, _ fallback: String) -> RemoteError {
        guard let error else { return RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: fallback) }
        let cocoa = error as NSError
        return RemoteError(domain: cocoa.domain, code: Int64(cocoa.code), message: cocoa.localizedDescription)
    }

    static func nsError(_ remote: RemoteError) -> NSError {
        NSError(domain: remote.domain, code: Int(truncatingIfNeeded: remote.code), userInfo: [NSLocalizedDescriptionKey: remote.message])
    }

    static func error(_ code: NSItemProvider.ErrorCode, _ message: String) -> NSError {
        NSError(domain: NSItemProviderErrorDomain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// A name the other side gave that is safe as one path component.
    static func safeName(_ name: String) -> String {
        name.isEmpty || name == "." || name == ".." || name.contains("/") ? "file" : name
    }
}

/// The extension's provider for a host's attachment: each load API crosses as the same call, on the host's
/// provider, with the type the extension asked for.
// @unchecked: an NSItemProvider (Sendable as Apple's is); its own state is immutable.
private final class ForwardingItemProvider: NSItemProvider, @unchecked Sendable {
    private let fetch: Fetch
    let crossed = CrossedFiles(trustsPaths: true)

    init(fetch: @escaping Fetch) {
        self.fetch = fetch
        super.init()
    }

    /// The progress of a crossing load, or one already complete when the load answered at once. The load is
    /// the request's work (the scripted user waits for it) from now until the consumer's handler has returned.
    private func forward(_ type: String, _ form: WireForm, _ reply: @escaping @Sendable (LoadResult, [OpenFile]) -> Void) -> Progress {
        let work = self.work
        work?.begin()
        let answered: @Sendable (LoadResult, [OpenFile]) -> Void = { result, files in
            reply(result, files)
            work?.end()
        }
        if let progress = fetch(type, form, answered) { return progress }
        let done = SynchronizedProgress(totalUnitCount: 1)
        done.completedUnitCount = 1
        return done
    }

    override func loadDataRepresentation(forTypeIdentifier typeIdentifier: String,
                                         completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress {
        forward(typeIdentifier, .data) { result, files in
            switch ProviderMirror.data(of: result, files: files) {
            case .success(let data): completionHandler(data, nil)
            case .failure(let error): completionHandler(nil, error)
            }
        }
    }

    override func loadFileRepresentation(forTypeIdentifier typeIdentifier: String,
                                         completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void) -> Progress {
        forward(typeIdentifier, .file) { result, files in
            ProviderMirror.withFile(result, files: files, in: self.crossed, keeping: false) { url, _, error in completionHandler(url, error) }
        }
    }

    override func loadInPlaceFileRepresentation(forTypeIdentifier typeIdentifier: String,
                                                completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress {
        forward(typeIdentifier, .fileInPlace) { result, files in
            ProviderMirror.withFile(result, files: files, in: self.crossed, keeping: true) { url, inPlace, error in completionHandler(url, inPlace, error) }
        }
    }

    override func loadItem(forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil,
                           completionHandler: (@Sendable ((any NSSecureCoding)?, (any Error)?) -> Void)? = nil) {
        _ = forward(typeIdentifier, .item) { result, files in
            ProviderMirror.item(of: result, files: files, in: self.crossed) { item, error in completionHandler?(item, error) }
        }
    }
}

/// The files a provider's loads received, each copied out of the descriptor that carried it into a directory
/// of its own; the directory is made at the first and removed, with everything in it, when the provider (and
/// any load still holding this) is gone.
final class CrossedFiles: Sendable {
    private let directory = Locked<TemporaryDirectory?>(nil)
    /// Whether a file may be handed over by the path the other side opened it at: the host's files, in the
    /// extension (the host is trusted with its own files); never the extension's, in the host, where the path
    /// is the extension's to change after the check.
    private let trustsPaths: Bool

    init(trustsPaths: Bool) {
        self.trustsPaths = trustsPaths
    }

    /// The path `file` was opened at, when paths are trusted and it still names the same file.
    func original(of file: OpenFile) -> URL? {
        guard trustsPaths, let kind = try? file.status().kind, kind == .regular || kind == .directory else { return nil }
        return file.currentPath
    }

    /// A copy of the regular file or directory `file` is open on, at a new path whose last component is `name`.
    func copy(_ file: OpenFile, named name: String) throws(SystemError) -> URL {
        let parent = try directory.withLock { directory throws(SystemError) in
            if directory == nil { directory = try TemporaryDirectory(prefix: "OpenSharing-crossed-") }
            return directory!.url
        }
        let destination = try FileSystem.createUniqueDirectory(in: parent, prefix: "load-").appending(component: name)
        switch try file.status().kind {
        case .regular:
            // Read through the descriptor that crossed, at offsets of the copy's own (never another's offset).
            try FileCopier.copy(from: file, to: destination)
        case .directory where trustsPaths:
            // A directory only ever comes from the host, whose paths are trusted: copied through its entry here.
            _ = try TreeCopier.copyTree(of: file, to: destination)
        case .directory, .symbolicLink, .other:
            throw SystemError(.copy, .wrongKind("not a regular file"), path: name)
        }
        return destination
    }

    deinit {
        directory.withLock { $0?.remove() }
    }
}

extension WireForm {
    /// The form of a representation as its provider registered it.
    init(_ form: NSItemProvider.RepresentationForm) {
        switch form {
        case .data: self = .data
        case .file: self = .file
        case .fileInPlace: self = .fileInPlace
        case .item: self = .item
        }
    }
}

extension LoadResult {
    /// The bytes a result hands over, when it says.
    var size: Int? {
        switch self {
        case .bytes(let bytes), .propertyList(let bytes): bytes.count
        case .memory(let length), .image(_, let length), .textInMemory(let length), .propertyListInMemory(let length): Int(clamping: length)
        case .url(let string), .text(let string): string.utf8.count
        case .file, .stream, .failed: nil
        }
    }

    /// What kind of result it is, for messages.
    var kindName: String {
        switch self {
        case .bytes, .memory: "data"
        case .file: "a file"
        case .stream: "a stream"
        case .url: "a URL"
        case .text, .textInMemory: "a string"
        case .propertyList, .propertyListInMemory: "a property list"
        case .image: "an image"
        case .failed: "an error"
        }
    }
}
