public import Foundation
public import OpenCombine
import FoundationPublishers
public import OpenUniformTypeIdentifiers

/// An item that travels as its `Codable` encoding: JSON unless another coder is given.
///
/// Stands in for CoreTransferable's `CodableRepresentation`.
@preconcurrency
public struct CodableRepresentation<Item, Encoder, Decoder>: TransferRepresentation, PrimitiveTransferRepresentation
where Item: Transferable, Item: Decodable, Item: Encodable, Encoder: TopLevelEncoder, Encoder: Sendable,
      Decoder: TopLevelDecoder, Decoder: Sendable, Encoder.Output == Data, Decoder.Input == Data {
    public typealias Body = Never
    let entries: [TransferEntry]

    /// Exports and imports the item as `contentType`, encoded with `encoder` and decoded with `decoder`.
    public init(for itemType: Item.Type = Item.self, contentType: UTType, encoder: Encoder, decoder: Decoder) {
        var entry = TransferEntry(form: .data, exportedContentType: contentType, importedContentType: contentType)
        entry.exporter = { item in ExportedPayload.data(try encoder.encode(try cast(item, to: Item.self))) }
        entry.importer = { (payload: ImportedPayload) async throws -> any Sendable in
            switch payload {
            case .data(let data): return try decoder.decode(Item.self, from: data)
            case .file(let file): return try decoder.decode(Item.self, from: try Data(contentsOf: file.file))
            }
        }
        entries = [entry]
    }

    /// Exports and imports the item as `contentType`, in JSON.
    public init(for itemType: Item.Type = Item.self, contentType: UTType) where Encoder == JSONEncoder, Decoder == JSONDecoder {
        self.init(for: itemType, contentType: contentType, encoder: JSONEncoder(), decoder: JSONDecoder())
    }
}
