public import struct Foundation.URL

/// A type of data to load, send or receive: a file format, a kind of object, a directory.
///
/// Stands in for Apple's `UTType` (UniformTypeIdentifiers, iOS 14 / macOS 11 and later) and answers as
/// macOS does: the system type table is macOS's own (see `Tools/data/`), unknown tags give dynamic
/// `dyn.a…` types, identifiers and tags are matched case-insensitively.
///
/// A type is one of three kinds:
/// - **declared**: by the system (`isSystem`) or by an app whose `UTExportedTypeDeclarations` /
///   `UTImportedTypeDeclarations` were registered with `UTType.registerDeclarations(_:)`;
/// - **dynamic**: made up for a tag that no declared type claims; its identifier encodes the tag;
/// - **undeclared**: made by `init(exportedAs:)` / `init(importedAs:)` for an identifier nobody declares,
///   conforming to the parent type given there.
public struct UTType: Sendable {
    enum Storage: Sendable {
        case system(Int32)
        case custom(CustomType)
    }

    let storage: Storage

    init(systemIndex: Int32) {
        storage = .system(systemIndex)
    }

    init(custom: CustomType) {
        storage = .custom(custom)
    }

    /// Creates the type with an identifier, if the system, a registered declaration, or a dynamic
    /// identifier's encoding knows it; `nil` otherwise. Case-insensitive: `UTType("PUBLIC.JPEG") == .jpeg`.
    ///
    /// Stands in for `UTType.init?(_:)`.
    public init?(_ identifier: String) {
        guard let type = UTType.resolve(identifier) else { return nil }
        self = type
    }

    /// Creates a type the app uses but does not own. When nobody declares `identifier`, the type is
    /// undeclared and conforms to `parentType`.
    ///
    /// Stands in for `UTType.init(importedAs:conformingTo:)`.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self = UTType.resolve(identifier) ?? UTType(custom: CustomType(undeclared: identifier, parent: parentType))
    }

    /// Creates a type the app owns. When its Info.plist declarations were not registered, the type is
    /// undeclared and conforms to `parentType`.
    ///
    /// Stands in for `UTType.init(exportedAs:conformingTo:)`.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self = UTType.resolve(identifier) ?? UTType(custom: CustomType(undeclared: identifier, parent: parentType))
    }

    static func resolve(_ identifier: String) -> UTType? {
        if let index = SystemTypeTable.index(ofIdentifier: identifier) {
            return UTType(systemIndex: index)
        }
        if let declared = TypeRegistry.shared.type(identifier: identifier) {
            return UTType(custom: declared)
        }
        if let query = DynamicTypeIdentifier.decode(identifier) {
            return UTType(custom: CustomType(dynamic: query))
        }
        return nil
    }

    /// The type's identifier, such as `public.jpeg`.
    ///
    /// Stands in for `UTType.identifier`.
    public var identifier: String {
        switch storage {
        case .system(let index): SystemTypeTable.identifiers[Int(index)]
        case .custom(let custom): custom.identifier
        }
    }

    /// A description of the type for people, such as "JPEG image"; `nil` when none is declared.
    ///
    /// Stands in for `UTType.localizedDescription` (descriptions are the English ones macOS declares).
    public var localizedDescription: String? {
        switch storage {
        case .system(let index):
            let description = SystemTypeTable.shared.descriptions[Int(index)]
            return description.isEmpty ? nil : description
        case .custom(let custom):
            return custom.typeDescription
        }
    }

    /// A document describing the type, when its declaration names one.
    ///
    /// Stands in for `UTType.referenceURL`.
    public var referenceURL: URL? {
        if case .custom(let custom) = storage { return custom.referenceURL }
        return nil
    }

    /// The type's version, when its declaration gives one (`UTTypeVersion`); most types have none.
    ///
    /// Stands in for `UTType.version`.
    public var version: Int? {
        if case .custom(let custom) = storage { return custom.version }
        return nil
    }

    /// Whether the system or an app declares the type (not dynamic, not undeclared).
    ///
    /// Stands in for `UTType.isDeclared`.
    public var isDeclared: Bool {
        switch storage {
        case .system: true
        case .custom(let custom): custom.kind == .declared
        }
    }

    /// Whether the type was made up for a tag no declared type claims (`dyn.a…`).
    ///
    /// Stands in for `UTType.isDynamic`.
    public var isDynamic: Bool {
        if case .custom(let custom) = storage { return custom.kind == .dynamic }
        return false
    }

    /// Whether the type is in the public domain: its identifier starts with `public.`. Dynamic types never are.
    ///
    /// Stands in for `UTType.isPublic`.
    public var isPublic: Bool {
        !isDynamic && identifier.utf8.count >= 7 && identifier.prefix(7).lowercased() == "public."
    }

    /// Whether the type comes from the system type table (not an app's declaration, not dynamic).
    ///
    /// An OpenSharing addition: Apple's API has no such property.
    public var isSystem: Bool {
        if case .system = storage { return true }
        return false
    }
}

// MARK: - Identity

extension UTType: Hashable {
    /// Types are equal when their identifiers are, case-insensitively.
    public static func == (lhs: UTType, rhs: UTType) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.system(let a), .system(let b)): a == b
        case (.custom(let a), .custom(let b)): a === b || a.key == b.key
        // A system identifier always resolves to its system type, so a custom type never equals one.
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .system(let index): hasher.combine(index)
        case .custom(let custom): hasher.combine(custom.key)
        }
    }
}

extension UTType: CustomStringConvertible, CustomDebugStringConvertible {
    /// The identifier, as Apple's `UTType.description` gives.
    public var description: String { identifier }

    public var debugDescription: String {
        let kind = isSystem ? "system" : isDeclared ? "declared" : isDynamic ? "dynamic" : "undeclared"
        return "\(identifier) (\(kind))"
    }
}

extension UTType: Codable {
    /// Decodes a type from its identifier. An identifier nobody declares decodes as an undeclared type,
    /// as `init(importedAs:)` makes, so that every encoded type decodes.
    public init(from decoder: any Decoder) throws {
        let identifier = try decoder.singleValueContainer().decode(String.self)
        guard !identifier.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty type identifier"))
        }
        self.init(importedAs: identifier)
    }

    /// Encodes the type as its identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
