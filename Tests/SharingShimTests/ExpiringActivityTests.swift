import Foundation
import OpenItemProvider
import SharingShim
import Testing

/// `ProcessInfo.performExpiringActivity`, as an extension's work after completion uses it.
@Suite("Expiring activities")
struct ExpiringActivityTests {
    // Other tests in this process begin and end activities of their own (a completion handler is one), so
    // the count is only ever checked to include this one, and the test waits on the block's own calls.
    @Test("an expiring activity runs at once and counts as work while it runs; when time runs out, it is called again with true")
    func expiringActivity() async {
        let calls = Calls()
        ProcessInfo.processInfo.performExpiringActivity(withReason: "test") { expired in
            calls.add(expired)
            if !expired { while !calls.all.contains(true) { usleep(1000) } }
        }
        while calls.all.isEmpty { await Task.yield() }
        #expect(calls.all == [false])
        #expect(ProcessActivities.count >= 1)
        ProcessActivities.expire()
        while !calls.all.contains(true) { await Task.yield() }
        #expect(calls.all == [false, true])
    }
}

private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool] = []
    var all: [Bool] { lock.withLock { values } }
    func add(_ value: Bool) { lock.withLock { values.append(value) } }
}
