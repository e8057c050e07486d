/// An item that travels as another `Transferable` type does: a note as its text, a bookmark as its URL.
///
/// Stands in for CoreTransferable's `ProxyRepresentation`. The proxy's own representations, in their order, are
/// this one's; a proxy may itself be proxied.
public struct ProxyRepresentation<Item, ProxyRepresentation>: TransferRepresentation, PrimitiveTransferRepresentation
where Item: Transferable, ProxyRepresentation: Transferable {
    public typealias Body = Never
    let entries: [TransferEntry]

    /// Exports and imports the item through its proxy.
    public init(exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation,
                importing: @escaping @Sendable (ProxyRepresentation) throws -> Item) {
        entries = Self.entries(exporting: Export(exporting), importing: { try importing($0) })
    }

    /// Exports the item through its proxy; never imports.
    public init(exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation) {
        entries = Self.entries(exporting: Export(exporting), importing: nil)
    }

    /// Imports the item from its proxy; never exports.
    public init(importing: @escaping @Sendable (ProxyRepresentation) throws -> Item) {
        entries = Self.entries(exporting: nil, importing: { try importing($0) })
    }

    /// Exports and imports the item through its proxy, converting asynchronously.
    @available(*, deprecated, message: "Use init(exporting:importing:) with synchronous closures")
    public init(exporting: @escaping @Sendable (Item) async throws -> ProxyRepresentation,
                importing: @escaping @Sendable (ProxyRepresentation) async throws -> Item) {
        entries = Self.entries(exporting: Export(exporting), importing: importing)
    }

    /// Exports the item through its proxy, converting asynchronously; never imports.
    @available(*, deprecated, message: "Use init(exporting:) with a synchronous closure")
    public init(exporting: @escaping @Sendable (Item) async throws -> ProxyRepresentation) {
        entries = Self.entries(exporting: Export(exporting), importing: nil)
    }

    /// How an item becomes its proxy; a synchronous conversion can also be asked while listing what the item
    /// exports, so the proxy's own exporting conditions and suggested names apply.
    private struct Export: Sendable {
        let now: (@Sendable (Item) throws -> ProxyRepresentation)?
        let later: @Sendable (Item) async throws -> ProxyRepresentation

        init(_ convert: @escaping @Sendable (Item) throws -> ProxyRepresentation) {
            now = convert
            later = { try convert($0) }
        }

        init(_ convert: @escaping @Sendable (Item) async throws -> ProxyRepresentation) {
            now = nil
            later = convert
        }
    }

    private static func entries(exporting: Export?,
                                importing: (@Sendable (ProxyRepresentation) async throws -> Item)?) -> [TransferEntry] {
        ProxyRepresentation.transferEntries.compactMap { inner in
            var entry = inner
            entry.exportedContentType = exporting == nil ? nil : inner.exportedContentType
            entry.importedContentType = importing == nil ? nil : inner.importedContentType
            entry.exporter = nil
            entry.importer = nil
            entry.conditions = []
            entry.suggestedFileName = nil
            if let exporting, let innerExporter = inner.exporter {
                entry.exporter = { item in
                    let proxy = try await exporting.later(try cast(item, to: Item.self))
                    guard inner.conditions.allSatisfy({ $0(proxy) }) else {
                        throw TransferFailure.noRepresentation(Item.self, exporting: true, contentType: inner.exportedContentType, offered: [])
                    }
                    return try await innerExporter(proxy)
                }
                if let now = exporting.now {
                    if !inner.conditions.isEmpty {
                        entry.conditions = [{ item in
                            guard let item = item as? Item, let proxy = try? now(item) else { return false }
                            return inner.conditions.allSatisfy { $0(proxy) }
                        }]
                    }
                    if let innerName = inner.suggestedFileName {
                        entry.suggestedFileName = { item in
                            guard let item = item as? Item, let proxy = try? now(item) else { return nil }
                            return innerName(proxy)
                        }
                    }
                }
            }
            if let importing, let innerImporter = inner.importer {
                entry.importer = { payload in
                    try await importing(try cast(try await innerImporter(payload), to: ProxyRepresentation.self))
                }
            }
            return entry.exporter == nil && entry.importer == nil ? nil : entry
        }
    }
}
