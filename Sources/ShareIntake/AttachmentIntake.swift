import Foundation
import ShareInbox
import SharingFiles
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
/// deliver it, until one arrives as a file in a new inbox delivery.
struct AttachmentIntake: Sendable {
    let provider: NSItemProvider
    let policy: IntakePolicy
    let plan: MemoryPlan
    let previewMaker: (any PreviewMaking)?
    let inbox: ShareInbox
    let context: ItemContext
    let progress: Progress

    /// The staging name of a payload while its type, and so its name, is not settled.
    static let incoming = ".incoming"

    func run() async throws -> AttachmentResult {
        defer { progress.completedUnitCount = max(progress.totalUnitCount, 1) }
        let registered = provider.registeredTypeIdentifiers
        let candidates = Candidates.ordered(registered: registered, accepted: policy.acceptedTypes)
        guard !candidates.isEmpty else {
            return .skipped(registered.isEmpty ? "the attachment has no representations"
                            : "none of its types (\(registered.joined(separator: ", "))) is accepted")
        }
        var failures: [IntakeFailure] = []
        for type in candidates {
            if progress.isCancelled { throw CancellationError() }
            try Task.checkCancellation()
            do {
                var staged = try await receive(type)
                // What was tried first and failed is worth knowing: a host's best representation did not load.
                staged.notes.insert(contentsOf: failures.map { "tried first: \($0.description)" }, at: 0)
                return .staged(staged)
            } catch let failure as IntakeFailure {
                failures.append(IntakeFailure("\(type.identifier): \(failure.description)", refusal: failure.isRefusal))
            }
        }
        try Task.checkCancellation()
        if failures.allSatisfy(\.isRefusal) { return .skipped(failures.map(\.description).joined(separator: "; ")) }
        return .failed(failures.map(\.description))
    }

    // MARK: One representation

    /// Receives the representation of `type` into a new delivery, or throws `IntakeFailure` (the delivery
    /// is then discarded), `CancellationError`, or `IntakeError.inbox`.
    private func receive(_ type: UTType) async throws -> Staged {
        let delivery: InboxDelivery
        do {
            delivery = try inbox.beginDelivery()
        } catch {
            throw IntakeError.inbox(error.description)
        }
        do {
            return try await receive(type, into: delivery)
        } catch {
            delivery.discard()
            throw error
        }
    }

    private func receive(_ type: UTType, into delivery: InboxDelivery) async throws -> Staged {
        let staging = delivery.payloadDirectory.appendingPathComponent(Self.incoming).path
        // A file is the way for content; a link is best taken as the URL object it is, not as bytes.
        let ways: [(String, () async throws -> Arrival)] = [
            ("as a file", { try await fileRepresentation(type, into: staging) }),
            ("as an item", { try await legacyItem(type, into: staging) }),
        ]
        var failures: [String] = []
        for (way, load) in type.conforms(to: .url) && !type.conforms(to: .fileURL) ? ways.reversed() : ways {
            do {
                let arrival = try unwrapped(try await load(), type: type, staging: staging)
                return try await finish(arrival, declared: type, staging: staging, delivery: delivery)
            } catch let failure as IntakeFailure {
                if failure.isRefusal { throw failure }
                failures.append("\(way), \(failure)")
                try? Syscall.removeTree(staging)
            }
        }
        throw IntakeFailure(failures.joined(separator: "; "))
    }

    /// What arrived at the staging path.
    struct Arrival {
        var kind: InboxManifest.Kind
        var size: Int64
        /// The name the host gave it (suggested name, or the file's own).
        var originalName: String?
        /// The web address, when a URL arrived.
        var webURL: URL?
        /// The web address a text that arrived consists of.
        var linkedURL: URL?
        /// The payload's SHA-256, when the copy computed it.
        var sha256: String?
        var notes: [String] = []
    }

