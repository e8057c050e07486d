extension UTType {
    // The parameters of the three initializers below are borrowed (a caller's call is written as for
    // Apple's): a lookup that answers with a system type then copies, retains and releases nothing.

    /// Creates the type for a filename extension (without the dot) that conforms to `supertype`: the best
    /// declared type claiming the extension, or else a dynamic type. `nil` for an empty extension.
    ///
    /// Stands in for `UTType.init?(filenameExtension:conformingTo:)`.
    public init?(filenameExtension: borrowing String, conformingTo supertype: borrowing UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, requirement: SystemRequirement(supertype)) {
            copy supertype
        }
    }

    /// Creates the type for a MIME type that conforms to `supertype`: the best declared type claiming it,
    /// or else a dynamic type. `nil` for an empty MIME type.
    ///
    /// Stands in for `UTType.init?(mimeType:conformingTo:)`.
    public init?(mimeType: borrowing String, conformingTo supertype: borrowing UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, requirement: SystemRequirement(supertype)) { copy supertype }
    }

    /// Creates the type for a tag of a class that conforms to `supertype` (any type when `nil`): the best
    /// declared type claiming the tag, or else a dynamic type. `nil` for an empty tag or one holding NUL.
    ///
    /// Tags match case-insensitively. When several declared types claim a tag, system types come first
    /// (ranked by the generator: see `Tools/data/tag-preferences.json`), then an app's exported types, then
    /// its imported ones.
    /// Stands in for `UTType.init?(tag:tagClass:conformingTo:)`.
    public init?(tag: borrowing String, tagClass: borrowing UTTagClass, conformingTo supertype: borrowing UTType?) {
        self.init(tag: tag, tagClass: tagClass, requirement: SystemRequirement(supertype)) { copy supertype }
    }

    /// The best system type, when one claims the tag and meets the requirement; else the first of
    /// `forEachNonSystemType`, given the supertype only then. Inlined into each initializer, whose tag class
    /// then picks its index at compile time.
    @inline(__always)
    private init?(tag: borrowing String, tagClass: borrowing UTTagClass, requirement: SystemRequirement,
                  supertype: () -> UTType?) {
        // No key is empty: an empty tag finds no system type, and goes the slower way to nil.
        switch SystemTypeTable.candidates(tag: tag, tagClass: tagClass) {
        case .invalid:
            return nil
        case .notFound:
            break
        case .found(let candidates):
            for index in candidates where requirement.isMet(by: index) {
                self.init(systemIndex: index)
                return
            }
        }
        guard let type = UTType.firstNonSystemType(tag: copy tag, tagClass: copy tagClass, conformingTo: supertype()) else {
            return nil
        }
        self = type
    }

    /// The first of `forEachNonSystemType` when no system type answered: kept out of line, so that the
    /// initializers' common path stays short.
    @inline(never)
    private static func firstNonSystemType(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> UTType? {
        guard !tag.isEmpty else { return nil }
        var first: UTType?
        forEachNonSystemType(tag: tag, tagClass: tagClass, conformingTo: supertype, afterSystemTypes: false) { type in
            first = type
            return false
        }
        return first
    }

    /// All declared types that claim a tag and conform to `supertype`, best first; when none does, a
    /// single dynamic type. Empty for an empty tag or one holding NUL.
    ///
    /// Stands in for `UTType.types(tag:tagClass:conformingTo:)`.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        guard !tag.isEmpty else { return [] }
        var found: [UTType] = []
        let requirement = SystemRequirement(supertype)
        switch SystemTypeTable.candidates(tag: tag, tagClass: tagClass) {
        case .invalid:
            return []
        case .notFound:
            break
        case .found(let candidates):
            found = candidates.filter(requirement.isMet(by:)).map(UTType.init(systemIndex:))
        }
        forEachNonSystemType(tag: tag, tagClass: tagClass, conformingTo: supertype, afterSystemTypes: !found.isEmpty) { type in
            found.append(type)
            return true
        }
        return found
    }

    /// Calls `body` with each type an app declares claiming the tag and conforming to `supertype`, best
    /// first, or, when none does and no system type did (`afterSystemTypes`), with a dynamic type; stops
    /// when `body` returns false.
    private static func forEachNonSystemType(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?,
                                             afterSystemTypes: Bool, _ body: (UTType) -> Bool) {
        var foundAny = afterSystemTypes
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
