public import Foundation
public import OpenCombine
import OpenItemProvider

/// A type that says how its values travel between apps: the representations it can be exported and imported as,
/// in order of preference.
///
/// Stands in for CoreTransferable's `Transferable`.
@preconcurrency public protocol Transferable: Sendable {
    /// The type of `transferRepresentation`.
    associatedtype Representation: TransferRepresentation

    /// How values of this type are exported and imported, most preferred first.
    @TransferRepresentationBuilder<Self> static var transferRepresentation: Representation { get }
}

/// A description of how an item is exported and imported: one of the primitive representations
/// (`DataRepresentation`, `FileRepresentation`, `ProxyRepresentation`, `CodableRepresentation`), one of them
/// modified, or several composed in a `body`.
///
/// Stands in for CoreTransferable's `TransferRepresentation`.
public protocol TransferRepresentation<Item>: Sendable {
    /// The type of the item that travels.
    associatedtype Item: Transferable
    /// The type of `body`.
    associatedtype Body: TransferRepresentation

    /// The representations this one is made of, most preferred first.
    @TransferRepresentationBuilder<Item> var body: Body { get }
}

/// Composes representations written one after another into one, keeping their order.
///
/// Stands in for CoreTransferable's `TransferRepresentationBuilder`.
@resultBuilder
public struct TransferRepresentationBuilder<Item> where Item: Transferable {
    /// Passes one representation through unchanged.
    public static func buildBlock<Content>(_ content: Content) -> Content
    where Item == Content.Item, Content: TransferRepresentation {
        content
    }

    /// Composes 2 representations in the order written.
    public static func buildBlock<C1, C2>(_ content1: C1, _ content2: C2) -> TupleTransferRepresentation<Item, (C1, C2)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C1.Item == C2.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries)
    }

    /// Composes 3 representations in the order written.
    public static func buildBlock<C1, C2, C3>(_ content1: C1, _ content2: C2, _ content3: C3) -> TupleTransferRepresentation<Item, (C1, C2, C3)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries + content3.transferEntries)
    }

    /// Composes 4 representations in the order written.
    public static func buildBlock<C1, C2, C3, C4>(_ content1: C1, _ content2: C2, _ content3: C3, _ content4: C4) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation, C4: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries + content3.transferEntries + content4.transferEntries)
    }

    /// Composes 5 representations in the order written.
    public static func buildBlock<C1, C2, C3, C4, C5>(_ content1: C1, _ content2: C2, _ content3: C3, _ content4: C4, _ content5: C5) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation, C4: TransferRepresentation, C5: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries + content3.transferEntries + content4.transferEntries + content5.transferEntries)
    }

    /// Composes 6 representations in the order written.
    public static func buildBlock<C1, C2, C3, C4, C5, C6>(_ content1: C1, _ content2: C2, _ content3: C3, _ content4: C4, _ content5: C5, _ content6: C6) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation, C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item, C5.Item == C6.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries + content3.transferEntries + content4.transferEntries + content5.transferEntries + content6.transferEntries)
    }

    /// Composes 7 representations in the order written.
    public static func buildBlock<C1, C2, C3, C4, C5, C6, C7>(_ content1: C1, _ content2: C2, _ content3: C3, _ content4: C4, _ content5: C5, _ content6: C6, _ content7: C7) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6, C7)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation, C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation, C7: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item, C5.Item == C6.Item, C6.Item == C7.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries + content3.transferEntries + content4.transferEntries + content5.transferEntries + content6.transferEntries + content7.transferEntries)
    }

    /// Composes 8 representations in the order written.
    public static func buildBlock<C1, C2, C3, C4, C5, C6, C7, C8>(_ content1: C1, _ content2: C2, _ content3: C3, _ content4: C4, _ content5: C5, _ content6: C6, _ content7: C7, _ content8: C8) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6, C7, C8)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation, C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation, C7: TransferRepresentation, C8: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item, C5.Item == C6.Item, C6.Item == C7.Item, C7.Item == C8.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries + content3.transferEntries + content4.transferEntries + content5.transferEntries + content6.transferEntries + content7.transferEntries + content8.transferEntries)
    }

    /// Composes 9 representations in the order written.
    public static func buildBlock<C1, C2, C3, C4, C5, C6, C7, C8, C9>(_ content1: C1, _ content2: C2, _ content3: C3, _ content4: C4, _ content5: C5, _ content6: C6, _ content7: C7, _ content8: C8, _ content9: C9) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6, C7, C8, C9)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation, C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation, C7: TransferRepresentation, C8: TransferRepresentation, C9: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item, C5.Item == C6.Item, C6.Item == C7.Item, C7.Item == C8.Item, C8.Item == C9.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries + content3.transferEntries + content4.transferEntries + content5.transferEntries + content6.transferEntries + content7.transferEntries + content8.transferEntries + content9.transferEntries)
    }

    /// Composes 10 representations in the order written.
    public static func buildBlock<C1, C2, C3, C4, C5, C6, C7, C8, C9, C10>(_ content1: C1, _ content2: C2, _ content3: C3, _ content4: C4, _ content5: C5, _ content6: C6, _ content7: C7, _ content8: C8, _ content9: C9, _ content10: C10) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6, C7, C8, C9, C10)>
    where Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation, C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation, C7: TransferRepresentation, C8: TransferRepresentation, C9: TransferRepresentation, C10: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item, C5.Item == C6.Item, C6.Item == C7.Item, C7.Item == C8.Item, C8.Item == C9.Item, C9.Item == C10.Item {
        TupleTransferRepresentation(entries: content1.transferEntries + content2.transferEntries + content3.transferEntries + content4.transferEntries + content5.transferEntries + content6.transferEntries + content7.transferEntries + content8.transferEntries + content9.transferEntries + content10.transferEntries)
    }

    /// Builds a representation from an expression.
    public static func buildExpression<R>(_ content: R) -> R where Item == R.Item, R: TransferRepresentation {
        content
    }

    /// Builds a codable representation from an expression.
    public static func buildExpression<Encoder, Decoder>(_ content: CodableRepresentation<Item, Encoder, Decoder>)
        -> CodableRepresentation<Item, Encoder, Decoder>
    where Item: Decodable, Item: Encodable, Encoder: TopLevelEncoder, Decoder: TopLevelDecoder,
          Encoder.Output == Data, Decoder.Input == Data {
        content
    }
}

