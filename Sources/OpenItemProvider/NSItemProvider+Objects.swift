public import Foundation
import PackageSupport
import SharingSystem
import OpenUniformTypeIdentifiers

extension NSItemProvider {
    func canLoadObjectImplementation(ofClass aClass: any NSItemProviderReading.Type) -> Bool {
        readableRepresentation(for: aClass) != nil
    }

    func loadObjectImplementation(ofClass aClass: any NSItemProviderReading.Type,
                         completionHandler: @escaping @Sendable ((any NSItemProviderReading)?, (any Error)?) -> Void) -> Progress {
        guard let representation = readableRepresentation(for: aClass) else {
            let error = Self.error(.unavailableCoercionError,
                                   "\(aClass) reads \(aClass.readableTypeIdentifiersForItemProvider.joined(separator: ", ")); the item provider has \(availableTypesDescription).")
            BlockingThreads.submit { completionHandler(nil, error) }
            let progress = SynchronizedProgress(totalUnitCount: 1)
            progress.completedUnitCount = 1
            return progress
        }
        let readingClass = UncheckedBox(aClass)
        return load(representation.type, as: .data) { result in
            let aClass = readingClass.value
            switch result {
            case .success(.data(let data)):
                do {
                    completionHandler(try aClass.object(withItemProviderData: data, typeIdentifier: representation.typeIdentifier), nil)
                } catch {
                    completionHandler(nil, Self.error(.unexpectedValueClassError,
                                                      "\(aClass) could not be made from the \(representation.typeIdentifier) data: \(error)", underlying: error))
                }
            case .success:
                completionHandler(nil, Self.error(.unknownError, "a load of data produced no data"))
            case .failure(let error):
                completionHandler(nil, error)
            }
        }
    }

    /// Whether a visible representation conforms to a type the Swift value type's class can read.
    ///
    /// Stands in for the Swift overlay's generic `NSItemProvider.canLoadObject(ofClass:)` (`String.self`, `URL.self`).
    public func canLoadObject<T: _ObjectiveCBridgeable>(ofClass: T.Type) -> Bool where T._ObjectiveCType: NSItemProviderReading {
        canLoadObject(ofClass: T._ObjectiveCType.self)
    }

    /// Loads a Swift value (`String`, `URL`, …) through its Foundation class.
    ///
    /// Stands in for the Swift overlay's generic `NSItemProvider.loadObject(ofClass:completionHandler:)`.
    @discardableResult
    @preconcurrency public func loadObject<T: _ObjectiveCBridgeable>(ofClass: T.Type,
                                                     completionHandler: @escaping @Sendable (T?, (any Error)?) -> Void) -> Progress
    where T._ObjectiveCType: NSItemProviderReading, T: SendableMetatype {
        loadObject(ofClass: T._ObjectiveCType.self as any NSItemProviderReading.Type) { object, error in
            guard let object = object as? T._ObjectiveCType else { return completionHandler(nil, error) }
            completionHandler(T._unconditionallyBridgeFromObjectiveC(object), nil)
        }
    }

    private func readableRepresentation(for aClass: any NSItemProviderReading.Type) -> Representation? {
        let readable = aClass.readableTypeIdentifiersForItemProvider.map(Self.type(for:))
        return visibleRepresentations.first { representation in readable.contains { representation.type.conforms(to: $0) } }
    }
}
