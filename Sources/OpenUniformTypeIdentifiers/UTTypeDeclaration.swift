public import struct Foundation.Data
public import struct Foundation.URL
import PropertyLists

/// One type an app declares in its Info.plist (`UTExportedTypeDeclarations` or `UTImportedTypeDeclarations`).
///
/// An OpenSharing addition: on Apple platforms the system reads these declarations itself. Here an app (or a
/// test) reads them with `declarations(inInfoPlist:)` and hands them to `UTType.registerDeclarations(_:)`.
public struct UTTypeDeclaration: Sendable, Hashable {
    /// `UTTypeIdentifier`.
    public var identifier: String
    /// `UTTypeConformsTo`, in order.
    public var conformsTo: [String]
    /// `UTTypeTagSpecification`: tags by class, each list in order of preference.
    public var tags: [UTTagClass: [String]]
    /// `UTTypeDescription`.
    public var description: String?
    /// `UTTypeReferenceURL`.
    public var referenceURL: URL?
    /// `UTTypeVersion` (`kUTTypeVersionKey`), an integer or a string holding one.
    public var version: Int?
    /// Whether the app exports (owns) the type rather than imports it.
    public var isExported: Bool

    public init(identifier: String, conformsTo: [String] = [], tags: [UTTagClass: [String]] = [:],
                description: String? = nil, referenceURL: URL? = nil, version: Int? = nil, isExported: Bool) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.tags = tags
        self.description = description
        self.referenceURL = referenceURL
        self.version = version
        self.isExported = isExported
    }

    /// Reads the type declarations of an Info.plist, XML or binary.
    ///
    /// - Parameter data: the Info.plist's bytes.
    /// - Returns: the exported declarations, then the imported ones, each in document order.
    /// - Throws: `UTTypeDeclarationError` naming the key path (`UTExportedTypeDeclarations[1].UTTypeIdentifier`)
    ///   and the position of what is wrong.
    public static func declarations(inInfoPlist data: Data) throws(UTTypeDeclarationError) -> [UTTypeDeclaration] {
        let root: PropertyListNode
        do {
            root = try PropertyList.read(data)
        } catch {
            throw UTTypeDeclarationError(code: .notAPropertyList, keyPath: "", message: "not a property list: \(error.message)", position: error.location?.description)
        }
        guard let dictionary = root.dictionary else {
            throw UTTypeDeclarationError(code: .wrongKind, keyPath: "", message: "the Info.plist's root is a \(root.kindName), not a dict", position: root.location.description)
        }
        var declarations: [UTTypeDeclaration] = []
        for (key, exported) in [("UTExportedTypeDeclarations", true), ("UTImportedTypeDeclarations", false)] {
            guard let list = dictionary[key] else { continue }
            guard let entries = list.array else {
                throw UTTypeDeclarationError(code: .wrongKind, keyPath: key, message: "is a \(list.kindName), not an array", position: list.location.description)
            }
            for (index, entry) in entries.enumerated() {
                declarations.append(try declaration(entry, keyPath: "\(key)[\(index)]", isExported: exported))
            }
        }
        return declarations
    }

    private static func declaration(_ node: PropertyListNode, keyPath: String, isExported: Bool) throws(UTTypeDeclarationError) -> UTTypeDeclaration {
        guard let entry = node.dictionary else {
            throw UTTypeDeclarationError(code: .wrongKind, keyPath: keyPath, message: "is a \(node.kindName), not a dict", position: node.location.description)
        }
        guard let identifierNode = entry["UTTypeIdentifier"] else {
            throw UTTypeDeclarationError(code: .missingIdentifier, keyPath: keyPath, message: "has no UTTypeIdentifier", position: node.location.description)
        }
        let identifier = try string(identifierNode, keyPath: keyPath + ".UTTypeIdentifier")
        guard !identifier.isEmpty, !identifier.contains(where: \.isWhitespace) else {
            throw UTTypeDeclarationError(code: .invalidIdentifier, keyPath: keyPath + ".UTTypeIdentifier", message: "'\(identifier)' is not a type identifier", position: identifierNode.location.description)
        }
        guard !identifier.lowercased().hasPrefix("dyn.") else {
            throw UTTypeDeclarationError(code: .invalidIdentifier, keyPath: keyPath + ".UTTypeIdentifier", message: "dynamic identifiers (dyn.…) cannot be declared", position: identifierNode.location.description)
        }
        var declaration = UTTypeDeclaration(identifier: identifier, isExported: isExported)
        if let conformsTo = entry["UTTypeConformsTo"] {
            declaration.conformsTo = try strings(conformsTo, keyPath: keyPath + ".UTTypeConformsTo")
        }
        if let description = entry["UTTypeDescription"] {
            declaration.description = try string(description, keyPath: keyPath + ".UTTypeDescription")
        }
        if let reference = entry["UTTypeReferenceURL"] {
            declaration.referenceURL = URL(string: try string(reference, keyPath: keyPath + ".UTTypeReferenceURL"))
        }
        if let version = entry["UTTypeVersion"] {
            guard let number = version.integer.map(Int.init) ?? version.string.flatMap({ Int($0) }) else {
                throw UTTypeDeclarationError(code: .wrongKind, keyPath: keyPath + ".UTTypeVersion", message: "is not an integer", position: version.location.description)
            }
            declaration.version = number
        }
        if let specification = entry["UTTypeTagSpecification"] {
            guard let classes = specification.dictionary else {
                throw UTTypeDeclarationError(code: .wrongKind, keyPath: keyPath + ".UTTypeTagSpecification", message: "is a \(specification.kindName), not a dict", position: specification.location.description)
            }
            for tagClass in classes.entries {
                let values = try strings(tagClass.value, keyPath: keyPath + ".UTTypeTagSpecification." + tagClass.key)
                let cleaned = values.map { tagClass.key == UTTagClass.filenameExtension.rawValue && $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
                declaration.tags[UTTagClass(rawValue: tagClass.key), default: []].append(contentsOf: cleaned.filter { !$0.isEmpty })
            }
        }
        return declaration
    }

    private static func string(_ node: PropertyListNode, keyPath: String) throws(UTTypeDeclarationError) -> String {
        guard let value = node.string else {
            throw UTTypeDeclarationError(code: .wrongKind, keyPath: keyPath, message: "is a \(node.kindName), not a string", position: node.location.description)
        }
        return value
    }

    /// A string or an array of strings, as Info.plists write lists of one.
    private static func strings(_ node: PropertyListNode, keyPath: String) throws(UTTypeDeclarationError) -> [String] {
        if let value = node.string { return [value] }
        guard let array = node.array else {
            throw UTTypeDeclarationError(code: .wrongKind, keyPath: keyPath, message: "is a \(node.kindName), not a string or an array of strings", position: node.location.description)
        }
        var values: [String] = []
        for (index, element) in array.enumerated() {
            values.append(try string(element, keyPath: "\(keyPath)[\(index)]"))
        }
        return values
    }
}

/// Why an Info.plist's type declarations could not be read.
public struct UTTypeDeclarationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: Sendable, Equatable {
        /// The bytes are not a property list.
        case notAPropertyList
        /// A value of another kind than the key takes (an array where a dict belongs).
        case wrongKind
        /// A declaration without `UTTypeIdentifier`.
        case missingIdentifier
        /// An identifier that cannot be declared (not one, or a dynamic one).
        case invalidIdentifier
    }

    public var code: Code
    /// Where in the Info.plist, such as `UTExportedTypeDeclarations[0].UTTypeConformsTo`; empty for the root.
    public var keyPath: String
    /// What is wrong.
    public var message: String
    /// The line and column (XML) or byte offset (binary) of the value, when known.
    public var position: String?

    public var description: String {
        let place = [position, keyPath.isEmpty ? nil : keyPath].compactMap { $0 }.joined(separator: ", ")
        return place.isEmpty ? message : "\(place): \(message)"
    }
}
