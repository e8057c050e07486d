import SharingShim
import Testing

/// Code written for iOS in Swift 6 mode: a main-actor view controller calling its own methods from item-provider
/// completion handlers. Apple's handlers are imported from Objective-C, so `@preconcurrency`: this compiles
/// there with warnings, and must here too (it would not build at all if these were errors).
@MainActor
final class MainActorShareController {
    var extensionContext: NSExtensionContext?

    nonisolated func note(_ text: String) {}

    /// Main-actor isolated; the handlers below call it from the provider's threads, as iOS code does.
    func record(_ text: String) {
        _ = text.count
    }

    func load(_ provider: NSItemProvider, done: @escaping @Sendable () -> Void) {
        provider.loadItem(forTypeIdentifier: kUTTypeText as String, options: nil) { item, _ in
            // A main-actor call from a handler Apple imports as @preconcurrency: a warning, not an error.
            self.record("item")
            done()
        }
        provider.loadDataRepresentation(forTypeIdentifier: UTType.plainText.identifier) { _, _ in
            self.record("data")
            done()
        }
        extensionContext?.completeRequest(returningItems: [], completionHandler: { _ in self.note("completed") })
    }
}

@Suite("Concurrency strictness as Apple's")
struct StrictnessTests {
    @Test("main-actor code calling itself from item-provider completion handlers compiles (with warnings) and runs")
    @MainActor
    func mainActorHandlers() async {
        let controller = MainActorShareController()
        controller.extensionContext = NSExtensionContext()
        let provider = NSItemProvider(item: "hello" as NSString, typeIdentifier: UTType.plainText.identifier)
        await withCheckedContinuation { continuation in
            let remaining = Countdown(2) { continuation.resume() }
            controller.load(provider) { remaining.tick() }
        }
        guard case .completed? = controller.extensionContext?.outcome else { Issue.record("not completed"); return }
    }
}

/// Calls `action` once `count` ticks arrived, from any thread.
final class Countdown: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    private let action: @Sendable () -> Void

    init(_ count: Int, action: @escaping @Sendable () -> Void) {
        self.count = count
        self.action = action
    }

    func tick() {
        let fire = lock.withLock { () -> Bool in
            count -= 1
            return count == 0
        }
        if fire { action() }
    }
}
