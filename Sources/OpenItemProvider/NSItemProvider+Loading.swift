public import Foundation
public import OpenUniformTypeIdentifiers
import PropertyLists
import ContentTypes
import SharingSystem
import ZIPFoundation

/// Loading: any way of providing bridges to any way of consuming, as Apple's `NSItemProvider` does.
///
/// | provided as \ consumed as | data | file copy | open in place |
/// |---|---|---|---|
/// | data | the data | the data written to a temporary file | the same copy, `openInPlace == false` |
/// | file to copy | the file's contents | a copy | a copy, `openInPlace == false` |
/// | file to open in place | the file's contents | a copy | the original URL, `openInPlace == true` |
///
/// A directory arrives as a zip archive whose only root entry is the directory when loaded as data, as a
/// copy of the whole tree as a file, and is never opened in place. Files handed to a completion handler
/// are removed when it returns. Loaders run on a background queue; completion handlers run on whatever
/// queue the loader calls back on.
extension NSItemProvider {
    enum Requested: Sendable {
        case data, fileCopy, openInPlace
    }

    // MARK: Loading by type identifier

    func loadDataRepresentationImplementation(forTypeIdentifier typeIdentifier: String,
                                     completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress {
        load(Self.type(for: typeIdentifier), as: .data) { result in
            switch result {
            case .success(.data(let data)): completionHandler(data, nil)
            case .success: completionHandler(nil, Self.error(.unknownError, "a load of data produced no data"))
            case .failure(let error): completionHandler(nil, error)
            }
        }
    }

    func loadFileRepresentationImplementation(forTypeIdentifier typeIdentifier: String,
                                     completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void) -> Progress {
        load(Self.type(for: typeIdentifier), as: .fileCopy) { result in
            switch result {
            case .success(.file(let url, _, _)): completionHandler(url, nil)
            case .success: completionHandler(nil, Self.error(.unknownError, "a load of a file produced no file"))
            case .failure(let error): completionHandler(nil, error)
            }
        }
    }

    func loadInPlaceFileRepresentationImplementation(forTypeIdentifier typeIdentifier: String,
                                            completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress {
        loadFileImplementation(Self.type(for: typeIdentifier), openInPlace: true, completionHandler: completionHandler)
    }

    // MARK: Loading by UTType

    /// Loads the first visible representation conforming to `contentType`, as data.
    ///
    /// Stands in for `NSItemProvider.loadDataRepresentation(for:completionHandler:)`.
    @discardableResult
    @preconcurrency public func loadDataRepresentation(for contentType: UTType,
                                       completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress {
        loadDataRepresentation(forTypeIdentifier: contentType.identifier, completionHandler: completionHandler)
    }

    /// Loads the first visible representation conforming to `contentType` as a file: in place when asked,
    /// registered so and eligible; else as a copy removed when `completionHandler` returns.
    ///
    /// Stands in for `NSItemProvider.loadFileRepresentation(for:openInPlace:completionHandler:)`.
    @discardableResult
    @preconcurrency public func loadFileRepresentation(for contentType: UTType, openInPlace: Bool = false,
                                       completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress {
        loadFile(contentType, openInPlace: openInPlace, completionHandler: completionHandler)
    }

    /// Through the overridable methods, as Apple's overlay goes through its class's: a subclass (a provider
    /// mirroring another process's) sees every file load.
    private func loadFile(_ type: UTType, openInPlace: Bool,
                          completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress {
        if openInPlace {
            return loadInPlaceFileRepresentation(forTypeIdentifier: type.identifier, completionHandler: completionHandler)
        }
        return loadFileRepresentation(forTypeIdentifier: type.identifier) { url, error in completionHandler(url, false, error) }
    }

    private func loadFileImplementation(_ type: UTType, openInPlace: Bool,
                                        completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress {
        load(type, as: openInPlace ? .openInPlace : .fileCopy) { result in
            switch result {
            case .success(.file(let url, let inPlace, _)): completionHandler(url, inPlace, nil)
            case .success: completionHandler(nil, false, Self.error(.unknownError, "a load of a file produced no file"))
            case .failure(let error): completionHandler(nil, false, error)
            }
        }
    }

    // MARK: The matrix

    /// Starts a load of the first visible representation conforming to `type`.
    func load(_ type: UTType, as requested: Requested,
              deliver: @escaping @Sendable (Result<LoadedValue, NSError>) -> Void) -> Progress {
        // The request's work from now until the consumer's handler has returned.
        let work = self.work
        work?.begin()
        let operation = LoadOperation { result in
            deliver(result)
            work?.end()
        }
        guard let representation = representation(conformingTo: type) else {
            let error = Self.error(.itemUnavailableError,
                                   "No representation conforms to \(type.identifier); the item provider has \(availableTypesDescription).")
            BlockingThreads.submit { operation.fail(error) }
            return operation.progress
        }
        let naming = Naming(suggestedName: suggestedName, type: representation.type, eligibility: openInPlaceEligibility,
                            temporaryRoot: temporaryDirectory, readsItemFiles: readsItemFiles)
        startLoad {
            Self.run(representation, as: requested, naming: naming, operation: operation)
        }
        return operation.progress
    }

    /// What a load needs to know of the provider, taken when it starts.
    struct Naming: Sendable {
        var suggestedName: String?
        var type: UTType
        var eligibility: @Sendable (URL) -> Bool
        var temporaryRoot: URL?
        var readsItemFiles: Bool

        func makeTemporaryDirectory() throws(SystemError) -> TemporaryDirectory {
            try TemporaryDirectory(in: temporaryRoot)
        }

        /// The sanitized name of a file made for the consumer: the suggested name, else the provider's file
        /// name, else the type's description; with the type's extension.
        func fileName(providerName: String?) -> String {
            SafeFileName.make(from: suggestedName ?? providerName, fallback: type.localizedDescription ?? "item",
                              extension: .init(for: type))
        }
    }

    private static func run(_ representation: Representation, as requested: Requested, naming: Naming, operation: LoadOperation) {
        // The loader's share of the progress: all of it when its result goes straight to the consumer.
        let copies: Bool
        switch representation.source {
        case .data, .object, .objectClass: copies = requested != .data
        case .file, .item: copies = true
        }
        operation.beginLoaderStage(share: copies ? 50 : 100)
        switch representation.source {
        case .data(let loader):
            operation.attachLoaderProgress(loader { data, error in
                operation.endLoaderStage()
                received(data: data, error: error, as: requested, naming: naming, operation: operation)
            })
        case .file(let openInPlace, let loader):
            operation.attachLoaderProgress(loader { url, _, error in
                operation.endLoaderStage()
                guard let url else { return operation.fail(loaderError(error, naming)) }
                received(file: url, registeredInPlace: openInPlace, as: requested, naming: naming, operation: operation)
            })
        case .object(let object):
            operation.attachLoaderProgress(object.loadData(withTypeIdentifier: representation.typeIdentifier) { data, error in
                operation.endLoaderStage()
                received(data: data, error: error, as: requested, naming: naming, operation: operation)
            })
        case .objectClass(let loader):
            operation.attachLoaderProgress(loader { object, error in
                guard let object else {
                    operation.endLoaderStage()
                    return operation.fail(loaderError(error, naming))
                }
                _ = object.loadData(withTypeIdentifier: representation.typeIdentifier) { data, error in
                    operation.endLoaderStage()
                    received(data: data, error: error, as: requested, naming: naming, operation: operation)
                }
            })
        case .item(let handler):
            handler({ item, error in
                operation.endLoaderStage()
                guard let item else { return operation.fail(loaderError(error, naming)) }
                received(item: item, typeIdentifier: representation.typeIdentifier, as: requested, naming: naming, operation: operation)
            }, nil, nil)
        }
    }

    private static func loaderError(_ error: (any Error)?, _ naming: Naming) -> NSError {
        if let error { return error as NSError }
        return Self.error(.unknownError, "The item provider's loader for \(naming.type.identifier) gave neither a value nor an error.")
    }

    /// Data from the provider: handed over, or written to a file of the consumer's own.
    private static func received(data: Data?, error: (any Error)?, as requested: Requested, naming: Naming, operation: LoadOperation) {
        guard let data else { return operation.fail(loaderError(error, naming)) }
        if requested == .data {
            operation.finish(.success(.data(data)))
            return
        }
        let stage = operation.beginStage(share: 50, total: Int64(data.count))
        do {
            let temporary = try naming.makeTemporaryDirectory()
            let url = temporary.url.appendingPathComponent(naming.fileName(providerName: nil))
            do {
                try data.write(to: url, options: .withoutOverwriting)
            } catch {
                temporary.remove()
                throw error
            }
            stage.completedUnitCount = stage.totalUnitCount
            operation.finish(.success(.file(url, openedInPlace: false, temporary: temporary)))
        } catch {
            operation.fail(Self.error(.unknownError, "Cannot write the \(naming.type.identifier) data to a file: \(error)", underlying: error))
        }
    }

    /// A file from the provider, valid only until this returns: opened in place, copied, or read.
    private static func received(file url: URL, registeredInPlace: Bool, as requested: Requested, naming: Naming, operation: LoadOperation) {
        let path = url.path
        guard url.isFileURL, let status = try? FileSystem.status(url) else {
            return operation.fail(Self.error(.itemUnavailableError, "The item provider's file \(path) for \(naming.type.identifier) does not exist."))
        }
        // The kernel's views of processes and devices are no one's files to share (/proc/self/environ names the
        // reader's own environment).
        if let filesystem = (try? OpenFile.naming(url))?.pseudoFileSystem {
            return operation.fail(Self.error(.itemUnavailableError, "The item provider's file \(path) is on \(filesystem), which is not shared."))
        }
        let isDirectory = status.kind == .directory
        if requested == .openInPlace && registeredInPlace && !isDirectory && naming.eligibility(url) {
            operation.finish(.success(.file(url, openedInPlace: true, temporary: nil)))
            return
        }
        // A FIFO, socket or device is a stream of unknown length, which no copy can hold: the consumer gets the
        // stream itself, to read while its handler runs.
        if status.kind == .other && requested != .data {
            operation.finish(.success(.file(url, openedInPlace: false, temporary: nil)))
            return
        }
        do {
            let total = isDirectory ? try TreeCopier.size(of: url) : status.size
            let stage = operation.beginStage(share: 50, total: total)
            let keepGoing: (Int64) -> Bool = { bytes in
                stage.completedUnitCount = bytes
                return !operation.isCancelled
            }
            if requested == .data {
                let data = isDirectory ? try zipData(of: url, naming: naming, operation: operation)
                    : try OpenFile.reading(url).readAll(progress: keepGoing)
                stage.completedUnitCount = stage.totalUnitCount
                operation.finish(.success(.data(data)))
                return
            }
            let temporary = try naming.makeTemporaryDirectory()
            let destination = temporary.url.appendingPathComponent(naming.fileName(providerName: url.lastPathComponent))
            do {
                if isDirectory {
                    _ = try TreeCopier.copyTree(from: url, to: destination, progress: keepGoing)
                } else {
                    try FileCopier.copyFile(from: url, to: destination, progress: keepGoing)
                }
            } catch {
                temporary.remove()
                throw error
            }
            stage.completedUnitCount = stage.totalUnitCount
            operation.finish(.success(.file(destination, openedInPlace: false, temporary: temporary)))
        } catch let error as SystemError where error.code == .cancelled {
            operation.fail(NSItemProvider.cancellationError)
        } catch {
            operation.fail(Self.error(.unknownError, "Cannot load \(path) as \(naming.type.identifier): \(error)", underlying: error))
        }
    }

    /// A directory as a zip archive whose only root entry is the directory, as Apple hands directories over as data.
    private static func zipData(of directory: URL, naming: Naming, operation: LoadOperation) throws -> Data {
        let temporary = try naming.makeTemporaryDirectory()
        defer { temporary.remove() }
        let archive = temporary.url.appendingPathComponent("archive.zip")
        let progress = SynchronizedProgress(totalUnitCount: 1)
        try FileManager().zipItem(at: directory, to: archive, shouldKeepParent: true, compressionMethod: .deflate, progress: progress)
        if operation.isCancelled { throw SystemError(.read, .cancelled, path: directory.path) }
        return try OpenFile.reading(archive).readAll()
    }

    /// A legacy item: turned into what the consumer asked for where a conversion makes sense.
    private static func received(item: any NSSecureCoding, typeIdentifier: String, as requested: Requested,
                                 naming: Naming, operation: LoadOperation) {
        if let url = item as? NSURL, url.isFileURL {
            guard naming.readsItemFiles else {
                return operation.fail(Self.error(.unavailableCoercionError,
                                                 "The item for \(typeIdentifier) is the file URL \((url as URL).absoluteString), which names a file of another process's."))
            }
            return received(file: url as URL, registeredInPlace: false, as: requested, naming: naming, operation: operation)
        }
        if let object = item as? any NSItemProviderWriting,
           object.writableTypeIdentifiersForItemProvider.contains(where: { Self.type(for: $0).conforms(to: naming.type) }) {
            _ = object.loadData(withTypeIdentifier: typeIdentifier) { data, error in
                received(data: data, error: error, as: requested, naming: naming, operation: operation)
            }
            return
        }
        if let data = item as? NSData {
            return received(data: data as Data, error: nil, as: requested, naming: naming, operation: operation)
        }
        if item is NSDictionary || item is NSArray,
           let data = try? PropertyListSerialization.data(fromPropertyList: item, format: .binary, options: 0) {
            return received(data: data, error: nil, as: requested, naming: naming, operation: operation)
        }
        operation.fail(Self.error(.unavailableCoercionError,
                                  "The item registered for \(typeIdentifier) is a \(Swift.type(of: item)), which cannot be loaded as \(requested == .data ? "data" : "a file")."))
    }
}
