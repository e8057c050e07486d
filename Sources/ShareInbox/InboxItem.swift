public import Foundation
import SharingFiles

/// A delivered item: its directory, holding `manifest.json`, `payload/` and, when there are previews, `previews/`.
public struct InboxItem: Sendable, Equatable {
    public enum State: String, Sendable, Codable {
        /// In `new/`, waiting to be claimed.
        case pending
        /// In `cur/`, claimed by a reader.
        case claimed
    }

    public let id: String
    public let state: State
    /// The item's directory.
    public let url: URL
    public let manifest: InboxManifest

    /// The payload: a file, or the root of a directory tree.
    public var payloadURL: URL { url.appendingPathComponent("payload").appendingPathComponent(manifest.name) }

    /// The URL of one of the manifest's previews.
    public func previewURL(_ preview: InboxManifest.Preview) -> URL {
        url.appendingPathComponent("previews").appendingPathComponent(preview.name)
    }

    /// Most bytes a manifest may have: it holds metadata and the shared text, never the payload.
    static let maximumManifestSize = 4 << 20

    init(id: String, state: State, url: URL, manifest: InboxManifest) {
        self.id = id
        self.state = state
        self.url = url
        self.manifest = manifest
    }

    init(directory: String, state: State) throws(FileSystemError) {
        let path = directory + "/manifest.json"
        let data = try FileReader.readAll(path) { $0 <= Self.maximumManifestSize }
        let manifest: InboxManifest
        do {
            manifest = try InboxManifest.decoder.decode(InboxManifest.self, from: data)
        } catch {
            throw FileSystemError(.wrongKind, operation: "read", path: path, detail: "not an inbox manifest: \(error)")
        }
        self.id = (directory as NSString).lastPathComponent
        self.state = state
        self.url = URL(fileURLWithPath: directory, isDirectory: true)
        self.manifest = manifest
    }

    /// Whether the payload on disk is what the manifest says: its size and its SHA-256.
    public func verify() throws(InboxError) -> Bool {
        let path = payloadURL.path
        return try InboxError.wrap { () throws -> Bool in
            switch manifest.kind {
            case .file:
                guard let status = try Syscall.linkStatus(path), Syscall.isRegularFile(status), Int64(status.st_size) == manifest.size
                else { return false }
                return try SHA256Hasher.hash(fileAt: path) == manifest.sha256
            case .directory:
                guard let status = try Syscall.linkStatus(path), Syscall.isDirectory(status) else { return false }
                guard TreeCopier.size(of: path) == manifest.size else { return false }
                return try SHA256Hasher.hash(treeAt: path) == manifest.sha256
            }
        }
    }
}

extension InboxManifest {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InternetTime.string(from: date))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = InternetTime.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a time as YYYY-MM-DDThh:mm:ss.sssZ: \(text)")
            }
            return date
        }
        return decoder
    }()
}

/// Times as RFC 3339 UTC with milliseconds (`2026-11-22T05:39:29.123Z`), written and read without Foundation's
/// date formatting, which loads ICU's calendars (3 MB of an extension's memory).
enum InternetTime {
    static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let fraction = Int((milliseconds % 1000 + 1000) % 1000)
        var seconds = time_t((milliseconds - Int64(fraction)) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milli = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(milli)Z"
    }

    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), let millis = number(20..<23),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return milliseconds(Int64(timegm(&parts)) * 1000 + Int64(millis))
    }

    /// The time this many milliseconds after 1970, as `date(from:)` reads it back.
    static func milliseconds(_ count: Int64) -> Date {
        Date(timeIntervalSince1970: Double(count) / 1000)
    }

    /// Now, to the millisecond, so that what is written is what is read.
    static func now() -> Date {
        milliseconds(Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
