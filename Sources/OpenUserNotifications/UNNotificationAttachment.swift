package import ContentTypes
public import Foundation
#if canImport(Darwin)
package import UniformTypeIdentifiers
#else
package import OpenUniformTypeIdentifiers
#endif

/// The option that names the attachment's type (a UTI), for a file whose extension does not.
public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"
/// Whether the notification hides the attachment's thumbnail (a boolean `NSNumber`).
public let UNNotificationAttachmentOptionsThumbnailHiddenKey = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
/// The normalized rectangle of the image the thumbnail shows (a `CGRect`'s dictionary representation).
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey = "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
/// The frame of an animated image, or the time in a movie, the thumbnail shows (an `NSNumber`).
public let UNNotificationAttachmentOptionsThumbnailTimeKey = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// An image, sound or movie a notification shows, in a file on the device.
///
/// Stands in for `UNNotificationAttachment`. `init(identifier:url:options:)` checks the file as Apple documents:
/// a readable file (`attachmentInvalidURL`), a type of one of the supported families from the type hint or the
/// file's extension (`attachmentUnrecognizedType`), within the family's size (`attachmentInvalidFileSize`), and
/// bytes that are a file of the family (`attachmentCorrupt`) — JPEG bytes under a `.png` name are an image, and
/// pass, as they do on a device. When the content is delivered the host checks again and moves the file into
/// its data store.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check.
open class UNNotificationAttachment: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var url: URL
    /// The file's type, derived from its bytes when they show one of the family's types, as Apple derives it
    /// from the data; else the type the hint or the extension gave.
    open private(set) var type: String
    /// The options, as given, minus the type hint: what the host keeps with the file.
    package private(set) var thumbnailHidden: Bool
    package private(set) var thumbnailClippingRect: [String: Double]?
    package private(set) var thumbnailTime: Double?
    /// The attachment of a notification already shown: its file is in the system's data store, which only the
    /// system reads.
    package var isInDataStore = false

    package init(identifier: String, url: URL, type: String, thumbnailHidden: Bool = false,
                 thumbnailClippingRect: [String: Double]? = nil, thumbnailTime: Double? = nil) {
        self.identifier = identifier
        self.url = url
        self.type = type
        self.thumbnailHidden = thumbnailHidden
        self.thumbnailClippingRect = thumbnailClippingRect
        self.thumbnailTime = thumbnailTime
        super.init()
    }

    /// An attachment of the file at `URL`, identified by `identifier` (a unique one is made when it is empty).
    ///
    /// - Throws: `UNError` with `attachmentInvalidURL`, `attachmentUnrecognizedType`,
    ///   `attachmentInvalidFileSize` or `attachmentCorrupt`, naming the file.
    public convenience init(identifier: String, url URL: URL, options: [AnyHashable: Any]? = nil) throws {
        let options = options ?? [:]
        let hint = options[UNNotificationAttachmentOptionsTypeHintKey] as? String
        let checked = try AttachmentFile.check(URL, typeHint: hint)
        let rect = (options[UNNotificationAttachmentOptionsThumbnailClippingRectKey] as? [AnyHashable: Any])?
            .reduce(into: [String: Double]()) { rect, entry in
                if let key = entry.key as? String, let value = (entry.value as? NSNumber)?.doubleValue { rect[key] = value }
            }
        self.init(identifier: identifier.isEmpty ? UUID().uuidString : identifier, url: URL, type: checked.type,
                  thumbnailHidden: (options[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? NSNumber)?.boolValue ?? false,
                  thumbnailClippingRect: rect,
                  thumbnailTime: (options[UNNotificationAttachmentOptionsThumbnailTimeKey] as? NSNumber)?.doubleValue)
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    override open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationAttachment else { return false }
        return identifier == other.identifier && url == other.url && type == other.type
    }

    override open var hash: Int { identifier.hashValue }

    override open var description: String { "<UNNotificationAttachment: identifier: \(identifier), type: \(type), url: \(url.path)>" }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encode(identifier, forKey: "identifier")
        coder.encode(url.absoluteString, forKey: "url")
        coder.encode(type, forKey: "type")
        coder.encode(thumbnailHidden, forKey: "thumbnailHidden")
    }

    public required init?(coder: NSCoder) {
        guard let identifier = coder.decodeObject(forKey: "identifier") as? String,
              let url = (coder.decodeObject(forKey: "url") as? String).flatMap(URL.init(string:)),
              let type = coder.decodeObject(forKey: "type") as? String else { return nil }
        self.identifier = identifier
        self.url = url
        self.type = type
        thumbnailHidden = coder.decodeBool(forKey: "thumbnailHidden")
        super.init()
    }
}

