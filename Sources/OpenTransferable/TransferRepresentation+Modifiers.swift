extension TransferRepresentation {
    /// Exports this representation only for items meeting `condition`; importing is unaffected.
    ///
    /// Stands in for CoreTransferable's `TransferRepresentation.exportingCondition(_:)`.
    public func exportingCondition(_ condition: @escaping @Sendable (Self.Item) -> Bool) -> _ConditionalTransferRepresentation<Self> {
        _ConditionalTransferRepresentation(base: self, condition: condition)
    }

    /// Names the file a receiver writes this item to; of several names given, the last written (outermost) wins.
    ///
    /// Stands in for CoreTransferable's `TransferRepresentation.suggestedFileName(_:)`.
    public func suggestedFileName(_ fileName: String) -> some TransferRepresentation<Self.Item> {
        ModifiedTransferRepresentation<Item>(entries: transferEntries.map { entry in
            var entry = entry
            entry.suggestedFileName = { _ in fileName }
            return entry
        })
    }

    /// Names the file a receiver writes this item to, from the item; `nil` names none. Of several names given,
    /// the last written (outermost) wins.
    ///
    /// Stands in for CoreTransferable's `TransferRepresentation.suggestedFileName(_:)` (iOS 17).
    public func suggestedFileName(_ fileName: @escaping @Sendable (Self.Item) -> String?) -> some TransferRepresentation<Self.Item> {
        ModifiedTransferRepresentation<Item>(entries: transferEntries.map { entry in
            var entry = entry
            entry.suggestedFileName = { item in (item as? Item).flatMap(fileName) }
            return entry
        })
    }

    /// Limits who may see this representation of an item in transit.
    ///
    /// Stands in for CoreTransferable's `TransferRepresentation.visibility(_:)`.
    public func visibility(_ visibility: TransferRepresentationVisibility) -> some TransferRepresentation<Self.Item> {
        ModifiedTransferRepresentation<Item>(entries: transferEntries.map { entry in
            var entry = entry
            entry.visibility = visibility
            return entry
        })
    }
}

/// A representation exported only for items that meet a condition.
///
/// Stands in for CoreTransferable's `_ConditionalTransferRepresentation`, what `exportingCondition(_:)` returns.
public struct _ConditionalTransferRepresentation<Base>: TransferRepresentation, PrimitiveTransferRepresentation
where Base: TransferRepresentation {
    public typealias Item = Base.Item
    public typealias Body = Never
    let entries: [TransferEntry]

    init(base: Base, condition: @escaping @Sendable (Base.Item) -> Bool) {
        entries = base.transferEntries.map { entry in
            var entry = entry
            entry.conditions.append { item in (item as? Base.Item).map(condition) ?? false }
            return entry
        }
    }
}

/// A representation whose entries a modifier changed.
struct ModifiedTransferRepresentation<Item: Transferable>: TransferRepresentation, PrimitiveTransferRepresentation {
    typealias Body = Never
    let entries: [TransferEntry]
}
