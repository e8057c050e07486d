import ContentTypes
import Foundation
import PackageSupport
import PropertyLists
import ShareInbox
import SharingShim

/// What the host's item says about an attachment: who shared it and the words around it.
struct ItemContext: Sendable {
    var host: String?
    var text: String?
    var title: String?
    var source: InboxManifest.Source
}

/// An attachment staged in the inbox's `tmp/`, ready to be delivered (or dropped as a duplicate).
struct Staged: Sendable {
    let delivery: InboxDelivery
    let manifest: InboxManifest
    /// What makes two attachments the same resource: the web address, or the bytes' hash.
    let identity: String
    var notes: [String]
}

enum AttachmentResult: Sendable {
    case staged(Staged)
    case skipped(String)
    case failed([String])
}

/// Receives one attachment: tries its candidate representations in turn, each through every way a host may
/// deliver it, until one arrives as the payload of a new inbox delivery.
struct AttachmentIntake: Sendable {
    let provider: NSItemProvider
    let policy: IntakePolicy
    let plan: MemoryPlan
    let previewMaker: (any PreviewMaking)?
    let inbox: ShareInbox
    let context: ItemContext
    let progress: Progress

    func run() async throws(IntakeError) -> AttachmentResult {
        defer { progress.completedUnitCount = max(progress.totalUnitCount, 1) }
        let registered = provider.registeredTypeIdentifiers
        let candidates = Candidates.ordered(registered: registered, accepted: policy.acceptedTypes)
        guard !candidates.isEmpty else {
            return .skipped(registered.isEmpty ? "the attachment has no representations"
                            : "none of its types (\(registered.joined(separator: ", "))) is accepted")
        }
        var failures: [IntakeError] = []
        for type in candidates {
            try checkCancellation()
            do {
                var staged = try await receive(type)
                // What was tried first and failed is worth knowing: a host's best representation did not load.
                staged.notes.insert(contentsOf: failures.map { "tried first: \($0.typeIdentifier ?? "?"): \($0.message)" }, at: 0)
                return .staged(staged)
            } catch where error.code == .cancelled || error.code == .inbox {
                throw error
            } catch {
                failures.append(error)
            }
        }
        try checkCancellation()
        let reasons = failures.map { "\($0.typeIdentifier ?? "?"): \($0.message)" }
        if failures.allSatisfy({ $0.code == .refused }) { return .skipped(reasons.joined(separator: "; ")) }
        return .failed(reasons)
    }

    private func checkCancellation() throws(IntakeError) {
        if progress.isCancelled || Task.isCancelled { throw IntakeError(.cancelled, "cancelled") }
    }

    // MARK: One representation

    /// Receives the representation of `type` into a new delivery (discarded on failure).
    private func receive(_ type: UTType) async throws(IntakeError) -> Staged {
        let delivery: InboxDelivery
        do {
            delivery = try inbox.beginDelivery()
        } catch {
            throw IntakeError(.inbox, error.description, underlying: error)
        }
        do {
            return try await receive(type, into: delivery)
        } catch {
            delivery.discard()
            var error = error
            if error.typeIdentifier == nil { error.typeIdentifier = type.identifier }
            throw error
        }
    }

    private func receive(_ type: UTType, into delivery: InboxDelivery) async throws(IntakeError) -> Staged {
        // A file is the way for content; a link is best taken as the URL object it is, not as bytes.
        enum Way: String { case file = "as a file", item = "as an item" }
        let ways: [Way] = type.conforms(to: .url) && !type.conforms(to: .fileURL) ? [.item, .file] : [.file, .item]
        var failures: [IntakeError] = [], messages: [String] = []
        for way in ways {
            do {
                let loaded = way == .file ? try await fileRepresentation(type, into: delivery) : try await legacyItem(type, into: delivery)
                let arrival = try unwrapped(loaded, type: type, delivery: delivery)
                return try await finish(arrival, declared: type, delivery: delivery)
            } catch where error.code == .refused || error.code == .cancelled || error.code == .inbox {
                throw error
            } catch {
                failures.append(error)
                messages.append("\(way.rawValue), \(error.message)")
                delivery.removePayload()
            }
        }
        // The first way's code stands for the representation (the ways are tried best first).
        throw IntakeError(failures.first?.code ?? .unknown, messages.joined(separator: "; "), underlying: failures.first?.underlying)
    }

