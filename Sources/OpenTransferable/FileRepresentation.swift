public import Foundation
public import OpenUniformTypeIdentifiers

/// An item that travels as a file on disk, for content too large to hold in memory.
///
/// Stands in for CoreTransferable's `FileRepresentation`.
public struct FileRepresentation<Item>: TransferRepresentation, PrimitiveTransferRepresentation where Item: Transferable {
    public typealias Body = Never
    let entries: [TransferEntry]

    /// Exports and imports the item as a file of `contentType`; `shouldAttemptToOpenInPlace` both lets a receiver
    /// open the sent file in place and asks for the original when importing.
    public init(contentType: UTType, shouldAttemptToOpenInPlace: Bool = false,
                exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile,
                importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item) {
        var entry = Self.entry(exported: contentType, imported: contentType, exporting: exporting, importing: importing)
        entry.allowsOpeningInPlace = shouldAttemptToOpenInPlace
        entry.attemptsOpeningInPlace = shouldAttemptToOpenInPlace
        entries = [entry]
    }

    /// Exports the item as a file of `exportedContentType`, which a receiver may open in place when
    /// `shouldAllowToOpenInPlace` (and the sent file allows it); never imports.
    public init(exportedContentType: UTType, shouldAllowToOpenInPlace: Bool = false,
                exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile) {
        var entry = Self.entry(exported: exportedContentType, imported: nil, exporting: exporting, importing: nil)
        entry.allowsOpeningInPlace = shouldAllowToOpenInPlace
        entries = [entry]
    }

    /// Imports the item from a file of `importedContentType`, asking for the original when
    /// `shouldAttemptToOpenInPlace`; never exports.
    public init(importedContentType: UTType, shouldAttemptToOpenInPlace: Bool = false,
                importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item) {
        var entry = Self.entry(exported: nil, imported: importedContentType, exporting: nil, importing: importing)
        entry.attemptsOpeningInPlace = shouldAttemptToOpenInPlace
        entries = [entry]
    }

    private static func entry(exported: UTType?, imported: UTType?,
                              exporting: (@Sendable (Item) async throws -> SentTransferredFile)?,
                              importing: (@Sendable (ReceivedTransferredFile) async throws -> Item)?) -> TransferEntry {
        var entry = TransferEntry(form: .file, exportedContentType: exported, importedContentType: imported)
        if let exporting {
            entry.exporter = { item in ExportedPayload.file(try await exporting(try cast(item, to: Item.self))) }
        }
        if let importing {
            entry.importer = { (payload: ImportedPayload) async throws -> any Sendable in
                switch payload {
                case .file(let file): return try await importing(file)
                case .data(let data): return try await ReceivedTransferredFile.withKept({ try KeptFile(holding: data, type: imported) }, importing)
                }
            }
        }
        return entry
    }
}

/// A file as its sender describes it.
///
/// Stands in for CoreTransferable's `SentTransferredFile`.
public struct SentTransferredFile: Sendable {
    /// Where the file is.
    public let file: URL
    /// Whether a receiver may read and write the original; when `false` it is given a copy.
    public let allowAccessingOriginalFile: Bool

    /// Describes `file`, which a receiver may open in place only when `allowAccessingOriginalFile`.
    public init(_ file: URL, allowAccessingOriginalFile: Bool = false) {
        self.file = file
        self.allowAccessingOriginalFile = allowAccessingOriginalFile
    }
}

/// A file as its receiver gets it: the original, or a copy that exists only while the importing closure runs.
///
/// Stands in for CoreTransferable's `ReceivedTransferredFile`.
public struct ReceivedTransferredFile: Sendable {
    /// The file on disk.
    public let file: URL
    /// Whether `file` is the sender's original rather than a copy.
    public let isOriginalFile: Bool

    init(file: URL, isOriginalFile: Bool) {
        self.file = file
        self.isOriginalFile = isOriginalFile
    }

    /// Runs `importing` on a file of its own that `make` places (bytes written for an importer that wants a file, a
    /// copy of a file not to be opened in place), removed afterwards.
    static func withKept<Result: Sendable>(_ make: () throws -> KeptFile,
                                           _ importing: (ReceivedTransferredFile) async throws -> Result) async throws -> Result {
        let kept = try make()
        defer { kept.remove() }
        return try await importing(ReceivedTransferredFile(file: kept.url, isOriginalFile: false))
    }
}
