import Foundation
@testable import OpenItemProvider
import Synchronization
import Testing

@Suite("Extension items and contexts")
struct ExtensionContextTests {
    @Test("an item keeps title, content text and attachments in userInfo under Apple's keys")
    func item() {
        let item = NSExtensionItem()
        item.attributedTitle = NSAttributedString(string: "Title")
        item.attributedContentText = NSAttributedString(string: "Body")
        let provider = NSItemProvider(object: "text" as NSString)
        item.attachments = [provider]
        #expect((item.userInfo?[NSExtensionItemAttributedTitleKey] as? NSAttributedString)?.string == "Title")
        #expect((item.userInfo?[NSExtensionItemAttributedContentTextKey] as? NSAttributedString)?.string == "Body")
        #expect((item.userInfo?[NSExtensionItemAttachmentsKey] as? [NSItemProvider])?.first === provider)
        item.userInfo = ["custom": 1]
        #expect(item.attachments == nil && item.attributedTitle == nil)
        #expect(item.userInfo?["custom"] as? Int == 1)
        let copy = item.copy() as! NSExtensionItem
        #expect(copy.userInfo?["custom"] as? Int == 1)
    }

    @Test("completing a request: the host sees the returned items, the handler learns it did not expire")
    func complete() async {
        let input = NSExtensionItem()
        let context = NSExtensionContext(inputItems: [input])
        #expect((context.inputItems.first as? NSExtensionItem) === input)
        #expect(context.outcome == nil)
        let returned = NSExtensionItem()
        let expired: Bool = await withCheckedContinuation { c in context.completeRequest(returningItems: [returned]) { c.resume(returning: $0) } }
        #expect(expired == false)
        guard case .completed(let items)? = context.outcome else { Issue.record("not completed"); return }
        #expect((items.first as? NSExtensionItem) === returned)
    }

    @Test("cancelling a request: the host sees the error")
    func cancel() async {
        let context = NSExtensionContext(inputItems: [])
        async let ended = context.requestEnded()
        context.cancelRequest(withError: CocoaError(.userCancelled))
        guard case .cancelled(let error) = await ended else { Issue.record("not cancelled"); return }
        #expect((error as NSError).code == CocoaError.userCancelled.rawValue)
    }

    @Test("ending a request twice is reported, not obeyed and not a crash")
    func twice() {
        let context = NSExtensionContext(inputItems: [])
        context.completeRequest(returningItems: nil)
        context.cancelRequest(withError: CocoaError(.userCancelled))
        context.completeRequest(returningItems: [])
        guard case .completed(let items)? = context.outcome else { Issue.record("the first end did not hold"); return }
        #expect(items.isEmpty)
        #expect(context.misuses == [
            "NSExtensionContext: cancelRequest(withError:) called after the request was already completed; ignored.",
            "NSExtensionContext: completeRequest(returningItems:) called after the request was already completed; ignored.",
        ])
    }

    @Test("opening a URL asks the host, by completion handler or async as Apple's SDK imports it; without a handler the host refuses")
    func openURL() async {
        let context = NSExtensionContext(inputItems: [])
        let refused: Bool = await withCheckedContinuation { c in context.open(URL(string: "app://x")!) { c.resume(returning: $0) } }
        #expect(!refused)
        context.openURLHandler = { url, reply in reply(url.scheme == "app") }
        let opened: Bool = await withCheckedContinuation { c in context.open(URL(string: "app://x")!) { c.resume(returning: $0) } }
        #expect(opened)
        #expect(await context.open(URL(string: "app://y")!))
        #expect(await !context.open(URL(string: "other://y")!))
    }

    @Test("the host is asked before open(_:) returns, so a completion right after it follows the request; the answer comes on another thread")
    func openIsAskedInOrder() {
        let context = NSExtensionContext(inputItems: [])
        let asked = Mutex<[URL]>([])
        let caller = Thread.current
        let answeredOn = Mutex<Thread?>(nil)
        let answered = DispatchSemaphore(value: 0)
        context.openURLHandler = { url, reply in
            asked.withLock { $0.append(url) }
            reply(true)
        }
        context.open(URL(string: "app://first")!) { _ in
            answeredOn.withLock { $0 = Thread.current }
            answered.signal()
        }
        #expect(asked.withLock { $0 } == [URL(string: "app://first")!])
        context.completeRequest(returningItems: [])
        #expect(answered.wait(timeout: .now() + 10) == .success)
        #expect(answeredOn.withLock { $0 } !== caller)
    }

    @Test("a context made with init() has no input items, as Apple's NSObject one")
    func emptyContext() {
        let context = NSExtensionContext()
        #expect(context.inputItems.isEmpty && context.outcome == nil)
    }

    @Test("completeRequest without await inside a Task compiles and completes: there is no async overload to choose")
    func completeInTask() async {
        let context = NSExtensionContext()
        await Task {
            context.completeRequest(returningItems: [])
        }.value
        guard case .completed? = context.outcome else { Issue.record("not completed"); return }
    }
}
