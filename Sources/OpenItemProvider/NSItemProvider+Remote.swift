package import Foundation

/// What the extension runtime needs to mirror a provider in another process (OpenSharing, not Apple's API):
/// how each representation was registered, and a registered file without the copy a consumer gets.
extension NSItemProvider {
    /// How a representation was registered: as data, as a file (to copy, or openable in place), or as an
    /// item (an object or a legacy item, handed over as the object itself).
    package enum RepresentationForm: Sendable, Equatable {
        case data, file, fileInPlace, item
    }

    /// The visible representations, in fidelity order, each with how it was registered.
    package var registeredForms: [(typeIdentifier: String, form: RepresentationForm)] {
        visibleRepresentations.map { representation in
            switch representation.source {
            case .data: (representation.typeIdentifier, .data)
            case .file(let openInPlace, _): (representation.typeIdentifier, openInPlace ? .fileInPlace : .file)
            case .object, .objectClass, .item: (representation.typeIdentifier, .item)
            }
        }
    }

    /// Runs the file loader of the first visible file representation conforming to the type, and hands
    /// `completionHandler` the registered file itself, valid only until the handler returns: no copy is made,
    /// so a caller that opens it there keeps it readable after. Fails as `loadFileRepresentation` does when no
    /// such representation is registered as a file.
    @discardableResult
    package func loadRegisteredFile(forTypeIdentifier typeIdentifier: String,
                                    completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void) -> Progress? {
        let type = Self.type(for: typeIdentifier)
        guard let representation = representation(conformingTo: type), case .file(_, let loader) = representation.source else {
            completionHandler(nil, Self.error(.itemUnavailableError, "No file representation conforms to \(typeIdentifier); the item provider has \(availableTypesDescription)."))
            return nil
        }
        return loader { url, _, error in completionHandler(url, error) }
    }
}
