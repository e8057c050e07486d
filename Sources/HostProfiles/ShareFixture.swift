public import Foundation

/// One share, as a host app makes it, in a form anyone can replay: extension items with their title,
/// content text, user info and attachments, and for each attachment its representations in registration
/// order — the type, how it is provided, the payload, the visibility, and the faults real hosts show.
///
/// The JSON form is specified in `docs/share-fixtures.md`; `ShareFixture.read(from:)` reads it with errors
/// naming the JSON path, `makeItems()` turns it into `NSExtensionItem`s backed by real item providers, and
/// `ShareFixture(items:)` writes items back.
public struct ShareFixture: Sendable, Equatable, Codable {
    /// The format this version reads and writes.
    public static let currentFormat = "opensharing-share/1"

    public var format: String = ShareFixture.currentFormat
    /// The host app it reproduces (`safari`, `photos`, …), if any.
    public var host: String?
    /// What is shared, for people.
    public var summary: String?
    /// The host app's side, for visibility: its team and app groups. The host is always another process.
    public var origin: Party?
    /// The extension's side: its team and app groups. The extension is this process.
    public var consumer: Party?
    public var items: [Item]

    public init(host: String? = nil, summary: String? = nil, origin: Party? = nil, consumer: Party? = nil, items: [Item]) {
        self.host = host
        self.summary = summary
        self.origin = origin
        self.consumer = consumer
        self.items = items
    }

    enum CodingKeys: String, CodingKey {
        case format, host, origin, consumer, items
        case summary = "description"
    }

    public struct Party: Sendable, Equatable, Codable {
        public var team: String?
        public var groups: [String]?

        public init(team: String? = nil, groups: [String]? = nil) {
            self.team = team
            self.groups = groups
        }
    }

    /// One `NSExtensionItem`.
    public struct Item: Sendable, Equatable, Codable {
        public var title: String?
        public var contentText: String?
        public var userInfo: [String: PropertyListValue]?
        /// `nil`: the item has no attachments at all (different from an empty list, which some hosts send).
        public var attachments: [Attachment]?

        public init(title: String? = nil, contentText: String? = nil, userInfo: [String: PropertyListValue]? = nil, attachments: [Attachment]? = nil) {
            self.title = title
            self.contentText = contentText
            self.userInfo = userInfo
            self.attachments = attachments
        }
    }

    /// One `NSItemProvider`.
    public struct Attachment: Sendable, Equatable, Codable {
        public var suggestedName: String?
        /// In registration (fidelity) order.
        public var representations: [Representation]
        /// What the provider's preview image handler gives.
        public var preview: Payload?

        public init(suggestedName: String? = nil, representations: [Representation], preview: Payload? = nil) {
            self.suggestedName = suggestedName
            self.representations = representations
            self.preview = preview
        }
    }

    /// One registered representation.
    public struct Representation: Sendable, Equatable, Codable {
        public var type: String
        public var provide: Provision
        public var payload: Payload
        public var visibility: Visibility?
        public var fault: Fault?

