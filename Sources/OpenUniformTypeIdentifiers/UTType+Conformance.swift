extension UTType {
    /// Whether the type is `type` or conforms to it, directly or indirectly.
    ///
    /// Answered from a precomputed closure: a bit test for system types, a set lookup for app types.
    /// Stands in for `UTType.conforms(to:)`.
    public func conforms(to type: UTType) -> Bool {
        switch (storage, type.storage) {
        case (.system(let a), _):
            return SystemRequirement(type).isMet(by: a)
        case (.custom(let a), .system(let b)):
            return a.conforms(toSystem: b)
        case (.custom(let a), .custom(let b)):
            return a === b || a.key == b.key || a.conforms(toCustomKey: b.key)
        }
    }

    /// Which system types a supertype admits, read from a borrowed one without copying it: what
    /// `conforms(to:)` answers for a system type, and what the tag lookups filter their candidates by.
    enum SystemRequirement {
        case any
        case conforming(to: Int32)
        /// An app's type: the system's types never conform to one.
        case appType

        init(_ supertype: borrowing UTType?) {
            switch supertype {
            case nil: self = .any
            case let type?: self.init(type)
            }
        }

        init(_ supertype: borrowing UTType) {
            switch supertype.storage {
            case .system(let index): self = .conforming(to: index)
            case .custom: self = .appType
            }
        }

        func isMet(by index: Int32) -> Bool {
            switch self {
            case .any: true
            case .conforming(let other): SystemTypeTable.conforms(index, to: other)
            case .appType: false
            }
        }
    }

    /// Whether `type` conforms to this type and is not this type.
    ///
    /// Stands in for `UTType.isSupertype(of:)`.
    public func isSupertype(of type: UTType) -> Bool {
        type != self && type.conforms(to: self)
    }

    /// Whether this type conforms to `type` and is not `type`.
    ///
    /// Stands in for `UTType.isSubtype(of:)`.
    public func isSubtype(of type: UTType) -> Bool {
        type != self && conforms(to: type)
    }

    /// Every type this type conforms to, directly or indirectly, itself excluded.
    ///
    /// Stands in for `UTType.supertypes`.
    public var supertypes: Set<UTType> {
        Set(ancestors)
    }

    /// The types this type conforms to in depth-first order from its declared parents, itself excluded:
    /// the order macOS prints a conformance tree in (`public.jpeg`: `public.image`, `public.data`,
    /// `public.item`, `public.content`).
    package var ancestors: [UTType] {
        switch storage {
        case .system(let index):
            SystemTypeTable.shared.closures[Int(index)].map(UTType.init(systemIndex:))
        case .custom(let custom):
            custom.ancestors
        }
    }
}