    /// The modern way: the representation as a file (the original when the host lets it be opened in
    /// place), copied before the handler returns.
    private func fileRepresentation(_ type: UTType, into staging: String) async throws -> Arrival {
        let suggested = provider.suggestedName
        return try await HostAnswer<Arrival>.wait(timeout: policy.loadTimeout, what: "a file of \(type.identifier)") { answer in
            provider.loadFileRepresentation(for: type, openInPlace: true) { url, _, error in
                answer.answered {
                    guard let url else { throw IntakeFailure(Self.describe(error)) }
                    var arrival = try copy(url, to: staging, cancelled: { answer.isCancelled })
                    arrival.originalName = suggested ?? url.lastPathComponent
                    return arrival
                }
            }
        }
    }

    /// The legacy way, which hands over whatever the host registered: a file URL (perhaps one this process
    /// may not read), a web URL, data (perhaps a property list wrapping a URL), text, or an object.
    private func legacyItem(_ type: UTType, into staging: String) async throws -> Arrival {
        let suggested = provider.suggestedName
        let arrival = try await HostAnswer<Arrival?>.wait(timeout: policy.loadTimeout, what: "the item of \(type.identifier)") { answer in
            provider.loadItem(forTypeIdentifier: type.identifier, options: nil) { item, error in
                answer.answered {
                    guard let item else { throw IntakeFailure(Self.describe(error)) }
                    return try normalize(item, type: type, suggested: suggested, into: staging, cancelled: { answer.isCancelled })
                }
            }
            return nil
        }
        if let arrival { return arrival }
        // A file URL this process may not read: the provider can still hand over the bytes.
        let data = try await HostAnswer<Data>.wait(timeout: policy.loadTimeout, what: "the data of \(type.identifier)") { answer in
            provider.loadDataRepresentation(for: type) { data, error in
                answer.answered {
                    guard let data else { throw IntakeFailure("its file cannot be read here, and as data: \(Self.describe(error))") }
                    return data
                }
            }
        }
        return try write(data, to: staging, originalName: suggested)
    }

