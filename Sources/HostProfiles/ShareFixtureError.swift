public import Foundation

/// Why a share fixture cannot be read or replayed: where (the JSON path, such as
/// `$.items[0].attachments[1].representations[0].payload`) and what.
public struct ShareFixtureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: Sendable, Equatable {
        /// The fixture file cannot be read.
        case unreadableFile
        /// Not JSON, or JSON in a shape the format does not have (a missing key, a value of the wrong kind).
        case invalidJSON
        /// A value the format does not allow (an unknown fault, an empty path, a relative URL).
        case invalidValue
        /// A format this version does not read.
        case unsupportedFormat
        /// A payload that does not make what its representation needs (no object, the wrong type, not an image).
        case invalidPayload
        /// A payload's file does not exist, or is a directory where a file belongs (or the other way round).
        case noSuchFile
        /// A payload's file is one of the kernel's views of processes and devices (/proc, /sys, a block
        /// device), which no host shares.
        case notShared
    }

    public var code: Code
    /// The fixture file, when the fixture came from one.
    public var file: String?
    /// The JSON path of the problem; `$` for the whole document; empty for a problem of a shared file itself.
    public var path: String
    public var message: String

    public init(_ code: Code, file: String? = nil, path: String, message: String) {
        self.code = code
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String {
        ([file, path.isEmpty ? nil : path].compactMap { $0 } + [message]).joined(separator: ": ")
    }

    /// The error for a decoding failure, its coding path as a JSON path.
    init(_ error: DecodingError, file: String?) {
        func jsonPath(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("$") { path, key in key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)" }
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(.invalidJSON, file: file, path: jsonPath(context.codingPath), message: "missing \"\(key.stringValue)\"")
        case .typeMismatch(let type, let context):
            self.init(.invalidJSON, file: file, path: jsonPath(context.codingPath), message: "expected \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            self.init(.invalidJSON, file: file, path: jsonPath(context.codingPath), message: "expected \(Self.name(of: type)), found null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty || context.underlyingError != nil {
                self.init(.invalidJSON, file: file, path: jsonPath(context.codingPath), message: "not valid JSON")
            } else {
                self.init(.invalidValue, file: file, path: jsonPath(context.codingPath), message: Self.valueMessage(context.debugDescription))
            }
        @unknown default:
            self.init(.invalidJSON, file: file, path: "$", message: "\(error)")
        }
    }

    /// A value a field does not take, in the format's words: Swift's "Cannot initialize Provision from invalid
    /// String value x" names a type of this module's, not what to write.
    private static func valueMessage(_ description: String) -> String {
        let taken: [String: [String]] = [
            "Provision": ShareFixture.Provision.allCases.map(\.rawValue),
            "Visibility": ShareFixture.Visibility.allCases.map(\.rawValue),
        ]
        let words = description.split(separator: " ", maxSplits: 7).map(String.init)
        guard words.count == 8, words[0] == "Cannot", words[1] == "initialize", let values = taken[words[2]] else { return description }
        return "'\(words[7])' is not one of \(values.joined(separator: ", "))"
    }

    /// Where JSON that does not parse goes wrong, as a person finds it: its line and column (from 1), from the
    /// parser's character offset.
    static func syntaxMessage(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "not valid JSON"
        } catch {
            let said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            guard let range = said.range(of: "character "), let offset = Int(said[range.upperBound...].prefix { $0.isNumber }) else {
                return "not valid JSON" + (said.isEmpty ? "" : ": \(said)")
            }
            let before = data.prefix(max(0, offset))
            let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - before.startIndex + 1 } ?? 0) + 1
            let what = said.components(separatedBy: " around ").first?.lowercased() ?? "a syntax error"
            return "not valid JSON at line \(line), column \(column): \(what)"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        case is [Any].Type: "an array"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

extension ShareFixture {
    /// Why a file cannot be shared, if it cannot: a file of /proc or /sys (the kernel's views of processes and
    /// devices: /proc/self/mem names the memory of whoever reads it), or a device under /dev that is not a
    /// stream (a disk). FIFOs and character devices are streams, shared as such within the disk budget.
    public static func refusal(of url: URL) -> String? {
        let path = url.resolvingSymlinksInPath().path
        for root in ["/proc", "/sys"] where path == root || path.hasPrefix(root + "/") {
            return "\(url.path) is on \(root), which is not shared"
        }
        if path.hasPrefix("/dev/"), let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType,
           type == .typeBlockSpecial {
            return "\(url.path) is a disk, which is not shared"
        }
        return nil
    }

    /// Reads a fixture from JSON.
    ///
    /// - Throws: `ShareFixtureError` naming the JSON path of the first problem.
    public static func read(from data: Data, file: String? = nil) throws(ShareFixtureError) -> ShareFixture {
        let fixture: ShareFixture
        do {
            fixture = try JSONDecoder().decode(ShareFixture.self, from: data)
        } catch let error as DecodingError {
            var failure = ShareFixtureError(error, file: file)
            if failure.code == .invalidJSON && failure.message == "not valid JSON" { failure.message = ShareFixtureError.syntaxMessage(data) }
            throw failure
        } catch {
            throw ShareFixtureError(.invalidJSON, file: file, path: "$", message: "\(error)")
        }
        guard fixture.format == currentFormat else {
            throw ShareFixtureError(.unsupportedFormat, file: file, path: "$.format", message: "unsupported format '\(fixture.format)' (this reads \(currentFormat))")
        }
        return fixture
    }

    /// Reads a fixture file.
    public static func read(from url: URL) throws(ShareFixtureError) -> ShareFixture {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ShareFixtureError(.unreadableFile, file: url.path, path: "$", message: "cannot read the file: \(error.localizedDescription)")
        }
        return try read(from: data, file: url.path)
    }

    /// The fixture as JSON: pretty, keys sorted, so that fixtures diff well.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
