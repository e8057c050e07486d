import Foundation
import OpenItemProvider
import SharingShim
import Testing

/// `ProcessInfo.performExpiringActivity`, as an extension's work after completion uses it.
@Suite("Expiring activities")
struct ExpiringActivityTests {
    @Test("an expiring activity runs at once, then, when time runs out, is called again with true; the completion handler is work too")
    func expiringActivity() async {
        let calls = Calls()
        let before = ProcessActivities.count
        ProcessInfo.processInfo.performExpiringActivity(withReason: "test") { expired in
            calls.add(expired)
            if !expired { while !calls.all.contains(true) { usleep(1000) } }
        }
        while calls.all.isEmpty { await Task.yield() }
        #expect(calls.all == [false] && ProcessActivities.count == before + 1)
        ProcessActivities.expire()
        while ProcessActivities.count > before { await Task.yield() }
        #expect(calls.all == [false, true])
    }
}

private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool] = []
    var all: [Bool] { lock.withLock { values } }
    func add(_ value: Bool) { lock.withLock { values.append(value) } }
}
