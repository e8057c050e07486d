public import Foundation

/// Who may see a representation. Stands in for `NSItemProviderRepresentationVisibility`.
public enum NSItemProviderRepresentationVisibility: Int, Sendable {
    /// Every process.
    case all = 0
    /// Processes of apps from the same development team (Apple: iOS).
    case team = 1
    /// Processes of apps sharing an app group (Apple: macOS).
    case group = 2
    /// Only the process that registered it.
    case ownProcess = 3
}

/// How a file representation may be consumed. Stands in for `NSItemProviderFileOptions`.
public struct NSItemProviderFileOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The file may be opened where it is, not copied.
    public static let openInPlace = NSItemProviderFileOptions(rawValue: 1)
}

/// A class whose instances an item provider can offer as data of some types.
/// Stands in for Foundation's `NSItemProviderWriting`.
public protocol NSItemProviderWriting: NSObjectProtocol {
    /// The types an instance can be written as, highest fidelity first.
    static var writableTypeIdentifiersForItemProvider: [String] { get }
    /// The types this instance can be written as; defaults to the class's.
    var writableTypeIdentifiersForItemProvider: [String] { get }
    /// Who may see the representation of a type; defaults to `.all`.
    static func itemProviderVisibilityForRepresentation(withTypeIdentifier typeIdentifier: String) -> NSItemProviderRepresentationVisibility
    /// Who may see this instance's representation of a type; defaults to the class's answer.
    func itemProviderVisibilityForRepresentation(withTypeIdentifier typeIdentifier: String) -> NSItemProviderRepresentationVisibility
    /// Writes the instance as data of a type, calling `completionHandler` once.
    func loadData(withTypeIdentifier typeIdentifier: String,
                  forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
}

extension NSItemProviderWriting {
    public var writableTypeIdentifiersForItemProvider: [String] { Self.writableTypeIdentifiersForItemProvider }

    public static func itemProviderVisibilityForRepresentation(withTypeIdentifier typeIdentifier: String) -> NSItemProviderRepresentationVisibility {
        .all
    }

    public func itemProviderVisibilityForRepresentation(withTypeIdentifier typeIdentifier: String) -> NSItemProviderRepresentationVisibility {
        Self.itemProviderVisibilityForRepresentation(withTypeIdentifier: typeIdentifier)
    }
}

/// A class whose instances can be made from data an item provider loads.
/// Stands in for Foundation's `NSItemProviderReading`.
public protocol NSItemProviderReading: NSObjectProtocol {
    /// The types an instance can be read from, preferred first.
    static var readableTypeIdentifiersForItemProvider: [String] { get }
    /// Makes an instance from data of one of the readable types.
    static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self
}
