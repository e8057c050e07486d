import Foundation

/// Dynamic types already made for a tag, so that asking again for an unknown extension costs a lookup,
/// not an encoding and a closure. Bounded: when full it starts over (unknown tags are few in practice,
/// and a hostile stream of distinct tags must not grow memory without end).
// @unchecked: its mutable state is only touched under its lock.
final class DynamicTypeCache: @unchecked Sendable {
    static let shared = DynamicTypeCache()
    static let capacity = 4096

    private struct Key: Hashable {
        var tagClass: UTTagClass
        var tag: String
        var parent: UTType?
    }

    private let lock = NSLock()
    private var entries: [Key: CustomType] = [:]

    var count: Int { lock.withLock { entries.count } }

    /// The dynamic type for a tag (already normalized) under a parent, made once.
    func type(tag: String, tagClass: UTTagClass, parent: UTType?) -> CustomType {
        let key = Key(tagClass: tagClass, tag: tag, parent: parent)
        if let cached = lock.withLock({ entries[key] }) { return cached }
        let query = DynamicTypeIdentifier.Query(parent: parent?.identifier, tags: [.init(tagClass: tagClass, value: tag)])
        let made = CustomType(dynamic: query, parent: parent)
        lock.withLock {
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = made
        }
        return made
    }
}
