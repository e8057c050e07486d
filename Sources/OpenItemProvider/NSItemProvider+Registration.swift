public import Foundation
public import OpenUniformTypeIdentifiers
import SharingSystem

extension NSItemProvider {
    // MARK: By type identifier

    func registerDataRepresentationImplementation(
        forTypeIdentifier typeIdentifier: String, visibility: NSItemProviderRepresentationVisibility,
        loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) {
        register(typeIdentifier: typeIdentifier, visibility: visibility, source: .data(loadHandler))
    }

    func registerFileRepresentationImplementation(
        forTypeIdentifier typeIdentifier: String, fileOptions: NSItemProviderFileOptions = [],
        visibility: NSItemProviderRepresentationVisibility,
        loadHandler: @escaping @Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?
    ) {
        register(typeIdentifier: typeIdentifier, visibility: visibility,
                 source: .file(openInPlace: fileOptions.contains(.openInPlace), loadHandler))
    }

    // MARK: By UTType

    /// Offers a representation of a type as data. Stands in for
    /// `NSItemProvider.registerDataRepresentation(for:visibility:loadHandler:)`.
    @preconcurrency public func registerDataRepresentation(
        for contentType: UTType, visibility: NSItemProviderRepresentationVisibility = .all,
        loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) {
        registerDataRepresentation(forTypeIdentifier: contentType.identifier, visibility: visibility, loadHandler: loadHandler)
    }

    /// Offers a representation of a type as a file. Stands in for
    /// `NSItemProvider.registerFileRepresentation(for:visibility:openInPlace:loadHandler:)`.
    @preconcurrency public func registerFileRepresentation(
        for contentType: UTType, visibility: NSItemProviderRepresentationVisibility = .all, openInPlace: Bool = false,
        loadHandler: @escaping @Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?
    ) {
        registerFileRepresentation(forTypeIdentifier: contentType.identifier, fileOptions: openInPlace ? .openInPlace : [],
                                   visibility: visibility, loadHandler: loadHandler)
    }

    /// Creates a provider of a file: one file representation of `contentType` (from the file's extension
    /// when `nil`; a directory without a package extension is `public.folder`).
    ///
    /// Stands in for `NSItemProvider.init(contentsOf:contentType:openInPlace:coordinated:visibility:)`;
    /// `coordinated` has no effect here (there is no file coordination on Linux).
    public convenience init(contentsOf fileURL: URL, contentType: UTType?, openInPlace: Bool = false,
                            coordinated: Bool = false, visibility: NSItemProviderRepresentationVisibility = .all) {
        self.init()
        let type = contentType ?? (try? fileURL.resourceValues(forKeys: [.contentTypeKey]))?.contentType ?? .data
        registerFileRepresentation(for: type, visibility: visibility, openInPlace: openInPlace) { completion in
            completion(fileURL, coordinated, nil)
            return nil
        }
    }

    // MARK: Objects

    /// Creates a provider offering an object in every type it can write.
    ///
    /// Stands in for `NSItemProvider.init(object:)`.
    public convenience init(object: any NSItemProviderWriting) {
        self.init()
        registerObject(object, visibility: .all)
    }

    func registerObjectImplementation(_ object: any NSItemProviderWriting, visibility: NSItemProviderRepresentationVisibility) {
        for typeIdentifier in object.writableTypeIdentifiersForItemProvider {
            let own = object.itemProviderVisibilityForRepresentation(withTypeIdentifier: typeIdentifier)
            register(typeIdentifier: typeIdentifier, visibility: Self.narrower(own, visibility), source: .object(object))
        }
    }

    func registerObjectImplementation(
        ofClass aClass: any NSItemProviderWriting.Type, visibility: NSItemProviderRepresentationVisibility,
        loadHandler: @escaping @Sendable (@escaping @Sendable ((any NSItemProviderWriting)?, (any Error)?) -> Void) -> Progress?
    ) {
        for typeIdentifier in aClass.writableTypeIdentifiersForItemProvider {
            let own = aClass.itemProviderVisibilityForRepresentation(withTypeIdentifier: typeIdentifier)
            register(typeIdentifier: typeIdentifier, visibility: Self.narrower(own, visibility), source: .objectClass(loadHandler))
        }
    }

    /// Offers the types a Swift value type's Foundation class can write (`String`, `URL`, …), the value made
    /// later by `loadHandler`.
    ///
    /// Stands in for the Swift overlay's generic `NSItemProvider.registerObject(ofClass:visibility:loadHandler:)`.
    @preconcurrency public func registerObject<T: _ObjectiveCBridgeable>(
        ofClass: T.Type, visibility: NSItemProviderRepresentationVisibility,
        loadHandler: @escaping @Sendable (@escaping @Sendable (T?, (any Error)?) -> Void) -> Progress?
    ) where T._ObjectiveCType: NSItemProviderWriting, T: SendableMetatype {
        registerObject(ofClass: T._ObjectiveCType.self, visibility: visibility) { completion in
            loadHandler { value, error in
                completion(value.map { $0._bridgeToObjectiveC() as any NSItemProviderWriting }, error)
            }
        }
    }

    private static func narrower(_ a: NSItemProviderRepresentationVisibility, _ b: NSItemProviderRepresentationVisibility) -> NSItemProviderRepresentationVisibility {
        // .ownProcess is narrowest; .team and .group are narrower than .all.
        if a == .ownProcess || b == .ownProcess { return .ownProcess }
        return a == .all ? b : a
    }
}