    /// Turns what `loadItem` gave into a file; `nil` for a file URL this process cannot read.
    private func normalize(_ item: Any, type: UTType, suggested: String?, into staging: String,
                           cancelled: () -> Bool) throws -> Arrival? {
        switch item {
        case let url as URL:
            return try arrival(for: url, type: type, suggested: suggested, into: staging, cancelled: cancelled)
        case let url as NSURL:
            return try arrival(for: url as URL, type: type, suggested: suggested, into: staging, cancelled: cancelled)
        case let data as Data:
            if let url = Self.wrappedURL(in: data) {
                return try arrival(for: url, type: type, suggested: suggested, into: staging, cancelled: cancelled)
            }
            return try write(data, to: staging, originalName: suggested)
        case let data as NSData:
            return try normalize(Data(referencing: data), type: type, suggested: suggested, into: staging, cancelled: cancelled)
        case let text as String:
            if type.conforms(to: .url), let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines)), url.scheme != nil {
                return try arrival(for: url, type: type, suggested: suggested, into: staging, cancelled: cancelled)
            }
            return try write(Data(text.utf8), to: staging, originalName: suggested)
        case let text as NSString:
            return try normalize(text as String, type: type, suggested: suggested, into: staging, cancelled: cancelled)
        case let text as NSAttributedString:
            return try write(Data(text.string.utf8), to: staging, originalName: suggested)
        case let object as any NSItemProviderWriting:
            return try write(try Self.data(of: object, as: type, timeout: policy.loadTimeout), to: staging, originalName: suggested)
        case let dictionary as NSDictionary:
            return try write(try Self.propertyList(dictionary), to: staging, originalName: suggested)
        case let array as NSArray:
            return try write(try Self.propertyList(array), to: staging, originalName: suggested)
        default:
            throw IntakeFailure("the host gave \(Swift.type(of: item)), which is neither a file, data, text nor a URL")
        }
    }

    private func arrival(for url: URL, type: UTType, suggested: String?, into staging: String, cancelled: () -> Bool) throws -> Arrival? {
        if url.isFileURL {
            guard Syscall.isReadable(url.path) else { return nil }
            var arrival = try copy(url, to: staging, cancelled: cancelled)
            arrival.originalName = suggested ?? url.lastPathComponent
            return arrival
        }
        // A web address: delivered as the URL it is, in a .webloc, the file macOS makes of a dragged link.
        let plist = try Self.propertyList(["URL": url.absoluteString] as NSDictionary)
        var arrival = try write(plist, to: staging, originalName: suggested ?? url.host ?? "Link")
        arrival.webURL = url
        return arrival
    }

    /// Most bytes of a payload looked into for a URL it is nothing but.
    static let linkSizeLimit = 64 << 10

    /// A small file that is only a property list wrapping a URL (the Files app's `public.file-url`, a
    /// host's plist of a link) becomes what the URL leads to; a text that is only a web address keeps its
    /// bytes but is known as that address, so that it is not received twice beside the link itself.
    private func unwrapped(_ arrival: Arrival, type: UTType, staging: String) throws -> Arrival {
        guard arrival.kind == .file, arrival.webURL == nil, arrival.size <= Self.linkSizeLimit,
              let data = FileManager.default.contents(atPath: staging) else { return arrival }
        if let url = Self.wrappedURL(in: data) {
            try? Syscall.removeTree(staging)
            guard let unwrapped = try self.arrival(for: url, type: type, suggested: provider.suggestedName, into: staging, cancelled: { false }) else {
                throw IntakeFailure("a property list of the file URL \(url.path), which cannot be read here")
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

    /// Copies a file or a tree the host handed over to the staging path, refusing what policy refuses
    /// before copying anything.
    private func copy(_ url: URL, to staging: String, cancelled: () -> Bool) throws -> Arrival {
        let path = url.path
        let status: stat?
        do {
            status = try Syscall.status(path)
        } catch {
            throw IntakeFailure(error.description)
        }
        guard let status else { throw IntakeFailure("the host's file \(path) does not exist") }
        let keepGoing: (Int64) -> Bool = { copied in
            progress.completedUnitCount = copied
            return !cancelled() && !progress.isCancelled
        }
        do {
            if Syscall.isDirectory(status) {
                guard policy.directories == .copy else { throw IntakeFailure("a directory, which the policy refuses", refusal: true) }
                let size = TreeCopier.size(of: path)
                try checkSize(size)
                progress.totalUnitCount = max(size, 1)
                let result = try TreeCopier.copyTree(from: path, to: staging, progress: keepGoing)
                let notes = result.skipped.map { "left out \($0.path): \($0.reason)" }
                return Arrival(kind: .directory, size: result.bytes, notes: notes)
            }
            guard Syscall.isRegularFile(status) else { throw IntakeFailure("\(path) is not a regular file or a directory") }
            try checkSize(Int64(status.st_size))
            progress.totalUnitCount = max(Int64(status.st_size), 1)
            // Copied and hashed as it is written. A large file is flushed meanwhile too, the flush overlapping
            // the hash; a small one is flushed with the rest of the item when it is delivered, in one commit.
            let large = Int64(status.st_size) > Int64(FileCopier.chunkSize)
            let (result, sha256) = try FileCopier.copyFileHashing(from: path, to: staging, durable: large, progress: keepGoing)
            return Arrival(kind: .file, size: result.bytes, sha256: sha256)
        } catch let error as FileSystemError {
            if error.code == .cancelled { throw CancellationError() }
            throw IntakeFailure(error.description)
        }
    }

    /// Writes bytes the host handed over in memory.
    private func write(_ data: Data, to staging: String, originalName: String?) throws -> Arrival {
        try checkSize(Int64(data.count))
        guard FileManager.default.createFile(atPath: staging, contents: data) else {
            throw IntakeFailure("cannot write \(data.count) bytes to the inbox")
        }
        progress.totalUnitCount = max(Int64(data.count), 1)
        progress.completedUnitCount = Int64(data.count)
        return Arrival(kind: .file, size: Int64(data.count), originalName: originalName)
    }

    private func checkSize(_ size: Int64) throws {
        if let maximum = policy.maximumItemSize, size > maximum {
            throw IntakeFailure("\(size) bytes, more than the maximum of \(maximum)", refusal: true)
        }
    }

    // MARK: Settling what arrived

    /// Checks the bytes against the declared type, names the payload, hashes it, makes previews, and
    /// writes the manifest.
    private func finish(_ arrival: Arrival, declared: UTType, staging: String, delivery: InboxDelivery) async throws -> Staged {
        var notes = arrival.notes
        let type = arrival.webURL == nil ? try settle(arrival, declared: declared, staging: staging, notes: &notes) : .url
        let name = SafeFileName.make(from: arrival.originalName, fallback: Self.fallbackName(for: type),
                                     extension: arrival.webURL == nil ? SafeFileName.ExtensionRule(for: type) : Self.weblocRule)
        let payload = delivery.payloadDirectory.appendingPathComponent(name).path
        let sha256: String
        do {
            try Syscall.renameNoReplace(staging, to: payload)
            if let known = arrival.sha256 {
                sha256 = known
            } else {
                sha256 = try await Self.hashWhileFlushing(payload, kind: arrival.kind)
            }
        } catch let error as FileSystemError {
            throw IntakeFailure(error.description)
        }
        let previews = makePreviews(of: payload, type: type, into: delivery, notes: &notes)
        let manifest = InboxManifest(
            host: context.host, type: type.identifier, declaredType: type == declared ? nil : declared.identifier,
            originalName: arrival.originalName, name: name, kind: arrival.kind, size: arrival.size, sha256: sha256,
            text: context.text, title: context.title, url: arrival.webURL?.absoluteString, previews: previews, source: context.source)
        let identity = (arrival.webURL ?? arrival.linkedURL).map { "url " + $0.absoluteString } ?? "\(arrival.kind.rawValue) \(sha256)"
        return Staged(delivery: delivery, manifest: manifest, identity: identity, notes: notes)
    }

    /// The type to deliver the payload as: what its bytes are, checked against what the host declared.
    private func settle(_ arrival: Arrival, declared: UTType, staging: String, notes: inout [String]) throws -> UTType {
        let verdict: ContentSniffer.Verdict
        if UTType(declared.identifier) == nil {
            // A type unknown here cannot be checked; the bytes can still say what they are.
            guard arrival.kind == .file, case .format(let found)? = try? ContentSniffer.sniff(fileAt: staging) else { return declared }
            notes.append("declared \(declared.identifier), unknown here; the bytes are \(found.identifier)")
            return found
        } else if arrival.kind == .directory {
            verdict = declared.conforms(to: .directory) ? .agrees(declared)
                : .disagrees(found: contentType(ofFileAt: staging), reason: "declared \(declared.identifier), but it is a directory")
        } else {
            do {
                verdict = ContentSniffer.verdict(declared: declared, finding: try ContentSniffer.sniff(fileAt: staging))
            } catch {
                throw IntakeFailure(error.description)
            }
        }
        switch verdict {
        case .agrees(let type):
            return type
        case .disagrees(let found, let reason):
            guard policy.mismatch == .deliverAsFound, let found else { throw IntakeFailure(reason, refusal: policy.mismatch == .refuse) }
            guard policy.acceptedTypes.contains(where: { found.conforms(to: $0) }) else {
                throw IntakeFailure("\(reason), which is not accepted", refusal: true)
            }
            notes.append(reason)
            return found
        }
    }

    private func makePreviews(of payload: String, type: UTType, into delivery: InboxDelivery, notes: inout [String]) -> [InboxManifest.Preview] {
        guard let previewMaker, !policy.previewSizes.isEmpty, type.conforms(to: .image) else { return [] }
        guard plan.previewBudget > 0, previewMaker.memoryNeeded(for: type, sizes: policy.previewSizes) <= plan.previewBudget else {
            notes.append("no previews: making them does not fit the memory budget")
            return []
        }
        do {
            return try previewMaker.makePreviews(of: URL(fileURLWithPath: payload), type: type, sizes: policy.previewSizes,
                                                 into: try delivery.makePreviewsDirectory(), memoryBudget: plan.previewBudget)
        } catch {
            notes.append("no previews: \(error)")
            return []
        }
    }

    /// The payload's SHA-256, computed while the kernel flushes it to disk: the two overlap, so a durable
    /// delivery costs about what the flush alone does.
    static func hashWhileFlushing(_ path: String, kind: InboxManifest.Kind) async throws -> String {
        guard kind == .file else { return try SHA256Hasher.hash(treeAt: path) }
        async let flushed: Void = Task.detached { try Syscall.flushTree(path) }.value
        let hash = try await Task.detached { try SHA256Hasher.hash(fileAt: path) }.value
        try await flushed
        return hash
    }

    // MARK: Helpers

    /// A link's file is a `.webloc` whatever its name says.
    static let weblocRule = SafeFileName.ExtensionRule(preferred: "webloc", accepts: { $0.lowercased() == "webloc" }, isKnown: { _ in false })

    static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "the host gave nothing, and no error" }
        let nsError = error as NSError
        return "\(nsError.domain) \(nsError.code): \(nsError.localizedDescription)"
    }

    static func fallbackName(for type: UTType) -> String {
        if type.conforms(to: .image) { return "Image" }
        if type.conforms(to: .movie) { return "Movie" }
        if type.conforms(to: .text) { return "Text" }
        if type.conforms(to: .url) { return "Link" }
        return "Item"
    }

    /// The URL in a property list that is nothing but one (the Files app's `public.file-url` representation).
    static func wrappedURL(in data: Data) -> URL? {
        guard data.starts(with: Array("bplist00".utf8)) || data.starts(with: Array("<?xml".utf8)),
              let value = try? PropertyListSerialization.propertyList(from: data, format: nil) else { return nil }
        let text = (value as? String) ?? ((value as? [String: Any])?["URL"] as? String)
        guard let text, let url = URL(string: text), url.scheme != nil else { return nil }
        return url
    }

    static func propertyList(_ object: Any) throws -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        } catch {
            throw IntakeFailure("the host's property list cannot be written: \(error)")
        }
    }

    /// The data an object (an image object, say) writes for a type it can write that conforms to `type`.
    static func data(of object: any NSItemProviderWriting, as type: UTType, timeout: Duration) throws -> Data {
        let writable = Swift.type(of: object).writableTypeIdentifiersForItemProvider
        guard let identifier = writable.first(where: { (UTType($0) ?? UTType(importedAs: $0)).conforms(to: type) }) ?? writable.first else {
            throw IntakeFailure("the host gave an object that writes no type")
        }
        let box = DataBox()
        let done = DispatchSemaphore(value: 0)
        _ = object.loadData(withTypeIdentifier: identifier) { data, error in
            box.set(data, error)
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout.seconds) == .success else {
            throw IntakeFailure("the host's object did not write \(identifier) within \(timeout.formattedSeconds)")
        }
        guard let data = box.data else { throw IntakeFailure("the host's object gave no \(identifier): \(describe(box.error))") }
        return data
    }

    private final class DataBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (Data?, (any Error)?) = (nil, nil)
        func set(_ data: Data?, _ error: (any Error)?) { lock.withLock { stored = (data, error) } }
        var data: Data? { lock.withLock { stored.0 } }
        var error: (any Error)? { lock.withLock { stored.1 } }
    }
}