/// Representations composed in a builder, in their order.
///
/// Stands in for CoreTransferable's `TupleTransferRepresentation`.
public struct TupleTransferRepresentation<Item, Value>: TransferRepresentation, PrimitiveTransferRepresentation
where Item: Transferable, Value: Sendable {
    public typealias Body = Never
    let entries: [TransferEntry]

    init(entries: [TransferEntry]) {
        self.entries = entries
    }
}

/// Who may see a representation of an item in transit.
///
/// Stands in for CoreTransferable's `TransferRepresentationVisibility`.
public struct TransferRepresentationVisibility: Sendable, Hashable {
    let level: NSItemProviderRepresentationVisibility

    /// Any app or process.
    public static let all = TransferRepresentationVisibility(level: .all)
    /// Only apps of the source app's development team.
    public static let team = TransferRepresentationVisibility(level: .team)
    /// Only apps in the source app's App Group.
    public static let group = TransferRepresentationVisibility(level: .group)
    /// Only the source app itself.
    public static let ownProcess = TransferRepresentationVisibility(level: .ownProcess)
}

extension TransferRepresentation where Body == Never {
    /// A primitive representation has no body: what it does is its own.
    public var body: Never {
        fatalError("\(Self.self) is a primitive transfer representation and has no body")
    }
}

extension Never: TransferRepresentation {
    public typealias Item = Never
    public typealias Body = Never

    public var body: Never {
        fatalError("Never has no body")
    }
}

extension Never: Transferable {
    public static var transferRepresentation: Never {
        fatalError("Never has no transfer representation")
    }
}
