import Foundation
import OpenItemProvider
import OpenExtensionUI
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
        guard case .completed(let items)? = posted.outcome else { Issue.record("posted: \(String(describing: posted.outcome))"); return }
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

/// A compose sheet whose content becomes valid only once its attachment has loaded, as share extensions
/// validate after loading.
@MainActor
private final class LateSheet: SLComposeServiceViewController {
    var ready = false
    var posted = false
    override func isContentValid() -> Bool { ready }
    override func didSelectPost() { posted = true }
}

/// Brave's "Share to" pattern: loads its item, opens its app with it, and cancels a tenth of a second later.
@MainActor
private final class OpensItsApp: SLComposeServiceViewController {
    override func presentationAnimationDidFinish() {
        let provider = extensionContext?.inputItems.compactMap { ($0 as? NSExtensionItem)?.attachments?.first }.first
        provider?.loadItem(forTypeIdentifier: "public.plain-text", options: nil) { item, _ in
            let url = URL(string: "app://open?text=\((item as? String) ?? "")")!
            DispatchQueue.main.async {
                self.extensionContext?.open(url) { _ in }
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) {
                    self.extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
                }
            }
        }
    }
}

/// Serialized: the alert observer is the process's one.
@Suite("The scripted user, alerts, and work after completion", .serialized)
@MainActor
struct ScriptedUserTests {
    private func context() -> NSExtensionContext {
        NSExtensionContext(inputItems: [NSExtensionItem()])
    }

    /// Waits past the user's reaction time, the main queue running meanwhile: before asserting that the user
    /// did nothing.
    private func turn() async {
        try? await Task.sleep(for: ExtensionUser.reactionTime + .milliseconds(200))
    }

    /// Waits until `happened`, the main queue running meanwhile; gives up after ten seconds.
    private func until(_ happened: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(10)
        while !happened() && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    }

    @Test("a post control is named by a word of its title, whatever its case: Save Bookmark and SEND are, Saved and Postpone are not",
          arguments: [("Save Bookmark", true), ("SEND", true), ("Add to list", true), ("Saved", false), ("Postpone", false), ("", false)])
    func postWords(title: String, posts: Bool) {
        #expect(ExtensionPresenter.names(title, ExtensionPresenter.postTitles) == posts)
    }

    @Test("the user acts after a moment, and not at all once the extension has ended the request itself")
    func reactionTime() async {
        let context = context()
        let sheet = LateSheet()
        sheet.ready = true
        ExtensionPresenter.present(sheet, with: context, user: .cancel)
        context.completeRequest(returningItems: [])
        await turn()
        guard case .completed? = context.outcome else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(context.misuses.isEmpty, "the user did not tap Cancel after the request ended")
    }

    @Test("the user waits for the extension's work: a load answered three reaction times late, then its app opened late too, and the extension cancels first", arguments: [ExtensionUser.post, .cancel])
    func waitsForWork(user: ExtensionUser) async {
        // A host as slow as a busy machine makes it: each answer comes 1.5 s after it was asked for.
        let late = 1.5
        #expect(.seconds(late) == ExtensionUser.reactionTime * 3)
        let provider = NSItemProvider()
        provider.registerItem(forTypeIdentifier: "public.plain-text") { completion, _, _ in
            DispatchQueue.global().asyncAfter(deadline: .now() + late) { completion?("hello" as NSString, nil) }
        }
        let item = NSExtensionItem()
        item.attachments = [provider]
        let context = NSExtensionContext(inputItems: [item])
        let asked = Asked()
        context.openURLHandler = { url, reply in
            asked.url = url
            DispatchQueue.global().asyncAfter(deadline: .now() + late) { reply(true) }
        }
        ExtensionPresenter.present(OpensItsApp(), with: context, user: user)
        guard case .cancelled = await context.requestEnded() else {
            Issue.record("\(String(describing: context.outcome))")
            return
        }
        #expect(asked.url == URL(string: "app://open?text=hello"))
        #expect(context.misuses.isEmpty, "the user did not act after the request ended")
    }

    @Test("post waits for the content to be valid: it taps Post at the validation that makes it so, once")
    func postWhenValid() async {
        let sheet = LateSheet()
        ExtensionPresenter.present(sheet, with: context(), user: .post)
        await turn()
        #expect(!sheet.posted)
        sheet.ready = true
        sheet.validateContent()
        await until { sheet.posted }
        #expect(sheet.posted)
        sheet.posted = false
        sheet.validateContent()
        await turn()
        #expect(!sheet.posted, "the user taps Post once")
    }

    @Test("none touches nothing; cancel taps Cancel, which cancels the request", arguments: [ExtensionUser.none, .cancel])
    func noneAndCancel(user: ExtensionUser) async {
        let context = context()
        let sheet = LateSheet()
        sheet.ready = true
        ExtensionPresenter.present(sheet, with: context, user: user)
        if user == .cancel { _ = await context.requestEnded() } else { await turn() }
        #expect(!sheet.posted)
        if user == .cancel {
            guard case .cancelled(let error)? = context.outcome else { Issue.record("\(String(describing: context.outcome))"); return }
            #expect((error as NSError).code == NSUserCancelledError)
        } else {
            #expect(context.outcome == nil)
        }
    }

    @Test("an alert is recorded and answered: post presses the preferred action, cancel the cancel one, none nothing; the handler runs after it goes", arguments: [
        (ExtensionUser.post, "Keep"), (.cancel, "Never mind"), (.none, nil),
    ] as [(ExtensionUser, String?)])
    func alerts(user: ExtensionUser, expected: String?) async {
        let presenter = UIViewController()
        ExtensionPresenter.present(presenter, with: context(), user: user)
        var recorded: [PresentedAlert] = []
        ExtensionPresenter.alertObserver = { recorded.append($0) }
        defer { ExtensionPresenter.alertObserver = nil }
        var pressed: [String] = []
        let alert = UIAlertController(title: "Keep the draft?", message: "It is not posted.", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Discard", style: .destructive) { pressed.append($0.title ?? "") })
        alert.addAction(UIAlertAction(title: "Never mind", style: .cancel) { pressed.append($0.title ?? "") })
        let keep = UIAlertAction(title: "Keep", style: .default) { _ in pressed.append("Keep") }
        alert.addAction(keep)
        alert.preferredAction = keep
        presenter.present(alert, animated: true)
        if expected == nil { await turn() } else { await until { !pressed.isEmpty } }
        #expect(pressed == (expected.map { [$0] } ?? []))
        #expect(presenter.presentedViewController == (expected == nil ? alert : nil))
        #expect(recorded == [PresentedAlert(title: "Keep the draft?", message: "It is not posted.",
                                            actions: [("Discard", "destructive"), ("Never mind", "cancel"), ("Keep", "default")],
                                            chosen: expected.flatMap { title in ["Discard", "Never mind", "Keep"].firstIndex(of: title) })])
    }
}

private final class Asked: @unchecked Sendable {
    var url: URL?
}
