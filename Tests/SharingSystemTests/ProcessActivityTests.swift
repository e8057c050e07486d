#if os(Linux)
import Foundation
import PackageSupport
@testable import SharingSystem
import Testing

@Suite("What this process's threads and sockets are doing, as the kernel says")
struct ProcessActivityTests {
    /// Waits until `condition` holds, looking again each millisecond; gives up after ten seconds.
    private func until(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }

    @Test("a thread at work is busy; the same thread waiting on a semaphore is not; an ended thread is not")
    func threads() async throws {
        let thread = Locked<Int32?>(nil)
        let spinning = Locked(true)
        let parked = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            thread.withLock { $0 = ProcessActivity.currentThread }
            while spinning.withLock({ $0 }) {}
            parked.wait()
            ended.signal()
        }
        let identifier = try await BlockingThreads.run { () -> Int32? in
            _ = until { thread.withLock { $0 } != nil }
            return thread.withLock { $0 }
        }
        let id = try #require(identifier)
        #expect(await BlockingThreads.run { until { ProcessActivity.work(of: id) == .running } })
        spinning.withLock { $0 = false }
        // Asleep in the semaphore's wait: a quiet thread.
        #expect(await BlockingThreads.run { until { ProcessActivity.work(of: id) == nil } })
        parked.signal()
        ended.wait()
        #expect(await BlockingThreads.run { until { ProcessActivity.work(of: id) == nil } })
    }

    @Test("a connected TCP socket is a network stream held")
    func sockets() throws {
        // This process serves the connection too, and other tests may hold sockets of their own: only that a
        // connected stream is seen is asserted here; what is not a stream, in the extension's own process
        // (the runtime's tests of a stuck sheet).
        let directory = try TemporaryDirectory(in: nil)
        defer { directory.remove() }
        let server = try LoopbackFileServer(serving: directory.url)
        defer { server.stop() }
        let port = try #require(server.base.port)
        let stream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(stream) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(stream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        #expect(ProcessActivity.holdsNetworkStream())
    }
}
#endif
