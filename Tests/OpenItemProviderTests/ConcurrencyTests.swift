import Foundation
@testable import OpenItemProvider
import OpenUniformTypeIdentifiers
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("many threads registering, querying, loading and cancelling at once: every load ends exactly once")
    func stress() async throws {
        let scratch = try Scratch()
        let root = try scratch.temporaryRoot()
        let file = try scratch.file("shared.txt", String(repeating: "x", count: 100_000))
        let provider = NSItemProvider()
        provider.temporaryDirectory = root
        provider.registerFileRepresentation(for: .plainText) { completion in
            completion(file, false, nil)
            return nil
        }
        let deliveries = Counter(), loads = 400
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<loads {
                group.addTask {
                    if index % 7 == 0 {
                        provider.registerDataRepresentation(forTypeIdentifier: "com.example.stress.\(index)", visibility: .all) { c in
                            c(Data("\(index)".utf8), nil)
                            return nil
                        }
                    }
                    _ = provider.registeredTypeIdentifiers
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let progress: Progress
                        if index % 2 == 0 {
                            progress = provider.loadFileRepresentation(for: .plainText) { _, _, _ in
                                deliveries.increment()
                                continuation.resume()
                            }
                        } else {
                            progress = provider.loadDataRepresentation(for: .plainText) { _, _ in
                                deliveries.increment()
                                continuation.resume()
                            }
                        }
                        if index % 3 == 0 { progress.cancel() }
                    }
                }
            }
        }
        #expect(deliveries.value == loads)
        let registered = (0..<loads).filter { $0 % 7 == 0 }.count
        #expect(provider.registeredTypeIdentifiers.count == registered + 1)
        #expect(await waitUntilEmpty(root))
    }
}
