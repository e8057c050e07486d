// For tests: an extension that allocates and touches memory, 5 MB every 10 ms (500 MB/s), until it is
// stopped.
import ExtensionRuntime
import Foundation
import OpenItemProvider

final class MemoryHog: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        Thread.detachNewThread {
            var kept: [UnsafeMutableRawPointer] = []
            while true {
                let chunk = UnsafeMutableRawPointer.allocate(byteCount: 5 << 20, alignment: 4096)
                chunk.initializeMemory(as: UInt8.self, repeating: 0xA5, count: 5 << 20)
                kept.append(chunk)
                usleep(10_000)
            }
        }
    }
}

ExtensionProcess.run(MemoryHog.init)
