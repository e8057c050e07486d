// The benchmark's extension: at beginRequest it notes the time (CLOCK_MONOTONIC) and its own footprint, then
// loads its first attachment's 64 bytes of data COUNT times, one after another, and returns the median round
// trip (from the call to the completion handler's start); the host prints all three.
import ExtensionRuntime
import Foundation
import OpenItemProvider

func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

final class RoundTrip: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let begun = monotonicNanoseconds()
        let text = (try? String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8)) ?? ""
        let footprint = text.split(separator: "\n").filter { $0.hasPrefix("Private_Dirty:") || $0.hasPrefix("Swap:") }
            .compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } }
            .reduce(0, +) * 1024
        let count = (Bundle.main.object(forInfoDictionaryKey: "RoundTripCount") as? Int) ?? 1000
        guard let provider = (context.inputItems.first as? NSExtensionItem)?.attachments?.first else {
            return context.cancelRequest(withError: NSError(domain: "RoundTrip", code: 1))
        }
        Thread.detachNewThread {
            var samples: [Int] = []
            // Written by the completion handler before it signals, read after the wait.
            nonisolated(unsafe) let answered = UnsafeMutablePointer<Int>.allocate(capacity: 1)
            for _ in 0..<count {
                let done = DispatchSemaphore(value: 0)
                let start = monotonicNanoseconds()
                provider.loadDataRepresentation(forTypeIdentifier: "public.data") { _, _ in
                    answered.pointee = monotonicNanoseconds()
                    done.signal()
                }
                done.wait()
                samples.append(answered.pointee - start)
            }
            answered.deallocate()
            let median = samples.sorted()[samples.count / 2]
            let result = NSExtensionItem()
            result.attachments = [NSItemProvider(item: "\(begun) \(footprint) \(median)" as NSString, typeIdentifier: "public.plain-text")]
            context.completeRequest(returningItems: [result])
        }
    }
}

ExtensionProcess.run(RoundTrip.init)
