public import Foundation
import SharingSystem

/// What an extension's request is about and how it ends: the host's input items, and exactly one of
/// `completeRequest(returningItems:completionHandler:)` or `cancelRequest(withError:)`.
///
/// Stands in for Foundation's `NSExtensionContext`. The host side is OpenSharing's addition: a host makes
/// a context with `init(inputItems:)` and observes `outcome` (or awaits `requestEnded()`). Ending a request
/// a second time is a mistake Apple's system reports in the console; here it is ignored, written to
/// standard error, and listed in `misuses`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check; its state is under a lock.
open class NSExtensionContext: NSObject, @unchecked Sendable {
    /// How a request ended.
    // @unchecked: it holds the returned items and the error as Apple's API types them ([Any], any Error), handed to one observer.
    public enum Outcome: @unchecked Sendable {
        /// The extension completed it, returning these items.
        case completed(returnedItems: [Any])
        /// The extension cancelled it with this error.
        case cancelled(any Error)
    }

    private let lock = NSLock()
    private let items: [Any]
    private var ended: Outcome?
    private var waiters: [CheckedContinuation<Outcome, Never>] = []
    private var mistakes: [String] = []
    private var urlOpener: (@Sendable (URL, @escaping @Sendable (Bool) -> Void) -> Void)?
    private var endedAgainObserver: (@Sendable (String) -> Void)?

    /// A context for a request about `inputItems` (normally `NSExtensionItem`s).
    public init(inputItems: [Any]) {
        self.items = inputItems
        super.init()
        for case let item as NSExtensionItem in inputItems {
            for provider in item.attachments ?? [] { provider.work = work }
        }
    }

    /// What the request has in progress: loads of its input and URLs being opened (OpenSharing).
    package let work = WorkInProgress()

    /// A context with no input items. Stands in for `NSExtensionContext.init()`.
    override public convenience init() {
        self.init(inputItems: [])
    }

    /// The items the host shared. Stands in for `NSExtensionContext.inputItems`.
    open var inputItems: [Any] { items }

    /// Ends the request successfully, returning items to the host (an action extension's results). The
    /// completion handler runs on another thread with `expired == false`; the process stays alive while it
    /// runs (work after completion, such as an upload), until the time after completion runs out.
    ///
    /// Stands in for `NSExtensionContext.completeRequest(returningItems:completionHandler:)`.
    @preconcurrency open func completeRequest(returningItems items: [Any]?, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        guard end(.completed(returnedItems: items ?? []), by: "completeRequest(returningItems:)") else { return }
        guard let completionHandler else { return }
        let activity = ProcessActivities.begin()
        BlockingThreads.submit {
            completionHandler(false)
            ProcessActivities.end(activity)
        }
    }

    /// Ends the request with an error (use `NSUserCancelledError` in `NSCocoaErrorDomain` when the user
    /// cancelled). Stands in for `NSExtensionContext.cancelRequest(withError:)`.
    open func cancelRequest(withError error: any Error) {
        end(.cancelled(error), by: "cancelRequest(withError:)")
    }

    /// Asks the host to open a URL; the handler learns whether it did.
    ///
    /// Stands in for `NSExtensionContext.open(_:completionHandler:)`. The host decides through
    /// `openURLHandler`; without one, it refuses. The host is asked before this returns, so the request
    /// reaches it ahead of whatever the extension does next (completing its request, typically), as a
    /// message on the system's connection does; the answer comes later, never on the caller's stack.
    @preconcurrency open func open(_ url: URL, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        // The request's work until the handler has returned.
        let work = self.work
        work.begin()
        let answer: @Sendable (Bool) -> Void = { opened in
            BlockingThreads.submit {
                completionHandler?(opened)
                work.end()
            }
        }
        guard let opener = lock.withLock({ urlOpener }) else { return answer(false) }
        opener(url, answer)
    }

    /// Asks the host to open a URL, and answers whether it did.
    ///
    /// Stands in for `NSExtensionContext.open(_:) async -> Bool`. Apple's SDK imports no `async` form of
    /// `completeRequest(returningItems:completionHandler:)`, so neither is there one here: code calling
    /// it without `await` inside a `Task` must compile.
    public func open(_ URL: URL) async -> Bool {
        await withCheckedContinuation { continuation in
            open(URL) { continuation.resume(returning: $0) }
        }
    }

    // MARK: The host's side (OpenSharing)

    /// How the request ended, or `nil` while it has not.
    public var outcome: Outcome? { lock.withLock { ended } }

    /// Waits until the extension ends the request, and answers how.
    public func requestEnded() async -> Outcome {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let ended {
                lock.unlock()
                continuation.resume(returning: ended)
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Mistakes the extension made with this context (ending the request twice), in order.
    public var misuses: [String] { lock.withLock { mistakes } }

    /// What the host does when the extension asks to open a URL: it answers, once, whether it opened it (the
    /// answer may come later, from another process); `nil` refuses every URL.
    public var openURLHandler: (@Sendable (URL, @escaping @Sendable (Bool) -> Void) -> Void)? {
        get { lock.withLock { urlOpener } }
        set { lock.withLock { urlOpener = newValue } }
    }

    /// Told the call (`completeRequest(returningItems:)`, `cancelRequest(withError:)`) each time the extension
    /// ends its already ended request: the runtime reports it to the host (OpenSharing).
    package final var onEndedAgain: (@Sendable (String) -> Void)? {
        get { lock.withLock { endedAgainObserver } }
        set { lock.withLock { endedAgainObserver = newValue } }
    }

    @discardableResult
    private func end(_ outcome: Outcome, by call: String) -> Bool {
        lock.lock()
        if let ended {
            let first: String
            switch ended {
            case .completed: first = "completed"
            case .cancelled: first = "cancelled"
            }
            let message = "NSExtensionContext: \(call) called after the request was already \(first); ignored."
            mistakes.append(message)
            let observer = endedAgainObserver
            lock.unlock()
            FileHandle.standardError.write(Data((message + "\n").utf8))
            observer?(call)
            return false
        }
        ended = outcome
        let waiting = waiters
        waiters = []
        lock.unlock()
        for waiter in waiting { waiter.resume(returning: outcome) }
        return true
    }
}
