import Foundation
import SharingShim
import Testing

/// Combine through SharingShim, as extension code writes it: `@Published` and `sink`, `Future`, a main-queue
/// scheduler, and Foundation's timer and notification publishers.
@Suite("Combine through SharingShim")
struct CombineTests {
    /// A view model as extensions keep theirs.
    final class Upload: @unchecked Sendable {
        @Published var progress = 0.0
    }

    @Test("@Published sends the current value, then each change, until the AnyCancellable goes")
    func published() {
        let upload = Upload()
        var seen: [Double] = []
        var cancellable: AnyCancellable? = upload.$progress.sink { seen.append($0) }
        upload.progress = 0.5
        upload.progress = 1
        cancellable = nil
        upload.progress = 0.25
        #expect(seen == [0, 0.5, 1] && cancellable == nil)
    }

    @Test("a Future's promise, kept on another queue, reaches a sink received on the main queue")
    func future() async {
        // Which queue the sink runs on, told by a value only the main queue holds (in a test process the main
        // queue's work may run on another thread).
        let onMain = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: onMain, value: true)
        defer { DispatchQueue.main.setSpecific(key: onMain, value: nil) }
        let value: Int = await withCheckedContinuation { continuation in
            var bag = Set<AnyCancellable>()
            // Extension code, in Swift 5 mode, captures the promise as it is; this test is in Swift 6 mode.
            Future<Int, Never> { promise in
                nonisolated(unsafe) let promise = promise
                DispatchQueue.global().async { promise(.success(42)) }
            }
                .receive(on: DispatchQueue.main)
                .sink { value in
                    #expect(DispatchQueue.getSpecific(key: onMain) == true)
                    continuation.resume(returning: value)
                    bag.removeAll()
                }
                .store(in: &bag)
        }
        #expect(value == 42)
    }

    @Test("NotificationCenter's publisher delivers what its name and object match, as demanded, until cancelled")
    func notifications() {
        let center = NotificationCenter()
        let sender = NSObject(), other = NSObject()
        var received: [String] = []
        let all = center.publisher(for: Notification.Name("com.example.newMessage"))
            .sink { received.append("all:\($0.userInfo?["id"] as? Int ?? -1)") }
        let first = center.publisher(for: Notification.Name("com.example.newMessage"), object: sender)
            .prefix(1)
            .sink { received.append("first:\($0.userInfo?["id"] as? Int ?? -1)") }
        center.post(name: Notification.Name("com.example.newMessage"), object: other, userInfo: ["id": 1])
        center.post(name: Notification.Name("com.example.newMessage"), object: sender, userInfo: ["id": 2])
        center.post(name: Notification.Name("com.example.newMessage"), object: sender, userInfo: ["id": 3])
        center.post(name: Notification.Name("com.example.other"), object: sender, userInfo: ["id": 4])
        all.cancel()
        center.post(name: Notification.Name("com.example.newMessage"), object: sender, userInfo: ["id": 5])
        // Observers of one post are called in no promised order.
        #expect(received.sorted() == ["all:1", "all:2", "all:3", "first:2"])
        first.cancel()
    }

    @Test("Timer.publish ticks on its run loop once connected, to each subscriber, and stops when cancelled")
    func timer() async {
        let ticks: [Date] = await withCheckedContinuation { continuation in
            let thread = Thread {
                var bag = Set<AnyCancellable>()
                var ticks: [Date] = []
                var finished = false
                let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
                #expect(publisher.interval == 0.01 && publisher.mode == .default)
                publisher.autoconnect()
                    .prefix(3)
                    .sink(receiveCompletion: { _ in finished = true }, receiveValue: { ticks.append($0) })
                    .store(in: &bag)
                // Runs the thread's loop in short turns until the third tick (at most ten seconds).
                for _ in 0..<200 where !finished { RunLoop.current.run(until: Date() + 0.05) }
                continuation.resume(returning: ticks)
            }
            thread.start()
        }
        #expect(ticks.count == 3 && ticks == ticks.sorted())
    }
}