/// The kinds of file a notification may show, each with Apple's types and largest size ("Supported File Types"
/// of `UNNotificationAttachment`).
package enum AttachmentFamily: String, Sendable, CaseIterable {
    case audio, image, movie

    /// The types Apple lists for the family (kUTTypeAudioInterchangeFileFormat, kUTTypeWaveformAudio, kUTTypeMP3,
    /// kUTTypeMPEG4Audio; kUTTypeJPEG, kUTTypeGIF, kUTTypePNG; kUTTypeMPEG, kUTTypeMPEG2Video, kUTTypeMPEG4,
    /// kUTTypeAVIMovie).
    package var types: [UTType] {
        switch self {
        case .audio: [.aiff, .wav, .mp3, .mpeg4Audio]
        case .image: [.jpeg, .gif, .png]
        case .movie: [.mpeg, .mpeg2Video, .mpeg4Movie, .avi]
        }
    }

    /// The largest file, in bytes. Apple's table says 5, 10 and 50 MB; read as millions of bytes, the smaller
    /// reading, so that a file passing here passes on a device.
    package var maximumSize: Int {
        switch self {
        case .audio: 5_000_000
        case .image: 10_000_000
        case .movie: 50_000_000
        }
    }

    /// The signatures of the family's files: what the bytes must show.
    package var signatures: Set<FileSignature> {
        switch self {
        case .audio: [.aiffAudio, .waveAudio, .mp3, .mpeg4Audio, .mpeg4Movie]
        case .image: [.jpeg, .gif, .png]
        case .movie: [.mpegVideo, .mpeg4Movie, .avi]
        }
    }

    /// The family a type belongs to, if any.
    package static func of(_ type: UTType) -> AttachmentFamily? {
        allCases.first { family in family.types.contains { type.conforms(to: $0) } }
    }
}

/// The one check of an attachment's file, made when the extension creates the attachment and again by the host
/// when it moves the file into its data store.
package enum AttachmentFile {
    /// What the check found: the attachment's type and family, and the file's size.
    package struct Checked: Sendable, Equatable {
        package var type: String
        package var family: AttachmentFamily
        package var size: Int
    }

    /// Checks the file at `url`, its type from `typeHint` if given, else from its extension.
    package static func check(_ url: URL, typeHint: String?) throws(UNError) -> Checked {
        guard url.isFileURL else { throw UNError(.attachmentInvalidURL, "\(url.absoluteString) is not a file URL") }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw UNError(.attachmentInvalidURL, "\(url.path) cannot be read (\((error as NSError).localizedDescription))")
        }
        defer { try? handle.close() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw UNError(.attachmentInvalidURL, "\(url.path) is not a file")
        }
        let size = Int((try? handle.seekToEnd()) ?? 0)
        try? handle.seek(toOffset: 0)
        let leading = (try? handle.read(upToCount: FileSignature.length)) ?? Data()
        return try check(name: url.lastPathComponent, typeHint: typeHint, size: size, leadingBytes: Array(leading))
    }

    /// Checks a file by its name, type hint, size and first bytes (`FileSignature.length` of them).
    package static func check(name: String, typeHint: String?, size: Int, leadingBytes: [UInt8]) throws(UNError) -> Checked {
        let declared: UTType
        if let typeHint {
            guard let hinted = UTType(typeHint) else {
                throw UNError(.attachmentUnrecognizedType, "\(name): the type hint \(typeHint) is no type this system knows")
            }
            declared = hinted
        } else {
            let pathExtension = (name as NSString).pathExtension
            guard !pathExtension.isEmpty, let byExtension = UTType(filenameExtension: pathExtension), byExtension.isDeclared else {
                throw UNError(.attachmentUnrecognizedType, "\(name): no type hint, and \(pathExtension.isEmpty ? "no extension" : "the extension .\(pathExtension) names no known type")")
            }
            declared = byExtension
        }
        guard let family = AttachmentFamily.of(declared) else {
            throw UNError(.attachmentUnrecognizedType, "\(name) is \(declared.identifier), not a supported image, audio or movie type")
        }
        guard size <= family.maximumSize else {
            throw UNError(.attachmentInvalidFileSize, "\(name) holds \(size) bytes; an \(family.rawValue) attachment holds at most \(family.maximumSize)")
        }
        guard let signature = FileSignature.identify(leadingBytes), family.signatures.contains(signature) else {
            let shown = FileSignature.identify(leadingBytes).map { "a \($0.typeIdentifier) file" } ?? (size == 0 ? "empty" : "no file this system recognizes")
            throw UNError(.attachmentCorrupt, "\(name) is \(declared.identifier) by its \(typeHint == nil ? "extension" : "type hint"), but its bytes are \(shown)")
        }
        let derived = family.types.contains(signature.type) ? signature.typeIdentifier : declared.identifier
        return Checked(type: derived, family: family, size: size)
    }
}
