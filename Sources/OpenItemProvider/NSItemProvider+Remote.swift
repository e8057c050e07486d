import Foundation

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
}
