import Foundation
import OpenItemProvider
import OpenUniformTypeIdentifiers
import PackageSupport

/// What an exporter hands over: bytes, or a file with whether the receiver may have the original.
enum ExportedPayload: Sendable {
    case data(Data)
    case file(SentTransferredFile)
}

/// What an importer is given: bytes, or a file on disk.
enum ImportedPayload: Sendable {
    case data(Data)
    case file(ReceivedTransferredFile)
}

/// One way a value travels, what every representation tree flattens to, in order of preference.
///
/// Items are held as `any Sendable` so that a proxy's entries (about the proxy type) and the entries of the
/// type it stands for live in one list; each closure casts back to the type it was written for.
struct TransferEntry: Sendable {
    enum Form: Sendable { case data, file }

    var form: Form
    /// The type exported as; `nil` for a representation that only imports.
    var exportedContentType: UTType?
    /// The type imported from; `nil` for a representation that only exports.
    var importedContentType: UTType?
    var exporter: (@Sendable (any Sendable) async throws -> ExportedPayload)? = nil
    var importer: (@Sendable (ImportedPayload) async throws -> any Sendable)? = nil
    /// The sender lets a receiver open the file in place (`shouldAllowToOpenInPlace`).
    var allowsOpeningInPlace = false
    /// The receiver asks to open the file in place (`shouldAttemptToOpenInPlace`).
    var attemptsOpeningInPlace = false
    var visibility = TransferRepresentationVisibility.all
    /// Whether this item may be exported this way (`exportingCondition`); every condition written must hold.
    var conditions: [@Sendable (any Sendable) -> Bool] = []
    /// The name a receiver writing the item to disk should give it (`suggestedFileName`); the last written wins.
    var suggestedFileName: (@Sendable (any Sendable) -> String?)?

    func exports(_ item: any Sendable) -> Bool {
        exporter != nil && exportedContentType != nil && conditions.allSatisfy { $0(item) }
    }
}

/// A representation that is a list of entries itself rather than a `body` of others.
protocol PrimitiveTransferRepresentation {
    var entries: [TransferEntry] { get }
}

extension TransferRepresentation {
    /// This representation's entries, most preferred first: its own if it is primitive, else its body's.
    var transferEntries: [TransferEntry] {
        if let primitive = self as? any PrimitiveTransferRepresentation { return primitive.entries }
        return body.transferEntries
    }
}

extension Transferable {
    /// The type's entries, flattened from `transferRepresentation` once per type: a type's representations
    /// describe the type, not a value, so each export and import after the first chooses from the same list.
    static var transferEntries: [TransferEntry] {
        let key = ObjectIdentifier(Self.self)
        if let entries = flattened.withLock({ $0[key] }) { return entries }
        let entries = transferRepresentation.transferEntries
        flattened.withLock { $0[key] = entries }
        return entries
    }
}

/// Each `Transferable` type's entries, once flattened.
private let flattened = Locked<[ObjectIdentifier: [TransferEntry]]>([:])

/// The error CoreTransferable's operations throw here, naming what was asked and what the type offers.
///
/// Apple documents no error type for these; an `NSError` in `NSItemProviderErrorDomain` is what a caller of the
/// item-provider bridges handles already.
enum TransferFailure {
    static func noRepresentation(_ type: Any.Type, exporting: Bool, contentType: UTType?, offered: [UTType]) -> NSError {
        let direction = exporting ? "export" : "import"
        let wanted = contentType.map { " as \($0.identifier)" } ?? ""
        let list = offered.isEmpty ? "none" : offered.map(\.identifier).joined(separator: ", ")
        return NSError(domain: NSItemProviderErrorDomain, code: NSItemProvider.ErrorCode.itemUnavailableError.rawValue, userInfo: [
            NSLocalizedDescriptionKey:
                "\(type) has no transfer representation to \(direction)\(wanted) (it \(direction)s: \(list)); "
                + "add one to its transferRepresentation or ask for one of those types",
        ])
    }

    static func wrongItem(_ item: Any, expected: Any.Type) -> NSError {
        NSError(domain: NSItemProviderErrorDomain, code: NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue, userInfo: [
            NSLocalizedDescriptionKey: "a transfer representation of \(expected) was given a \(type(of: item))",
        ])
    }
}

/// Casts an item back to the type a representation was written for.
func cast<Item>(_ item: any Sendable, to: Item.Type) throws -> Item {
    guard let item = item as? Item else { throw TransferFailure.wrongItem(item, expected: Item.self) }
    return item
}
