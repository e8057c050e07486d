import Foundation
import Synchronization

extension UTType {
    /// Makes an app's type declarations known, so that `UTType("com.example.doc")`, its tags and its
    /// conformance resolve, as the system does for the declarations in an installed app's Info.plist.
    ///
    /// Exported declarations win over imported ones for the same identifier; the system's declarations win
    /// over both. Types made before a call keep the closure they had; make them again to see new parents.
    /// An OpenSharing addition (Apple's system registers declarations when an app is installed).
    ///
    /// - Returns: the declarations that were not registered because the system declares their identifier.
    @discardableResult
    public static func registerDeclarations(_ declarations: [UTTypeDeclaration]) -> [UTTypeDeclaration] {
        TypeRegistry.shared.register(declarations)
    }
}

/// The types apps declared, process-wide. Rebuilt whole on every registration (declarations are few and
/// registered at launch), so every type's closure reflects every parent known at that time.
// @unchecked: its mutable state is only touched under its lock.
final class TypeRegistry: @unchecked Sendable {
    static let shared = TypeRegistry()

    private struct State {
        /// By lowercased identifier; an exported declaration replaces an imported one, never the reverse.
        var declarations: [String: UTTypeDeclaration] = [:]
        var order: [String] = []
        var types: [String: CustomType] = [:]
        /// By tag class, then lowercased tag: exported types first, then imported, each in registration order.
        var byTag: [UTTagClass: [String: [CustomType]]] = [:]
    }

    private let lock = NSLock()
    private var unsafeState = State()
    /// Whether anything was ever registered: lookups skip the lock while nothing was (the common case).
    private let isEmpty = Atomic(true)

    func type(identifier: String) -> CustomType? {
        if isEmpty.load(ordering: .acquiring) { return nil }
        return lock.withLock { unsafeState.types[identifier] ?? unsafeState.types[identifier.lowercased()] }
    }

    func types(tag: String, tagClass: UTTagClass) -> [CustomType] {
        if isEmpty.load(ordering: .acquiring) { return [] }
        let key = tag.lowercased()
        return lock.withLock { unsafeState.byTag[tagClass]?[key] ?? [] }
    }

    func register(_ declarations: [UTTypeDeclaration]) -> [UTTypeDeclaration] {
        lock.withLock {
            var state = unsafeState
            defer { unsafeState = state }
            var refused: [UTTypeDeclaration] = []
            for declaration in declarations {
                let key = declaration.identifier.lowercased()
                if SystemTypeTable.index(ofIdentifier: key) != nil {
                    refused.append(declaration)
                    continue
                }
                if let existing = state.declarations[key], existing.isExported, !declaration.isExported { continue }
                if state.declarations.updateValue(declaration, forKey: key) == nil { state.order.append(key) }
            }
            rebuild(&state)
            isEmpty.store(state.types.isEmpty, ordering: .releasing)
            return refused
        }
    }

    private func rebuild(_ state: inout State) {
        var built: [String: CustomType] = [:]
        var visiting: Set<String> = []

        func build(_ key: String) -> CustomType? {
            if let type = built[key] { return type }
            guard let declaration = state.declarations[key], visiting.insert(key).inserted else { return nil }
            defer { visiting.remove(key) }
            var parents: [UTType] = []
            for parentIdentifier in declaration.conformsTo {
                let parentKey = parentIdentifier.lowercased()
                if let index = SystemTypeTable.index(ofIdentifier: parentKey) {
                    parents.append(UTType(systemIndex: index))
                } else if state.declarations[parentKey] != nil {
                    // A parent on the current path would close a cycle: that edge is left out.
                    if let parent = build(parentKey) { parents.append(UTType(custom: parent)) }
                } else {
                    parents.append(UTType(custom: CustomType(undeclared: parentIdentifier, parent: nil)))
                }
            }
            let type = CustomType(declaration: declaration, parents: parents)
            built[key] = type
            return type
        }

        var byTag: [UTTagClass: [String: [CustomType]]] = [:]
        for exported in [true, false] {
            for key in state.order where state.declarations[key]?.isExported == exported {
                guard let type = build(key) else { continue }
                for (tagClass, values) in type.tags {
                    for value in values {
                        byTag[tagClass, default: [:]][value.lowercased(), default: []].append(type)
                    }
                }
            }
        }
        state.types = built
        state.byTag = byTag
    }
}
