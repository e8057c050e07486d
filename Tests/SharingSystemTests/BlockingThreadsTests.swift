import Foundation
@testable import SharingSystem
import PackageSupport
import Testing

@Suite("Threads for blocking work")
struct BlockingThreadsTests {
    @Test("blocking work runs off Swift concurrency's threads: more blocked jobs than cores still all finish")
    func offTheCooperativePool() async {
        // Eight jobs that each wait until all have started would deadlock on a pool of two threads.
        let count = 8
        let started = Locked(0)
        let names = await withTaskGroup(of: String.self) { group in
            for _ in 0..<count {
                group.addTask {
                    await BlockingThreads.run { () -> String in
                        started.withLock { $0 += 1 }
                        while started.withLock({ $0 }) < count { usleep(1000) }
                        return BlockingThreads.currentThreadName
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names == Array(repeating: BlockingThreads.threadName, count: count))
    }

    @Test("run returns the work's value and rethrows its typed error")
    func results() async {
        #expect(await BlockingThreads.run { 6 * 7 } == 42)
        await #expect(throws: SystemError(.read, .cancelled, path: "x")) {
            try await BlockingThreads.run { () throws(SystemError) -> Int in throw SystemError(.read, .cancelled, path: "x") }
        }
    }

    @Test("concurrentPerform calls every index exactly once, on several threads at once", arguments: [0, 1, 2, 7, 100])
    func concurrentPerform(_ count: Int) {
        let calls = Locked([Int](repeating: 0, count: count))
        let threads = Locked(Set<String>())
        BlockingThreads.concurrentPerform(iterations: count, width: 4) { index in
            calls.withLock { $0[index] += 1 }
            threads.withLock { _ = $0.insert("\(pthread_self())") }
            usleep(1000)
        }
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: count))
        #expect(threads.withLock { $0.count } == min(count, 4) || count > 4 && threads.withLock { $0.count } > 1)
    }
}