    /// What arrived as the delivery's payload.
    struct Arrival {
        var payload: InboxDelivery.Payload
        /// The name the host gave it (suggested name, or the file's own).
        var originalName: String?
        /// The web address, when a URL arrived.
        var webURL: URL?
        /// The web address a text that arrived consists of.
        var linkedURL: URL?
        var notes: [String] = []
    }

    /// The modern way: the representation as a file (the original when the host lets it be opened in
    /// place), copied before the handler returns.
    private func fileRepresentation(_ type: UTType, into delivery: InboxDelivery) async throws(IntakeError) -> Arrival {
        let suggested = provider.suggestedName
        return try await HostAnswer<Arrival>.wait(timeout: policy.loadTimeout, what: "a file of \(type.identifier)") { answer in
            provider.loadFileRepresentation(for: type, openInPlace: true) { url, _, error in
                answer.answered { () throws(IntakeError) in
                    guard let url else { throw Self.hostError(error) }
                    var arrival = try copy(url, into: delivery, cancelled: { answer.isCancelled })
                    arrival.originalName = suggested ?? url.lastPathComponent
                    return arrival
                }
            }
        }
    }

    /// The legacy way, which hands over whatever the host registered: a file URL (perhaps one this process
    /// may not read), a web URL, data (perhaps a property list wrapping a URL), text, or an object.
    private func legacyItem(_ type: UTType, into delivery: InboxDelivery) async throws(IntakeError) -> Arrival {
        let suggested = provider.suggestedName
        let arrival = try await HostAnswer<Arrival?>.wait(timeout: policy.loadTimeout, what: "the item of \(type.identifier)") { answer in
            provider.loadItem(forTypeIdentifier: type.identifier, options: nil) { item, error in
                answer.answered { () throws(IntakeError) in
                    guard let item else { throw Self.hostError(error) }
                    return try normalize(item, type: type, suggested: suggested, into: delivery, cancelled: { answer.isCancelled })
                }
            }
            return nil
        }
        if let arrival { return arrival }
        // A file URL this process cannot read: the provider can still hand over the bytes.
        let data = try await HostAnswer<Data>.wait(timeout: policy.loadTimeout, what: "the data of \(type.identifier)") { answer in
            provider.loadDataRepresentation(for: type) { data, error in
                answer.answered { () throws(IntakeError) in
                    guard let data else {
                        var failure = Self.hostError(error)
                        failure.message = "its file cannot be read here, and as data: \(failure.message)"
                        throw failure
                    }
                    return data
                }
            }
        }
        return try write(data, into: delivery, originalName: suggested)
    }

