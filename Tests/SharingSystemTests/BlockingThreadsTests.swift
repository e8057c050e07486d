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
        // How many calls run at once, and the most that ever did: each call waits (up to 5 s, however loaded the
        // machine) for a second to be running beside it, so that a helper thread that starts late still meets one.
        let running = Locked((now: 0, most: 0))
        BlockingThreads.concurrentPerform(iterations: count, width: 4) { index in
            calls.withLock { $0[index] += 1 }
            threads.withLock { _ = $0.insert("\(pthread_self())") }
            running.withLock { $0 = ($0.now + 1, max($0.most, $0.now + 1)) }
            let deadline = Date().addingTimeInterval(5)
            while count > 1, running.withLock({ $0.most }) < 2, Date() < deadline { usleep(200) }
            running.withLock { $0.now -= 1 }
        }
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: count))
        #expect(count < 2 ? running.withLock { $0.most } == count : (2...4).contains(running.withLock { $0.most }))
        #expect(threads.withLock { $0.count } <= min(count, 4))
    }
}
