import Foundation
import SharingShim
import Testing

/// A controller that writes down what the system calls on it, in order.
@MainActor
private final class Recorder: SLComposeServiceViewController {
    var calls: [String] = []
    override func willMove(toParent parent: UIViewController?) { calls.append("willMove") }
    override func viewDidLoad() { calls.append("viewDidLoad(context: \(extensionContext != nil))") }
    override func didMove(toParent parent: UIViewController?) { calls.append("didMove") }
    override func configurationItems() -> [Any]! {
        calls.append("configurationItems(text: \(contentText ?? "nil"))")
        return []
    }
    override func viewWillAppear(_ animated: Bool) { calls.append("viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { calls.append("viewDidAppear") }
    override func presentationAnimationDidFinish() { calls.append("presentationAnimationDidFinish") }
}

@Suite("The headless view controllers extension principals subclass")
@MainActor
struct ExtensionUITests {
    private func context(contentText: String) -> NSExtensionContext {
        let item = NSExtensionItem()
        item.attributedContentText = NSAttributedString(string: contentText)
        return NSExtensionContext(inputItems: [item])
    }

    @Test("presented as the system presents a principal: context first, then load, move, sheet set-up, appear")
    func lifecycle() {
        let controller = Recorder()
        ExtensionPresenter.present(controller, with: context(contentText: "Hello"))
        #expect(controller.calls == ["willMove", "viewDidLoad(context: true)", "didMove", "configurationItems(text: Hello)",
                                     "viewWillAppear", "viewDidAppear", "presentationAnimationDidFinish"])
    }

    @Test("the compose sheet's Post completes with no items; Cancel cancels with NSUserCancelledError")
    func composeDefaults() async {
        let posted = context(contentText: "")
        let poster = SLComposeServiceViewController()
        ExtensionPresenter.present(poster, with: posted)
        poster.didSelectPost()
        guard case .completed(let items)? = posted.outcome else { Issue.record("\(String(describing: posted.outcome))"); return }
        #expect(items.isEmpty)

        let cancelled = context(contentText: "")
        let canceller = SLComposeServiceViewController()
        ExtensionPresenter.present(canceller, with: cancelled)
        canceller.cancel()
        guard case .cancelled(let error)? = cancelled.outcome else { Issue.record("\(String(describing: cancelled.outcome))"); return }
        #expect((error as NSError).domain == NSCocoaErrorDomain)
        #expect((error as NSError).code == NSUserCancelledError)
    }

    @Test("the responder chain ends at an application whose open(_:) asks the host through the context")
    func openThroughTheChain() async {
        let context = context(contentText: "")
        let asked = Asked()
        context.openURLHandler = { url, reply in
            asked.url = url
            reply(false)
        }
        let controller = UIViewController()
        ExtensionPresenter.present(controller, with: context)
        let application = controller.next as? UIApplication
        #expect(application != nil)
        let opened = await withCheckedContinuation { continuation in
            application?.open(URL(string: "app://x")!, options: [:]) { continuation.resume(returning: $0) }
        }
        #expect(opened == false)
        #expect(asked.url == URL(string: "app://x"))
    }

    @Test("a presented controller shares the context, and dismissing it from itself returns to its presenter")
    func presentAndDismiss() {
        let context = context(contentText: "")
        let presenter = UIViewController()
        ExtensionPresenter.present(presenter, with: context)
        let alert = UIViewController()
        presenter.present(alert, animated: true)
        #expect(alert.extensionContext === context)
        #expect(presenter.presentedViewController === alert && alert.presentingViewController === presenter)
        alert.dismiss(animated: true)
        #expect(presenter.presentedViewController == nil && alert.presentingViewController == nil)
    }
}

private final class Asked: @unchecked Sendable {
    var url: URL?
}