        public init(type: String, provide: Provision, payload: Payload, visibility: Visibility? = nil, fault: Fault? = nil) {
            self.type = type
            self.provide = provide
            self.payload = payload
            self.visibility = visibility
            self.fault = fault
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            provide = try container.decode(Provision.self, forKey: .provide)
            payload = try container.decode(Payload.self, forKey: .payload)
            visibility = try container.decodeIfPresent(Visibility.self, forKey: .visibility)
            fault = try container.decodeIfPresent(Fault.self, forKey: .fault)
            if type.isEmpty {
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "a type identifier is required")
            }
            if let problem = provide.problem(with: payload) {
                throw DecodingError.dataCorruptedError(forKey: .payload, in: container, debugDescription: problem)
            }
        }
    }

    /// How a representation is registered.
    public enum Provision: String, Sendable, Equatable, Codable, CaseIterable {
        /// `registerDataRepresentation`: the payload's bytes.
        case data
        /// `registerFileRepresentation`: the payload file, to be copied.
        case file
        /// `registerFileRepresentation` with `.openInPlace`.
        case openInPlace
        /// `registerFileRepresentation` of a directory.
        case directory
        /// `registerObject(ofClass:)`: an object of the payload's class (`NSString`, `NSURL`, an image).
        case object
        /// `registerItem` (the legacy API): `loadItem` hands the payload's object over as it is.
        case item

        func problem(with payload: Payload) -> String? {
            switch (self, payload) {
            case (.file, .file), (.openInPlace, .file), (.directory, .file): nil
            case (.file, _), (.openInPlace, _), (.directory, _): "a \(rawValue) representation takes a file payload"
            case (.object, .text), (.object, .url), (.object, .image): nil
            case (.object, _): "an object is a text, a url or an image (register other values as an item)"
            default: nil
            }
        }
    }

    /// What a representation carries: exactly one of its forms.
    public enum Payload: Sendable, Equatable, Codable {
        /// UTF-8 text (data), or an `NSString` (object, item).
        case text(String)
        /// Bytes, base64 in JSON (data), or `NSData` (item).
        case base64(Data)
        /// A file, its path relative to the fixture (or absolute): its bytes (data) or the file itself.
        case file(String)
        /// A URL: its absolute string's bytes (data), or an `NSURL` (object, item).
        case url(String)
        /// A property list: as a binary property list (data), or `NSDictionary`/`NSArray`… (item).
        case plist(PropertyListValue)
        /// An image file held as an image object, as UIKit's `UIImage` is (object, item).
        case image(String)

        enum CodingKeys: String, CodingKey, CaseIterable {
            case text, base64, file, url, plist, image
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let present = CodingKeys.allCases.filter(container.contains)
            guard present.count == 1, let key = present.first else {
                let context = DecodingError.Context(codingPath: decoder.codingPath,
                                                    debugDescription: "a payload has exactly one of text, base64, file, url, plist, image; found \(present.isEmpty ? "none" : present.map(\.rawValue).joined(separator: ", "))")
                throw DecodingError.dataCorrupted(context)
            }
            switch key {
            case .text: self = .text(try container.decode(String.self, forKey: .text))
            case .base64:
                guard let data = Data(base64Encoded: try container.decode(String.self, forKey: .base64)) else {
                    throw DecodingError.dataCorruptedError(forKey: .base64, in: container, debugDescription: "not valid base64")
                }
                self = .base64(data)
            case .file: self = .file(try Self.path(container, .file))
            case .url:
                let string = try container.decode(String.self, forKey: .url)
                guard URL(string: string)?.scheme != nil else {
                    throw DecodingError.dataCorruptedError(forKey: .url, in: container, debugDescription: "'\(string)' is not an absolute URL")
                }
                self = .url(string)
            case .plist: self = .plist(try container.decode(PropertyListValue.self, forKey: .plist))
            case .image: self = .image(try Self.path(container, .image))
            }
        }

        private static func path(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> String {
            let path = try container.decode(String.self, forKey: key)
            if path.isEmpty { throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "an empty path") }
            return path
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .text(let value): try container.encode(value, forKey: .text)
            case .base64(let value): try container.encode(value.base64EncodedString(), forKey: .base64)
            case .file(let value): try container.encode(value, forKey: .file)
            case .url(let value): try container.encode(value, forKey: .url)
            case .plist(let value): try container.encode(value, forKey: .plist)
            case .image(let value): try container.encode(value, forKey: .image)
            }
        }

        /// The file this payload names, if any.
        var path: String? {
            switch self {
            case .file(let path), .image(let path): path
            default: nil
            }
        }
    }

    public enum Visibility: String, Sendable, Equatable, Codable, CaseIterable {
        case all, team, group, ownProcess
    }

    /// How a host misbehaves when this representation is loaded.
    public enum Fault: Sendable, Equatable, Codable {
        /// Loads fail with this error — every load, or only loads asking for one of `whenAskedFor`.
        case fails(domain: String, code: Int, message: String, whenAskedFor: [String]?)
        /// The loader never calls back (the consumer needs a timeout).
        case neverCompletes
        /// The loader takes this long.
        case slow(seconds: Double)
        /// The legacy `loadItem` gives a file URL at this path, which the consumer may not read; loading
        /// through the provider still works.
        case unreadableURL(path: String)
        /// The legacy `loadItem` gives this object instead of what the type promises.
        case unexpectedClass(Payload)

        enum CodingKeys: String, CodingKey {
            case kind, domain, code, message, whenAskedFor, seconds, path, object
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let kind = try container.decode(String.self, forKey: .kind)
            switch kind {
            case "fails":
                self = .fails(domain: try container.decode(String.self, forKey: .domain),
                              code: try container.decode(Int.self, forKey: .code),
                              message: try container.decodeIfPresent(String.self, forKey: .message) ?? "",
                              whenAskedFor: try container.decodeIfPresent([String].self, forKey: .whenAskedFor))
            case "neverCompletes":
                self = .neverCompletes
            case "slow":
                let seconds = try container.decode(Double.self, forKey: .seconds)
                guard seconds >= 0, seconds <= 3600 else {
                    throw DecodingError.dataCorruptedError(forKey: .seconds, in: container, debugDescription: "between 0 and 3600 seconds")
                }
                self = .slow(seconds: seconds)
            case "unreadableURL":
                self = .unreadableURL(path: try container.decode(String.self, forKey: .path))
            case "unexpectedClass":
                self = .unexpectedClass(try container.decode(Payload.self, forKey: .object))
            default:
                throw DecodingError.dataCorruptedError(forKey: .kind, in: container,
                                                       debugDescription: "unknown fault '\(kind)' (fails, neverCompletes, slow, unreadableURL, unexpectedClass)")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .fails(let domain, let code, let message, let whenAskedFor):
                try container.encode("fails", forKey: .kind)
                try container.encode(domain, forKey: .domain)
                try container.encode(code, forKey: .code)
                try container.encode(message, forKey: .message)
                try container.encodeIfPresent(whenAskedFor, forKey: .whenAskedFor)
            case .neverCompletes:
                try container.encode("neverCompletes", forKey: .kind)
            case .slow(let seconds):
                try container.encode("slow", forKey: .kind)
                try container.encode(seconds, forKey: .seconds)
            case .unreadableURL(let path):
                try container.encode("unreadableURL", forKey: .kind)
                try container.encode(path, forKey: .path)
            case .unexpectedClass(let payload):
                try container.encode("unexpectedClass", forKey: .kind)
                try container.encode(payload, forKey: .object)
            }
        }
    }
}
