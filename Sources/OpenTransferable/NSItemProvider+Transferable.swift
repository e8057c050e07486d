public import Foundation
public import OpenItemProvider
import OpenUniformTypeIdentifiers
import PackageSupport

extension NSItemProvider {
    /// Offers a value's exported representations, in its order of preference: each as data or as a file (one a
    /// receiver may open in place where the representation allows it), under the visibility it declares, and
    /// none whose type an earlier one already offers.
    ///
    /// The value is made when a receiver loads it; it is made once at registration too when a representation
    /// has an exporting condition (to leave out what this value may not export) or a suggested file name (which
    /// becomes `suggestedName` if the provider has none).
    ///
    /// Stands in for CoreTransferable's `NSItemProvider.register(_:)`.
    public func register<T>(_ transferable: @autoclosure @escaping @Sendable () -> T) where T: Transferable {
        var entries = T.transferEntries.filter { $0.exporter != nil && $0.exportedContentType != nil }
        if entries.contains(where: { !$0.conditions.isEmpty || $0.suggestedFileName != nil }) {
            let value = transferable()
            entries = entries.filter { $0.exports(value) }
            if suggestedName == nil { suggestedName = value.suggestedFilename }
        }
        var offered: [UTType] = []
        for entry in entries {
            guard let type = entry.exportedContentType, !offered.contains(type) else { continue }
            offered.append(type)
            let visibility = entry.visibility.level
            switch entry.form {
            case .data:
                registerDataRepresentation(for: type, visibility: visibility) { completion in
                    Self.exporting(entry, of: transferable) { result in
                        switch result {
                        case .success(.data(let data)): completion(data, nil)
                        case .success(.file(let sent)):
                            do { completion(try Data(contentsOf: sent.file), nil) } catch { completion(nil, error) }
                        case .failure(let error): completion(nil, error)
                        }
                    }
                }
            case .file:
                registerFileRepresentation(for: type, visibility: visibility, openInPlace: entry.allowsOpeningInPlace) { completion in
                    Self.exporting(entry, of: transferable) { result in
                        switch result {
                        case .success(.file(let sent)) where sent.allowAccessingOriginalFile || !entry.allowsOpeningInPlace:
                            completion(sent.file, false, nil)
                        case .success(.file(let sent)):
                            // The representation lets a receiver open files in place but this file's sender does
                            // not: the receiver gets a copy, removed once the provider has taken it.
                            Self.handingOver({ try KeptFile(copying: sent.file) }) { copy, error in completion(copy, false, error) }
                        case .success(.data(let data)):
                            Self.handingOver({ try KeptFile(holding: data, type: type) }) { file, error in completion(file, false, error) }
                        case .failure(let error): completion(nil, false, error)
                        }
                    }
                }
            }
        }
    }

