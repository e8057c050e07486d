public import Foundation
import SharingShim

/// What a user shares: files, web URLs, text, and a title (a page's, a note's).
public struct SharedContent: Sendable {
    public var files: [URL]
    public var urls: [URL]
    public var texts: [String]
    public var title: String?

    public init(files: [URL] = [], urls: [URL] = [], texts: [String] = [], title: String? = nil) {
        self.files = files
        self.urls = urls
        self.texts = texts
        self.title = title
    }
}

/// What a person shares from a host app, as a host profile declares it: what part of a default share (a
/// test's photo, page, note) the profile is given, so that each host shares what it shares in life.
public enum SharedKind: String, Sendable, CaseIterable, Codable {
    /// A photo or video from the photo library, as a camera made it (full size).
    case libraryPhoto = "library-photo"
    /// A Live Photo's still, as a camera made it: 12 MP on every iPhone.
    case livePhotoStill = "live-photo-still"
    /// An image: a picture in a conversation, a screenshot, an image on a page.
    case image
    /// A document file.
    case document
    /// A web page's address.
    case webPage = "web-page"
    /// Text: a note, a selection.
    case text
    /// The title of what is shared (a page's, a note's).
    case title
    /// A Live Photo bundle: a directory holding the still and the video.
    case livePhotoBundle = "live-photo-bundle"
}

/// How one real host app fills `NSExtensionItem`s, as a function of what is shared.
///
/// Each profile reproduces a public report (`report`) and names the trap it sets for an extension
/// (`trap`); `share(_:)` builds the fixture, `ShareFixture.makeItems` the items. Profiles are equal when their
/// names are, and code as their names.
public struct HostProfile: Sendable {
    /// The short lowercase name the CLI takes (`--host photos`).
    public let name: String
    /// The host app.
    public let host: String
    /// What it shares, as kinds: the part of a default share it is given.
    public let shares: Set<SharedKind>
    /// What it sends, in words.
    public let sends: String
    /// What goes wrong in an extension that does not expect it.
    public let trap: String
    /// The public report it reproduces.
    public let report: String
    let build: @Sendable (SharedContent) throws(HostProfileError) -> ShareFixture

    /// The share this host makes of `content`.
    ///
    /// - Throws: `HostProfileError` when the content is not what this host shares (a browser needs a URL).
    public func share(_ content: SharedContent) throws(HostProfileError) -> ShareFixture {
        var fixture = try build(content)
        fixture.host = name
        return fixture
    }

    /// Every built-in profile.
    public static let all: [HostProfile] = browsersProfiles + photosProfiles + messagingProfiles + documentsProfiles + degenerateProfiles

    /// The profile with this name.
    public static func named(_ name: String) -> HostProfile? {
        all.first { $0.name == name.lowercased() }
    }
}

extension HostProfile: CaseIterable, Hashable, Codable, CustomStringConvertible {
    /// Every built-in profile (`all`), so that a Swift Testing test takes them as arguments.
    public static var allCases: [HostProfile] { all }

    public static func == (a: HostProfile, b: HostProfile) -> Bool { a.name == b.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Its name.
    public var description: String { name }

    /// Reads a profile's name.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the profiles when no profile has the name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let profile = Self.named(name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no host profile is named '\(name)' (they are \(Self.all.map(\.name).joined(separator: ", ")))")
        }
        self = profile
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// Why a host profile cannot make a share of some content.
public struct HostProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: Sendable, Equatable {
        /// The content lacks what the host shares (a browser shares a URL; Photos, files).
        case missingContent
    }

    /// The kind of content the host shares and was not given.
    public enum Content: String, Sendable, Equatable {
        case file, url, text
    }

    public var code: Code
    public var profile: String
    public var message: String
    /// What to give the host: a file, a URL, text.
    public var missing: Content

    public var description: String { "\(profile): \(message)" }
}

// MARK: Helpers the profiles share

extension HostProfile {
    /// `values`, unless there are none: then what the host shares, and which kind of content to give it.
    static func need<T>(_ kind: HostProfileError.Content, _ values: [T], _ what: String, _ profile: String) throws(HostProfileError) -> [T] {
        guard !values.isEmpty else {
            throw HostProfileError(code: .missingContent, profile: profile, message: "shares \(what) and was given none", missing: kind)
        }
        return values
    }

    /// A file representation of a file as its extension types it (a directory as a directory).
    static func fileRepresentation(_ url: URL, provide: ShareFixture.Provision = .file, fault: ShareFixture.Fault? = nil) -> ShareFixture.Representation {
        let type = ((try? url.resourceValues(forKeys: [.contentTypeKey]))?.contentType ?? .data)
        let isDirectory = type.conforms(to: .directory)
        return ShareFixture.Representation(type: type.identifier, provide: isDirectory ? .directory : provide,
                                           payload: .file(url.path), fault: fault)
    }

    static func urlItem(_ url: URL, type: String = "public.url") -> ShareFixture.Representation {
        ShareFixture.Representation(type: type, provide: .item, payload: .url(url.absoluteString))
    }

    static func stem(_ url: URL) -> String {
        url.deletingPathExtension().lastPathComponent
    }

    static func isImageOrMovie(_ url: URL) -> Bool {
        let type = ((try? url.resourceValues(forKeys: [.contentTypeKey]))?.contentType ?? .data)
        return type.conforms(to: .image) || type.conforms(to: .movie)
    }
}
