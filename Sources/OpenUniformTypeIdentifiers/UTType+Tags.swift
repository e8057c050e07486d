extension UTType {
    /// Creates the type for a filename extension (without the dot) that conforms to `supertype`: the best
    /// declared type claiming the extension, or else a dynamic type. `nil` for an empty extension.
    ///
    /// Stands in for `UTType.init?(filenameExtension:conformingTo:)`.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// Creates the type for a MIME type that conforms to `supertype`: the best declared type claiming it,
    /// or else a dynamic type. `nil` for an empty MIME type.
    ///
    /// Stands in for `UTType.init?(mimeType:conformingTo:)`.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// Creates the type for a tag of a class that conforms to `supertype` (any type when `nil`): the best
    /// declared type claiming the tag, or else a dynamic type. `nil` for an empty tag or one holding NUL.
    ///
    /// Tags match case-insensitively. When several declared types claim a tag, system types come first
    /// (ranked by the generator: see `Tools/data/tag-preferences.json`), then an app's exported types, then
    /// its imported ones.
    /// Stands in for `UTType.init?(tag:tagClass:conformingTo:)`.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        var first: UTType?
        UTType.forEachType(tag: tag, tagClass: tagClass, conformingTo: supertype) { type in
            first = type
            return false
        }
        guard let first else { return nil }
        self = first
    }

    /// All declared types that claim a tag and conform to `supertype`, best first; when none does, a
    /// single dynamic type. Empty for an empty tag or one holding NUL.
    ///
    /// Stands in for `UTType.types(tag:tagClass:conformingTo:)`.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        var found: [UTType] = []
        forEachType(tag: tag, tagClass: tagClass, conformingTo: supertype) { type in
            found.append(type)
            return true
        }
        return found
    }

    /// Calls `body` with each declared type claiming the tag and conforming to `supertype`, best first, or
    /// with a dynamic type when none does; stops when `body` returns false. Nothing for an invalid tag.
    private static func forEachType(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?,
                                    _ body: (UTType) -> Bool) {
        guard !tag.isEmpty else { return }
        var foundAny = false
        switch SystemTypeTable.shared.candidates(tag: tag, tagClass: tagClass) {
        case .invalid:
            return
        case .notFound:
            break
        case .found(let candidates):
            for index in candidates {
                let type = UTType(systemIndex: index)
                if supertype.map(type.conforms(to:)) ?? true {
                    foundAny = true
                    if !body(type) { return }
                }
            }
        }
        for custom in TypeRegistry.shared.types(tag: tag, tagClass: tagClass) {
            let type = UTType(custom: custom)
            if supertype.map(type.conforms(to:)) ?? true {
                foundAny = true
                if !body(type) { return }
            }
        }
        if !foundAny {
            let value = tagClass.isCaseInsensitive ? tag.lowercased() : tag
            _ = body(UTType(custom: DynamicTypeCache.shared.type(tag: value, tagClass: tagClass, parent: supertype)))
        }
    }

    /// The type's tags by class, each list in order of preference.
    ///
    /// Stands in for `UTType.tags`.
    public var tags: [UTTagClass: [String]] {
        switch storage {
        case .system(let index): SystemTypeTable.shared.tags(of: index)
        case .custom(let custom): custom.tags
        }
    }

    /// The preferred filename extension, such as `jpeg` for `public.jpeg`.
    ///
    /// Stands in for `UTType.preferredFilenameExtension`.
    public var preferredFilenameExtension: String? {
        switch storage {
        case .system(let index): SystemTypeTable.shared.filenameExtensions[Int(index)].first
        case .custom(let custom): custom.tags[.filenameExtension]?.first
        }
    }

    /// The preferred MIME type, such as `image/jpeg` for `public.jpeg`.
    ///
    /// Stands in for `UTType.preferredMIMEType`.
    public var preferredMIMEType: String? {
        switch storage {
        case .system(let index): SystemTypeTable.shared.mimeTypes[Int(index)].first
        case .custom(let custom): custom.tags[.mimeType]?.first
        }
    }
}