    /// Loads a value of `transferableType` through the first of its importing representations whose type this
    /// provider offers (by conformance), in the type's order of preference: as data, or as a file (in place
    /// when the representation asks and the provider allows). Calls `completionHandler` once, with the value or
    /// the error; cancelling the returned progress cancels the load.
    ///
    /// Stands in for CoreTransferable's `NSItemProvider.loadTransferable(type:completionHandler:)`.
    public func loadTransferable<T>(type transferableType: T.Type,
                                    completionHandler: @escaping @Sendable (Result<T, any Error>) -> Void) -> Progress
    where T: Transferable {
        let progress = SynchronizedProgress(totalUnitCount: 100)
        let importing = T.transferEntries.filter { $0.importer != nil && $0.importedContentType != nil }
        var chosen: (entry: TransferEntry, type: UTType)?
        for entry in importing {
            if let offered = registeredContentTypes(conformingTo: entry.importedContentType!).first {
                chosen = (entry, offered)
                break
            }
        }
        guard let (entry, type) = chosen else {
            let error = TransferFailure.noRepresentation(T.self, exporting: false, contentType: nil,
                                                         offered: importing.compactMap(\.importedContentType))
            let described = NSError(domain: error.domain, code: error.code, userInfo: [
                NSLocalizedDescriptionKey: "the item provider offers \(registeredTypeIdentifiers()) and "
                    + error.localizedDescription,
            ])
            progress.completedUnitCount = 100
            completionHandler(.failure(described))
            return progress
        }
        let finish = Finishing(completionHandler)
        progress.cancellationHandler = { finish.cancel() }
        switch entry.form {
        case .data:
            progress.addChild(loadDataRepresentation(for: type) { data, error in
                guard let data else { return finish(.failure(error ?? CocoaError(.fileReadUnknown))) }
                finish.run { try await entry.import(.data(data), as: T.self) }
            }, withPendingUnitCount: 100)
        case .file:
            progress.addChild(loadFileRepresentation(for: type, openInPlace: entry.attemptsOpeningInPlace) { url, inPlace, error in
                guard let url else { return finish(.failure(error ?? CocoaError(.fileReadUnknown))) }
                if inPlace {
                    return finish.run { try await entry.import(.file(ReceivedTransferredFile(file: url, isOriginalFile: true)), as: T.self) }
                }
                // The provider removes its copy when this handler returns; the importer runs later, on a copy of
                // its own that is removed when it has run.
                do {
                    let kept = try KeptFile(moving: url)
                    finish.run {
                        defer { kept.remove() }
                        return try await entry.import(.file(ReceivedTransferredFile(file: kept.url, isOriginalFile: false)), as: T.self)
                    }
                } catch {
                    finish(.failure(error))
                }
            }, withPendingUnitCount: 100)
        }
        return progress
    }

    // MARK: Exporting

    /// Runs an entry's exporter on a fresh value in a task of its own, on the loaders' queue rather than the
    /// cooperative pool (a host whose pool is busy still answers), and hands the result to `body`.
    private static func exporting<T: Transferable>(_ entry: TransferEntry, of transferable: @escaping @Sendable () -> T,
                                                  _ body: @escaping @Sendable (Result<ExportedPayload, any Error>) -> Void) -> Progress? {
        let progress = SynchronizedProgress(totalUnitCount: 1)
        let task = Task(executorPreference: QueueTaskExecutor.loaders) {
            let result: Result<ExportedPayload, any Error>
            do { result = .success(try await entry.export(transferable())) } catch { result = .failure(error) }
            progress.completedUnitCount = 1
            body(result)
        }
        progress.cancellationHandler = { task.cancel() }
        return progress
    }

    /// Hands `completion` a file of its own, made by `make`, and removes it once the provider has taken it.
    private static func handingOver(_ make: () throws -> KeptFile, _ completion: (URL?, (any Error)?) -> Void) {
        do {
            let kept = try make()
            completion(kept.url, nil)
            kept.remove()
        } catch {
            completion(nil, error)
        }
    }
}

/// The one result of a load: the importer's, or the user-cancelled error if the load is cancelled first.
private struct Finishing<T: Sendable>: Sendable {
    private let reply: ReplyBox<Result<T, any Error>>
    private let importer = Locked<Task<Void, Never>?>(nil)

    init(_ handler: @escaping @Sendable (Result<T, any Error>) -> Void) {
        reply = ReplyBox(handler)
    }

    func callAsFunction(_ result: Result<T, any Error>) {
        reply.resolve(result)
    }

    /// Runs the importer in a task of its own, on the loaders' queue rather than the cooperative pool; its
    /// result is the load's unless the load was cancelled.
    func run(_ body: @escaping @Sendable () async throws -> T) {
        let reply = reply
        let task = Task(executorPreference: QueueTaskExecutor.loaders) {
            do { reply.resolve(.success(try await body())) } catch { reply.resolve(.failure(error)) }
        }
        importer.withLock { $0 = task }
    }

    func cancel() {
        reply.resolve(.failure(CocoaError(.userCancelled)))
        importer.withLock { $0?.cancel() }
    }
}
