import Foundation
@testable import OpenItemProvider
import OpenUniformTypeIdentifiers
import SharingSystem
import PackageSupport
import Testing

/// Temporary files live exactly as long as the completion handler runs, and nothing is left behind by any
/// load: successful, failed or cancelled.
@Suite("Temporary file lifetime")
struct LifetimeTests {
    @Test("a copy exists while the handler runs and is gone when it returns")
    func whileHandlerRuns() async throws {
        let scratch = try Scratch()
        let root = try scratch.temporaryRoot()
        let provider = NSItemProvider()
        provider.temporaryDirectory = root
        provider.registerDataRepresentation(for: .plainText) { completion in
            completion(Data("kept while handled".utf8), nil)
            return nil
        }
        let existedDuring: (URL?, Bool) = await withCheckedContinuation { continuation in
            provider.loadFileRepresentation(for: .plainText) { url, _, _ in
                // Slow handler: the file must stay for as long as it runs.
                Thread.sleep(forTimeInterval: 0.2)
                continuation.resume(returning: (url, url.map { FileManager.default.fileExists(atPath: $0.path) } ?? false))
            }
        }
        #expect(existedDuring.1)
        #expect(existedDuring.0?.path.hasPrefix(root.path) == true)
        #expect(await waitUntilEmpty(root))
    }

    @Test("nothing is left after loads that fail: a loader error, a missing file, no representation")
    func afterFailures() async throws {
        let scratch = try Scratch()
        let root = try scratch.temporaryRoot()
        let provider = NSItemProvider()
        provider.temporaryDirectory = root
        provider.registerDataRepresentation(for: .jpeg) { completion in
            completion(nil, CocoaError(.fileReadCorruptFile))
            return nil
        }
        provider.registerFileRepresentation(for: .png) { completion in
            completion(URL(fileURLWithPath: "/nonexistent/opensharing.png"), false, nil)
            return nil
        }
        let loaderError = await observeFile(provider, .jpeg, openInPlace: false)
        #expect(loaderError.error?.domain == NSCocoaErrorDomain)
        let missing = await observeFile(provider, .png, openInPlace: false)
        #expect(missing.error?.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue)
        #expect(missing.error?.localizedDescription.contains("/nonexistent/opensharing.png") == true)
        let none = await observeFile(provider, .pdf, openInPlace: false)
        #expect(none.error?.domain == NSItemProviderErrorDomain)
        #expect(none.error?.localizedDescription == "No representation conforms to com.adobe.pdf; the item provider has public.jpeg, public.png.")
        #expect(await waitUntilEmpty(root))
    }

    @Test("nothing is left after a load cancelled in the middle of copying, nor after one whose consumer gave up")
    func afterCancellation() async throws {
        let scratch = try Scratch()
        let root = try scratch.temporaryRoot()
        // 64 MB: several copy chunks, so the copy notices the cancellation between two.
        let big = scratch.url.appendingPathComponent("big.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        let provider = NSItemProvider()
        provider.temporaryDirectory = root
        let started = Latch()
        provider.registerFileRepresentation(for: .data) { completion in
            started.open()
            // The loader takes a moment before handing over its file.
            Thread.sleep(forTimeInterval: 0.05)
            completion(big, false, nil)
            return nil
        }
        let result: (URL?, NSError?) = await withCheckedContinuation { continuation in
            let progress = provider.loadFileRepresentation(for: .data) { url, _, error in
                continuation.resume(returning: (url, error as NSError?))
            }
            started.wait()
            progress.cancel()
        }
        #expect(result.0 == nil)
        #expect(result.1?.domain == NSCocoaErrorDomain && result.1?.code == CocoaError.userCancelled.rawValue)
        #expect(await waitUntilEmpty(root, timeout: .seconds(10)))
    }
}

@Suite("Cancelling a load")
struct CancellationTests {
    @Test("the cancellation error arrives once, on another thread, never inside the call to cancel()")
    func notInsideCancel() async throws {
        let provider = NSItemProvider()
        // A loader that never answers: only the cancellation ends the load.
        provider.registerDataRepresentation(forTypeIdentifier: "public.data", visibility: .all) { _ in nil }
        let answers = Locked<[(onCancellingThread: Bool, error: NSError?)]>([])
        let cancelling = Locked<pthread_t?>(nil)
        let done = Latch()
        let progress = provider.loadDataRepresentation(forTypeIdentifier: "public.data") { _, error in
            let here = pthread_self()
            let same = cancelling.withLock { $0.map { pthread_equal($0, here) != 0 } } ?? false
            answers.withLock { $0.append((same, error as NSError?)) }
            done.open()
        }
        // Delivered inside cancel(), the handler would run on this thread, where a consumer may hold a lock
        // its handler needs.
        Thread.detachNewThread {
            cancelling.withLock { $0 = pthread_self() }
            progress.cancel()
        }
        done.wait()
        try await Task.sleep(for: .milliseconds(50))
        let seen = answers.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first?.onCancellingThread == false)
        #expect(seen.first?.error?.domain == NSCocoaErrorDomain && seen.first?.error?.code == CocoaError.userCancelled.rawValue)
    }
}

/// A one-shot gate between threads.
final class Latch: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func wait() { semaphore.wait() }
}
