import Foundation
import PackageSupport
public import SharingShim

/// What each representation of each attachment actually delivers — as data, as a file, and through the
/// legacy `loadItem` — so tests and `sharing share --load` can show exactly what a host's share gives an
/// extension.
public struct ShareProbe: Sendable, Equatable, Codable {
    public struct Item: Sendable, Equatable, Codable {
        public var title: String?
        public var contentText: String?
        /// `nil` when the item has no attachments at all.
        public var attachments: [Attachment]?
    }

    public struct Attachment: Sendable, Equatable, Codable {
        public var suggestedName: String?
        public var representations: [Representation]
    }

    public struct Representation: Sendable, Equatable, Codable {
        public var type: String
        public var data: Outcome
        public var file: Outcome
        public var item: Outcome
    }

    /// What one load gave: `delivered` with a description (`31863 bytes`, `sunset.jpeg, 31863 bytes`,
    /// `NSURL file:///…`), or the error, or nothing within the time allowed.
    public enum Outcome: Sendable, Equatable, Codable, CustomStringConvertible {
        case delivered(String)
        case failed(String)
        case timedOut

        public var description: String {
            switch self {
            case .delivered(let detail): detail
            case .failed(let error): "error: \(error)"
            case .timedOut: "no answer"
            }
        }
    }

    public var items: [Item]

    /// Loads every visible representation of every attachment three ways, each load given `timeout`: 3 s by
    /// default, never the matrix's slow host's 2 s, so that a slow load is always answered rather than racing
    /// its own timeout.
    public static func probe(_ items: [NSExtensionItem], timeout: Duration = .seconds(3)) async -> ShareProbe {
        var probed: [Item] = []
        for item in items {
            var attachments: [Attachment]?
            if let providers = item.attachments {
                var described: [Attachment] = []
                for provider in providers {
                    var representations: [Representation] = []
                    for identifier in provider.registeredTypeIdentifiers {
                        representations.append(Representation(
                            type: identifier,
                            data: await loadData(provider, identifier, timeout),
                            file: await loadFile(provider, identifier, timeout),
                            item: await loadItem(provider, identifier, timeout)))
                    }
                    described.append(Attachment(suggestedName: provider.suggestedName, representations: representations))
                }
                attachments = described
            }
            probed.append(Item(title: item.attributedTitle?.string, contentText: item.attributedContentText?.string, attachments: attachments))
        }
        return ShareProbe(items: probed)
    }

    private static func loadData(_ provider: NSItemProvider, _ identifier: String, _ timeout: Duration) async -> Outcome {
        await withTimeout(timeout) { finish in
            provider.loadDataRepresentation(forTypeIdentifier: identifier) { data, error in
                finish(data.map { .delivered("\($0.count) bytes") } ?? .failed(describe(error)))
            }
        }
    }

    private static func loadFile(_ provider: NSItemProvider, _ identifier: String, _ timeout: Duration) async -> Outcome {
        await withTimeout(timeout) { finish in
            provider.loadFileRepresentation(forTypeIdentifier: identifier) { url, error in
                guard let url else { return finish(.failed(describe(error))) }
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                if isDirectory.boolValue {
                    let entries = FileManager.default.subpaths(atPath: url.path)?.count ?? 0
                    finish(.delivered("\(url.lastPathComponent)/, \(entries) entries"))
                } else {
                    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
                    finish(.delivered("\(url.lastPathComponent), \(size) bytes"))
                }
            }
        }
    }

    private static func loadItem(_ provider: NSItemProvider, _ identifier: String, _ timeout: Duration) async -> Outcome {
        await withTimeout(timeout) { finish in
            provider.loadItem(forTypeIdentifier: identifier, options: nil) { item, error in
                guard let item else { return finish(.failed(describe(error))) }
                finish(.delivered(describeItem(item)))
                return
            }
            return nil
        }
    }

    static func describeItem(_ item: any NSSecureCoding) -> String {
        switch item {
        case let url as NSURL: "NSURL \((url as URL).absoluteString)"
        case let string as NSString: "NSString \"\(string)\""
        case let data as NSData: "NSData \(data.length) bytes"
        case let dictionary as NSDictionary: "NSDictionary keys \((dictionary.allKeys as? [String] ?? []).sorted().joined(separator: ", "))"
        case let array as NSArray: "NSArray \(array.count) elements"
        default: "\(type(of: item))"
        }
    }

    static func describe(_ error: (any Error)?) -> String {
        guard let error = error as NSError? else { return "no value and no error" }
        return "\(error.domain) \(error.code): \(error.localizedDescription)"
    }

    /// Starts a load that calls `finish` once; cancels it and answers `timedOut` if it does not in time.
    private static func withTimeout(_ timeout: Duration,
                                    _ start: @escaping @Sendable (@escaping @Sendable (Outcome) -> Void) -> Progress?) async -> Outcome {
        let outcome = ReplyBox<Outcome>()
        let progress = start { outcome.resolve($0) }
        outcome.resolve(with: .timedOut, after: timeout)
        let result = await outcome.value
        if result == .timedOut { progress?.cancel() }
        return result
    }
}
