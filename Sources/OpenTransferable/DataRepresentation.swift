public import Foundation
public import OpenUniformTypeIdentifiers

/// An item that travels as bytes it makes and reads itself.
///
/// Stands in for CoreTransferable's `DataRepresentation`.
public struct DataRepresentation<Item>: TransferRepresentation, PrimitiveTransferRepresentation where Item: Transferable {
    public typealias Body = Never
    let entries: [TransferEntry]

    /// Exports and imports the item as `contentType`.
    public init(contentType: UTType, exporting: @escaping @Sendable (Item) async throws -> Data,
                importing: @escaping @Sendable (Data) async throws -> Item) {
        entries = [Self.entry(exported: contentType, imported: contentType, exporting: exporting, importing: importing)]
    }

    /// Exports the item as `exportedContentType`; never imports.
    public init(exportedContentType: UTType, exporting: @escaping @Sendable (Item) async throws -> Data) {
        entries = [Self.entry(exported: exportedContentType, imported: nil, exporting: exporting, importing: nil)]
    }

    /// Imports the item from `importedContentType`; never exports.
    public init(importedContentType: UTType, importing: @escaping @Sendable (Data) async throws -> Item) {
        entries = [Self.entry(exported: nil, imported: importedContentType, exporting: nil, importing: importing)]
    }

    private static func entry(exported: UTType?, imported: UTType?, exporting: (@Sendable (Item) async throws -> Data)?,
                              importing: (@Sendable (Data) async throws -> Item)?) -> TransferEntry {
        var entry = TransferEntry(form: .data, exportedContentType: exported, importedContentType: imported)
        if let exporting {
            entry.exporter = { item in ExportedPayload.data(try await exporting(try cast(item, to: Item.self))) }
        }
        if let importing {
            entry.importer = { (payload: ImportedPayload) async throws -> any Sendable in
                switch payload {
                case .data(let data): return try await importing(data)
                case .file(let file): return try await importing(try Data(contentsOf: file.file))
                }
            }
        }
        return entry
    }
}
