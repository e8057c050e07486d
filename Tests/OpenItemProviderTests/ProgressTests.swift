import Foundation
@testable import OpenItemProvider
import OpenUniformTypeIdentifiers
import Testing

@Suite("Progress and cancellation")
struct ProgressTests {
    @Test("a loader without a progress of its own: one is synthesized, 0 until the load completes, then 100 %")
    func synthesized() async throws {
        let gate = Latch()
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .plainText) { completion in
            gate.wait()
            completion(Data("x".utf8), nil)
            return nil
        }
        let finished = Latch()
        let progress = provider.loadDataRepresentation(for: .plainText) { _, _ in finished.open() }
        try await Task.sleep(for: .milliseconds(20))
        #expect(progress.fractionCompleted == 0)
        gate.open()
        finished.wait()
        try await Task.sleep(for: .milliseconds(20))
        #expect(progress.fractionCompleted == 1)
    }

    @Test("a loader's own progress is linked: its fraction shows, and cancelling reaches it")
    func linked() async throws {
        let provider = NSItemProvider()
        let loaderProgress = Progress(totalUnitCount: 10)
        let loaderCancelled = Latch()
        loaderProgress.cancellationHandler = { loaderCancelled.open() }
        let reachedHalf = Latch()
        provider.registerDataRepresentation(for: .plainText) { _ in
            loaderProgress.completedUnitCount = 5
            reachedHalf.open()
            return loaderProgress  // never completes on its own
        }
        let outcome = Outcome()
        let progress = provider.loadDataRepresentation(for: .plainText) { data, error in outcome.set(data, error) }
        reachedHalf.wait()
        try await Task.sleep(for: .milliseconds(20))
        #expect(abs(progress.fractionCompleted - 0.5) < 0.01)
        progress.cancel()
        loaderCancelled.wait()
        #expect(loaderProgress.isCancelled)
        let (data, error) = await outcome.value()
        #expect(data == nil)
        #expect((error as NSError?)?.code == CocoaError.userCancelled.rawValue)
    }

    @Test("a copied file's progress only grows and ends at 100 %")
    func copyProgress() async throws {
        let scratch = try Scratch()
        let file = scratch.url.appendingPathComponent("big.bin")
        try Data(count: 64 << 20).write(to: file)
        let provider = NSItemProvider()
        provider.registerFileRepresentation(for: .data) { completion in
            completion(file, false, nil)
            return nil
        }
        let done = Latch()
        let progress = provider.loadFileRepresentation(for: .data) { _, _, _ in done.open() }
        var samples: [Double] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while progress.fractionCompleted < 1, ContinuousClock.now < deadline {
            samples.append(progress.fractionCompleted)
            try await Task.sleep(for: .microseconds(200))
        }
        done.wait()
        samples.append(progress.fractionCompleted)
        #expect(samples.last == 1)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("a completion arrives exactly once even when the loader calls back twice or after a cancellation")
    func exactlyOnce() async throws {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .plainText) { completion in
            completion(Data("first".utf8), nil)
            completion(Data("second".utf8), nil)
            return nil
        }
        let calls = Counter()
        _ = provider.loadDataRepresentation(for: .plainText) { _, _ in calls.increment() }
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.value == 1)
    }
}

final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: (Data?, (any Error)?)?
    private var waiters: [CheckedContinuation<(Data?, (any Error)?), Never>] = []

    func set(_ data: Data?, _ error: (any Error)?) {
        let waiting = lock.withLock { () -> [CheckedContinuation<(Data?, (any Error)?), Never>] in
            result = (data, error)
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume(returning: (data, error)) }
    }

    func value() async -> (Data?, (any Error)?) {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let result { lock.unlock(); continuation.resume(returning: result) } else { waiters.append(continuation); lock.unlock() }
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
