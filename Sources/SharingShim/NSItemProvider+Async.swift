// `async` conveniences over NSItemProvider's completion handlers, written against Apple's public API only,
// so they behave the same over Apple's Foundation and over OpenSharing's.

/// A file loaded from an item provider that stays until its owner is done with it: a copy the provider
/// made is moved here before the provider removes it, and removed when this is released (or `remove()`d).
/// A file opened in place is the original, never removed.
public final class LoadedFile: Sendable {
    /// Where the file is.
    public let url: URL
    /// Whether `url` is the provider's original file, opened in place.
    public let isOpenedInPlace: Bool
    private let ownedDirectory: URL?

    init(url: URL, isOpenedInPlace: Bool, ownedDirectory: URL?) {
        self.url = url
        self.isOpenedInPlace = isOpenedInPlace
        self.ownedDirectory = ownedDirectory
    }

    /// Removes the copy now (never an original opened in place).
    public func remove() {
        if let ownedDirectory { try? FileManager.default.removeItem(at: ownedDirectory) }
    }

    deinit {
        remove()
    }
}

// Over the UTType forms of NSItemProvider's loads, which Apple's Foundation has from iOS 16 and macOS 13.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1, *)
extension NSItemProvider {
    /// The data of the first representation conforming to `contentType`.
    ///
    /// An OpenSharing convenience; cancelling the task cancels the load.
    public func loadData(for contentType: UTType) async throws -> Data {
        try await withLoad { finish in
            loadDataRepresentation(for: contentType) { data, error in
                finish(data.map(Result.success) ?? .failure(error ?? CocoaError(.fileReadUnknown)))
            }
        }
    }

    /// The first representation conforming to `contentType` as a file that stays until the returned
    /// `LoadedFile` is released.
    ///
    /// An OpenSharing convenience; cancelling the task cancels the load.
    public func loadFile(for contentType: UTType, openInPlace: Bool = false) async throws -> LoadedFile {
        try await withLoad { finish in
            loadFileRepresentation(for: contentType, openInPlace: openInPlace) { url, inPlace, error in
                guard let url else { return finish(.failure(error ?? CocoaError(.fileReadUnknown))) }
                if inPlace { return finish(.success(LoadedFile(url: url, isOpenedInPlace: true, ownedDirectory: nil))) }
                // The provider removes its copy when this handler returns: move it somewhere of our own first.
                do {
                    let directory = FileManager.default.temporaryDirectory
                        .appendingPathComponent("OpenSharing-kept-\(UUID().uuidString)", isDirectory: true)
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
                    let kept = directory.appendingPathComponent(url.lastPathComponent)
                    do {
                        try FileManager.default.moveItem(at: url, to: kept)
                    } catch {
                        try? FileManager.default.removeItem(at: directory)
                        throw error
                    }
                    finish(.success(LoadedFile(url: kept, isOpenedInPlace: false, ownedDirectory: directory)))
                } catch {
                    finish(.failure(error))
                }
            }
        }
    }

    /// An instance of a class made from the highest-fidelity representation it can read.
    ///
    /// An OpenSharing convenience; cancelling the task cancels the load.
    public func loadObject<T: NSItemProviderReading & Sendable>(ofClass aClass: T.Type) async throws -> T {
        try await withLoad { finish in
            loadObject(ofClass: aClass as any NSItemProviderReading.Type) { object, error in
                if let object = object as? T { return finish(.success(object)) }
                finish(.failure(error ?? CocoaError(.coderValueNotFound)))
            }
        }
    }

    /// A Swift value (`String`, `URL`, …) made from the highest-fidelity representation its class can read.
    ///
    /// An OpenSharing convenience; cancelling the task cancels the load.
    public func loadObject<T: _ObjectiveCBridgeable & Sendable>(ofClass: T.Type) async throws -> T
    where T._ObjectiveCType: NSItemProviderReading {
        try await withLoad { finish in
            loadObject(ofClass: T.self) { value, error in
                finish(value.map(Result.success) ?? .failure(error ?? CocoaError(.coderValueNotFound)))
            }
        }
    }

    /// Runs a load that calls `finish` once, cancelling its progress when the task is cancelled.
    private func withLoad<T: Sendable>(
        _ start: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Progress
    ) async throws -> T {
        let progress = ProgressBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                progress.set(start { continuation.resume(with: $0) })
            }
        } onCancel: {
            progress.cancel()
        }
    }
}

/// The progress of a load, settable once the load starts and cancellable from any thread before or after.
// @unchecked: its mutable state is only touched under its lock.
private final class ProgressBox: @unchecked Sendable {
    private let lock = NSLock()
    private var progress: Progress?
    private var cancelled = false

    // lock() and unlock(), not withLock: Apple's Foundation has withLock from iOS 16 and macOS 13 only.
    func set(_ progress: Progress) {
        lock.lock()
        self.progress = progress
        let cancelNow = cancelled
        lock.unlock()
        if cancelNow { progress.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let progress = self.progress
        lock.unlock()
        progress?.cancel()
    }
}