    /// Turns what `loadItem` gave into a payload; `nil` for a file URL this process cannot read.
    private func normalize(_ item: Any, type: UTType, suggested: String?, into delivery: InboxDelivery,
                           cancelled: () -> Bool) throws(IntakeError) -> Arrival? {
        switch item {
        case let url as URL:
            return try arrival(for: url, type: type, suggested: suggested, into: delivery, cancelled: cancelled)
        case let url as NSURL:
            return try arrival(for: url as URL, type: type, suggested: suggested, into: delivery, cancelled: cancelled)
        case let data as Data:
            if let url = Self.wrappedURL(in: data) {
                return try arrival(for: url, type: type, suggested: suggested, into: delivery, cancelled: cancelled)
            }
            return try write(data, into: delivery, originalName: suggested)
        case let data as NSData:
            return try normalize(Data(referencing: data), type: type, suggested: suggested, into: delivery, cancelled: cancelled)
        case let text as String:
            if type.conforms(to: .url), let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines)), url.scheme != nil {
                return try arrival(for: url, type: type, suggested: suggested, into: delivery, cancelled: cancelled)
            }
            return try write(Data(text.utf8), into: delivery, originalName: suggested)
        case let text as NSString:
            return try normalize(text as String, type: type, suggested: suggested, into: delivery, cancelled: cancelled)
        case let text as NSAttributedString:
            return try write(Data(text.string.utf8), into: delivery, originalName: suggested)
        case let object as any NSItemProviderWriting:
            return try write(try Self.data(of: object, as: type, timeout: policy.loadTimeout), into: delivery, originalName: suggested)
        case let dictionary as NSDictionary:
            return try write(try Self.propertyList(dictionary), into: delivery, originalName: suggested)
        case let array as NSArray:
            return try write(try Self.propertyList(array), into: delivery, originalName: suggested)
        default:
            throw IntakeError(.unexpectedValueClass, "the host gave \(Swift.type(of: item)), which is neither a file, data, text nor a URL")
        }
    }

    private func arrival(for url: URL, type: UTType, suggested: String?, into delivery: InboxDelivery,
                         cancelled: () -> Bool) throws(IntakeError) -> Arrival? {
        if url.isFileURL {
            do {
                var arrival = try copy(url, into: delivery, cancelled: cancelled)
                arrival.originalName = suggested ?? url.lastPathComponent
                return arrival
            } catch where error.code == .itemUnavailable {
                return nil
            }
        }
        // A web address: delivered as the URL it is, in a .webloc, the file macOS makes of a dragged link.
        let plist = try Self.propertyList(["URL": url.absoluteString] as NSDictionary)
        var arrival = try write(plist, into: delivery, originalName: suggested ?? url.host ?? "Link")
        arrival.webURL = url
        return arrival
    }

    /// Most bytes of a payload looked into for a URL it is nothing but.
    static let linkSizeLimit = 64 << 10

    /// A small file that is only a property list wrapping a URL (the Files app's `public.file-url`, a
    /// host's plist of a link) becomes what the URL leads to; a text that is only a web address keeps its
    /// bytes but is known as that address, so that it is not received twice beside the link itself.
    private func unwrapped(_ arrival: Arrival, type: UTType, delivery: InboxDelivery) throws(IntakeError) -> Arrival {
        guard arrival.payload.kind == .file, arrival.webURL == nil, arrival.payload.size <= Int64(Self.linkSizeLimit) else { return arrival }
        let data = Data(try inboxCall { () throws(InboxError) in try delivery.payloadPrefix(Self.linkSizeLimit) })
        if let url = Self.wrappedURL(in: data) {
            delivery.removePayload()
            guard let unwrapped = try self.arrival(for: url, type: type, suggested: provider.suggestedName, into: delivery, cancelled: { false }) else {
                throw IntakeError(.itemUnavailable, "a property list of the file URL \(url.path), which cannot be read here")
            }
            return unwrapped
        }
        var arrival = arrival
        if let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
           let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil {
            arrival.linkedURL = url
        }
        return arrival
    }

    // MARK: Writing the payload

    /// Copies a file or a tree the host handed over into the delivery, refusing what policy refuses
    /// before copying anything.
    private func copy(_ url: URL, into delivery: InboxDelivery, cancelled: () -> Bool) throws(IntakeError) -> Arrival {
        let source: InboxDelivery.Source
        do {
            source = try delivery.openSource(url)
        } catch {
            switch error.code {
            case .sourceMissing: throw IntakeError(.itemUnavailable, "the host's file \(url.path) does not exist", underlying: error)
            case .sourceUnreadable: throw IntakeError(.itemUnavailable, "the host's file \(url.path) cannot be read here", underlying: error)
            case .sourceNotAFile: throw IntakeError(.unavailableCoercion, "\(url.path) is not a regular file or a directory", underlying: error)
            default: throw IntakeError(.inbox, error.description, underlying: error)
            }
        }
        if source.kind == .directory && policy.directories == .refuse {
            throw IntakeError(.refused, "a directory, which the policy refuses")
        }
        try checkSize(source.size)
        progress.totalUnitCount = max(source.size, 1)
        let payload = try inboxCall { () throws(InboxError) in
            try delivery.copyPayload(from: source) { copied in
                progress.completedUnitCount = copied
                return !cancelled() && !progress.isCancelled
            }
        }
        return Arrival(payload: payload, notes: payload.leftOut)
    }

    /// Writes bytes the host handed over in memory.
    private func write(_ data: Data, into delivery: InboxDelivery, originalName: String?) throws(IntakeError) -> Arrival {
        try checkSize(Int64(data.count))
        let payload = try inboxCall { () throws(InboxError) in try delivery.writePayload(data) }
        progress.totalUnitCount = max(Int64(data.count), 1)
        progress.completedUnitCount = Int64(data.count)
        return Arrival(payload: payload, originalName: originalName)
    }

    /// An inbox operation, its failure an intake error: a cancelled copy is the intake's cancellation.
    private func inboxCall<T>(_ body: () throws(InboxError) -> T) throws(IntakeError) -> T {
        do {
            return try body()
        } catch {
            throw IntakeError(error.code == .cancelled ? .cancelled : .inbox, error.description, underlying: error)
        }
    }

    private func checkSize(_ size: Int64) throws(IntakeError) {
        if let maximum = policy.maximumItemSize, size > maximum {
            throw IntakeError(.refused, "\(size) bytes, more than the maximum of \(maximum)")
        }
    }

    // MARK: Settling what arrived

    /// Checks the bytes against the declared type, names the payload, makes previews, and writes the manifest.
    private func finish(_ arrival: Arrival, declared: UTType, delivery: InboxDelivery) async throws(IntakeError) -> Staged {
        var notes = arrival.notes
        let type = arrival.webURL == nil ? try settle(arrival, declared: declared, delivery: delivery, notes: &notes) : .url
        let name = SafeFileName.make(from: arrival.originalName, fallback: Self.fallbackName(for: type),
                                     extension: arrival.webURL == nil ? SafeFileName.ExtensionRule(for: type) : Self.weblocRule)
        await makePreviews(type: type, into: delivery, notes: &notes)
        let manifest = InboxManifest(
            host: context.host, type: type.identifier, declaredType: type == declared ? nil : declared.identifier,
            originalName: arrival.originalName, name: name, text: context.text, title: context.title, url: arrival.webURL?.absoluteString, source: context.source)
        let identity = (arrival.webURL ?? arrival.linkedURL).map { "url " + $0.absoluteString }
            ?? "\(arrival.payload.kind.rawValue) \(arrival.payload.hash)"
        return Staged(delivery: delivery, manifest: manifest, identity: identity, notes: notes)
    }

    /// The type to deliver the payload as: what its bytes are, checked against what the host declared.
    private func settle(_ arrival: Arrival, declared: UTType, delivery: InboxDelivery, notes: inout [String]) throws(IntakeError) -> UTType {
        let verdict: ContentSniffer.Verdict
        if arrival.payload.kind == .directory {
            guard UTType(declared.identifier) != nil else { return declared }
            verdict = declared.conforms(to: .directory) ? .agrees(declared)
                : .disagrees(found: .folder, reason: "declared \(declared.identifier), but it is a directory")
        } else {
            let finding = ContentSniffer.sniff(try inboxCall { () throws(InboxError) in try delivery.payloadPrefix(ContentSniffer.headerSize) })
            if UTType(declared.identifier) == nil {
                // A type unknown here cannot be checked; the bytes can still say what they are.
                guard case .format(let found) = finding else { return declared }
                notes.append("declared \(declared.identifier), unknown here; the bytes are \(found.identifier)")
                return found
            }
            verdict = ContentSniffer.verdict(declared: declared, finding: finding)
        }
        switch verdict {
        case .agrees(let type):
            return type
        case .disagrees(let found, let reason):
            guard policy.mismatch == .deliverAsFound, let found else {
                throw IntakeError(policy.mismatch == .refuse ? .refused : .contentMismatch, reason)
            }
            guard policy.acceptedTypes.contains(where: { found.conforms(to: $0) }) else {
                throw IntakeError(.refused, "\(reason), which is not accepted")
            }
            notes.append(reason)
            return found
        }
    }

    private func makePreviews(type: UTType, into delivery: InboxDelivery, notes: inout [String]) async {
        guard let previewMaker, !policy.previewSizes.isEmpty, type.conforms(to: .image) else { return }
        guard plan.previewBudget > 0, previewMaker.memoryNeeded(for: type, sizes: policy.previewSizes) <= plan.previewBudget else {
            notes.append("no previews: making them does not fit the memory budget")
            return
        }
        let sizes = policy.previewSizes, budget = plan.previewBudget
        do {
            _ = try await delivery.addPreviews { payload, directory in
                try previewMaker.makePreviews(of: payload, type: type, sizes: sizes, into: directory, memoryBudget: budget)
            }
        } catch {
            notes.append("no previews: \(error)")
        }
    }

    // MARK: Helpers

    /// A link's file is a `.webloc` whatever its name says.
    static let weblocRule = SafeFileName.ExtensionRule(preferred: "webloc", accepts: { $0.lowercased() == "webloc" }, isKnown: { _ in false })

    /// The error a host's load ended with: the host's own code where it is an item provider's, which it
    /// mostly is; the host's error underneath.
    static func hostError(_ error: (any Error)?) -> IntakeError {
        guard let error else { return IntakeError(.itemUnavailable, "the host gave nothing, and no error") }
        let nsError = error as NSError
        let code = nsError.domain == NSItemProviderErrorDomain ? IntakeError.Code(rawValue: nsError.code) ?? .unknown : .unknown
        return IntakeError(code, "\(nsError.domain) \(nsError.code): \(nsError.localizedDescription)", underlying: nsError)
    }

    static func fallbackName(for type: UTType) -> String {
        if type.conforms(to: .image) { return "Image" }
        if type.conforms(to: .movie) { return "Movie" }
        if type.conforms(to: .text) { return "Text" }
        if type.conforms(to: .url) { return "Link" }
        return "Item"
    }

    /// The URL in a property list that is nothing but one (the Files app's `public.file-url` representation),
    /// read by the project's own reader: what a host sends is untrusted.
    static func wrappedURL(in data: Data) -> URL? {
        guard data.starts(with: Array("bplist00".utf8)) || data.starts(with: Array("<?xml".utf8)),
              let root = try? PropertyList.read(data) else { return nil }
        guard let text = root.string ?? root.dictionary?["URL"]?.string, let url = URL(string: text), url.scheme != nil else { return nil }
        return url
    }

    static func propertyList(_ object: Any) throws(IntakeError) -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        } catch {
            throw IntakeError(.unavailableCoercion, "the host's property list cannot be written: \(error)")
        }
    }

    /// The data an object (an image object, say) writes for a type it can write that conforms to `type`.
    static func data(of object: any NSItemProviderWriting, as type: UTType, timeout: Duration) throws(IntakeError) -> Data {
        let writable = Swift.type(of: object).writableTypeIdentifiersForItemProvider
        guard let identifier = writable.first(where: { (UTType($0) ?? UTType(importedAs: $0)).conforms(to: type) }) ?? writable.first else {
            throw IntakeError(.unavailableCoercion, "the host gave an object that writes no type")
        }
        let written = ReplyBox<UncheckedBox<(data: Data?, error: (any Error)?)>>()
        _ = object.loadData(withTypeIdentifier: identifier) { data, error in written.resolve(UncheckedBox((data, error))) }
        guard let answer = written.wait(timeout: timeout) else {
            throw IntakeError(.timedOut, "the host's object did not write \(identifier) within \(timeout.formattedSeconds)")
        }
        guard let data = answer.value.data else {
            var failure = hostError(answer.value.error)
            failure.message = "the host's object gave no \(identifier): \(failure.message)"
            throw failure
        }
        return data
    }
}
