public import SharingShim

/// What a host shares, as an activation rule sees it: for each extension item, for each attachment, the
/// type identifiers the consumer can see, in registration order.
///
/// The object a predicate is evaluated over is Apple's: `{extensionItems: [{attachments:
/// [{registeredTypeIdentifiers: [...]}]}]}`.
public struct ActivationInput: Sendable, Equatable {
    public var items: [[[String]]]

    public init(items: [[[String]]]) {
        self.items = items
    }

    /// The input a share makes, read from its items' providers.
    public init(_ extensionItems: [NSExtensionItem]) {
        items = extensionItems.map { item in (item.attachments ?? []).map(\.registeredTypeIdentifiers) }
    }

    var attachmentCount: Int { items.reduce(0) { $0 + $1.count } }

    /// Every attachment, labelled the way explanations name it: `item 1, attachment 2 (public.url)`.
    var attachments: [(label: String, types: [String])] {
        items.enumerated().flatMap { itemIndex, attachments in
            attachments.enumerated().map { index, types in
                ("item \(itemIndex + 1), attachment \(index + 1) (\(types.isEmpty ? "no types" : types.joined(separator: ", ")))", types)
            }
        }
    }

    var predicateValue: PredicateValue {
        var labelled = attachments[...]
        return .object(label: "the share", fields: ["extensionItems": .array(items.enumerated().map { itemIndex, attachments in
            .object(label: "item \(itemIndex + 1)", fields: ["attachments": .array(attachments.map { _ in
                let (label, types) = labelled.removeFirst()
                return .object(label: label, fields: ["registeredTypeIdentifiers": .array(types.map(PredicateValue.string))])
            })])
        })])
    }
}
