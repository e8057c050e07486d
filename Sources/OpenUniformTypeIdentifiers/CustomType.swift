import struct Foundation.URL

/// A type outside the system table: declared by an app, dynamic, or undeclared. Immutable once made; its
/// conformance closure is computed when it is made, so that `conforms(to:)` never walks the graph.
final class CustomType: Sendable {
    enum Kind: Sendable {
        case declared, dynamic, undeclared
    }

    let identifier: String
    /// The identifier lowercased: what equality and hashing compare.
    let key: String
    let kind: Kind
    let tags: [UTTagClass: [String]]
    let typeDescription: String?
    let referenceURL: URL?
    let version: Int?
    /// Every type this one conforms to, depth-first from its parents, itself excluded.
    let ancestors: [UTType]
    /// The system types among `ancestors`, as a bit set indexed like the system table.
    private let systemAncestorBits: [UInt64]
    /// The keys of the custom types among `ancestors`.
    private let customAncestorKeys: Set<String>

    private init(identifier: String, kind: Kind, tags: [UTTagClass: [String]], description: String?,
                 referenceURL: URL?, version: Int? = nil, parents: [UTType]) {
        self.identifier = identifier
        self.key = identifier.lowercased()
        self.kind = kind
        self.tags = tags
        self.typeDescription = description
        self.referenceURL = referenceURL
        self.version = version

        var ancestors: [UTType] = [], seen: Set<UTType> = []
        var bits = [UInt64](repeating: 0, count: SystemTypeTable.wordsPerType)
        var customKeys: Set<String> = []
        for parent in parents {
            for type in [parent] + parent.ancestors where seen.insert(type).inserted {
                ancestors.append(type)
                switch type.storage {
                case .system(let index): bits[Int(index) / 64] |= 1 << (UInt64(index) % 64)
                case .custom(let custom): customKeys.insert(custom.key)
                }
            }
        }
        self.ancestors = ancestors
        self.systemAncestorBits = bits
        self.customAncestorKeys = customKeys
    }

    /// A type an app declares.
    convenience init(declaration: UTTypeDeclaration, parents: [UTType]) {
        self.init(identifier: declaration.identifier, kind: .declared, tags: declaration.tags,
                  description: declaration.description, referenceURL: declaration.referenceURL,
                  version: declaration.version, parents: parents)
    }

    /// The type a dynamic identifier describes; `parent`, when the caller has it, saves resolving the
    /// query's parent identifier again.
    convenience init(dynamic query: DynamicTypeIdentifier.Query, parent: UTType? = nil) {
        var tags: [UTTagClass: [String]] = [:]
        for tag in query.tags { tags[tag.tagClass, default: []].append(tag.value) }
        let parent = parent ?? query.parent.map { UTType.resolve($0) ?? UTType(custom: CustomType(undeclared: $0, parent: nil)) }
        self.init(identifier: DynamicTypeIdentifier.encode(query), kind: .dynamic, tags: tags, description: nil,
                  referenceURL: nil, parents: parent.map { [$0] } ?? [])
    }

    /// A type named in code that nobody declares.
    convenience init(undeclared identifier: String, parent: UTType?) {
        self.init(identifier: identifier, kind: .undeclared, tags: [:], description: nil, referenceURL: nil,
                  parents: parent.map { [$0] } ?? [])
    }

    @inline(__always)
    func conforms(toSystem index: Int32) -> Bool {
        systemAncestorBits[Int(index) >> 6] & (1 << (UInt64(truncatingIfNeeded: index) & 63)) != 0
    }

    func conforms(toCustomKey key: String) -> Bool {
        customAncestorKeys.contains(key)
    }
}
