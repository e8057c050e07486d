public import Foundation
public import SharingShim
#if !canImport(Darwin)
import OpenItemProvider
#endif

extension ShareFixture {
    /// Describes extension items as a fixture, to be saved in `directory`.
    ///
    /// Items made from a fixture (their providers are `ReplayItemProvider`s) are written exactly, faults
    /// included, payload paths made relative to `directory` where they can be. Other providers are read
    /// through their public API: each visible representation is loaded and written as a `data`
    /// representation (small ones inline, larger ones as files in `directory`), or as a `file` or `openInPlace`
    /// one, its file copied into `directory`, when it was registered so — an app's `Transferable` values
    /// registered with `register(_:)` included, so an app can write what it shares as a fixture to run
    /// extensions against.
    public init(items: [NSExtensionItem], host: String? = nil, summary: String? = nil, writingFilesTo directory: URL) async throws {
        var specs: [Item] = []
        for (itemIndex, item) in items.enumerated() {
            var spec = Item(title: item.attributedTitle?.string, contentText: item.attributedContentText?.string)
            let known: Set<String> = [NSExtensionItemAttributedTitleKey, NSExtensionItemAttributedContentTextKey, NSExtensionItemAttachmentsKey]
            let extra = (item.userInfo ?? [:]).compactMap { key, value -> (String, PropertyListValue)? in
                guard let key = key as? String, !known.contains(key), let converted = PropertyListValue(foundation: value) else { return nil }
                return (key, converted)
            }
            if !extra.isEmpty { spec.userInfo = Dictionary(uniqueKeysWithValues: extra) }
            if let providers = item.attachments {
                var attachments: [Attachment] = []
                for (index, provider) in providers.enumerated() {
                    if let replay = provider as? ReplayItemProvider {
                        attachments.append(replay.attachment.relocated(from: replay.baseDirectory, to: directory))
                    } else {
                        attachments.append(try await Self.describe(provider, name: "item\(itemIndex)-attachment\(index)", directory: directory))
                    }
                }
                spec.attachments = attachments
            }
            specs.append(spec)
        }
        self.init(host: host, summary: summary, items: specs)
    }

    /// Data up to this size is written inline (base64); larger goes to a file beside the fixture.
    static let inlineLimit = 16 << 10

    private static func describe(_ provider: NSItemProvider, name: String, directory: URL) async throws -> Attachment {
        var representations: [Representation] = []
        let inPlace = Set(provider.registeredTypeIdentifiers(fileOptions: .openInPlace))
        let files = registeredFiles(of: provider)
        for (index, typeIdentifier) in provider.registeredTypeIdentifiers.enumerated() {
            let type = UTType(typeIdentifier) ?? UTType(importedAs: typeIdentifier)
            let provide: Provision = inPlace.contains(typeIdentifier) ? .openInPlace : files.contains(typeIdentifier) ? .file : .data
            let file = "\(name)-\(index).\(type.preferredFilenameExtension ?? "bin")"
            if provide == .data {
                let data = try await provider.loadData(for: type)
                if data.count <= inlineLimit {
                    representations.append(Representation(type: typeIdentifier, provide: .data, payload: .base64(data)))
                    continue
                }
                try data.write(to: directory.appendingPathComponent(file))
            } else {
                // A file stays a file, copied rather than read whole.
                let loaded = try await provider.loadFile(for: type)
                try FileManager.default.copyItem(at: loaded.url, to: directory.appendingPathComponent(file))
            }
            representations.append(Representation(type: typeIdentifier, provide: provide, payload: .file(file)))
        }
        return Attachment(suggestedName: provider.suggestedName, representations: representations)
    }

    /// The types a provider registered as files to copy. Apple's API does not say, so on Apple's systems every
    /// representation that is not openable in place is written as data.
    private static func registeredFiles(of provider: NSItemProvider) -> Set<String> {
        #if canImport(Darwin)
        []
        #else
        Set(provider.registeredForms.filter { $0.form == .file }.map(\.typeIdentifier))
        #endif
    }
}

extension ShareFixture.Attachment {
    /// The same attachment with its file paths made relative to `directory` where the file lies under it,
    /// absolute otherwise.
    func relocated(from base: URL, to directory: URL) -> ShareFixture.Attachment {
        func move(_ payload: ShareFixture.Payload) -> ShareFixture.Payload {
            switch payload {
            case .file(let path): .file(relativePath(path, from: base, to: directory))
            case .image(let path): .image(relativePath(path, from: base, to: directory))
            default: payload
            }
        }
        var copy = self
        copy.representations = representations.map { representation in
            var moved = representation
            moved.payload = move(representation.payload)
            if case .unexpectedClass(let payload)? = representation.fault { moved.fault = .unexpectedClass(move(payload)) }
            return moved
        }
        copy.preview = preview.map(move)
        return copy
    }
}

/// `path` (relative to `base`, or absolute) written relative to `directory`: `../files/a.jpg` when both
/// lie under a common folder, the absolute path otherwise.
func relativePath(_ path: String, from base: URL, to directory: URL) -> String {
    let absolute = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
    let target = absolute.standardizedFileURL.pathComponents
    let start = directory.standardizedFileURL.pathComponents
    let common = zip(target, start).prefix { $0 == $1 }.count
    // Only the root in common: an absolute path reads better than a climb to it.
    guard common > 1 else { return absolute.standardizedFileURL.path }
    return (Array(repeating: "..", count: start.count - common) + target[common...]).joined(separator: "/")
}
