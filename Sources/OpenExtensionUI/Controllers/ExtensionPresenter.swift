import Foundation
public import OpenItemProvider
import PackageSupport

/// The person using an extension, scripted: what they do with a compose sheet and with the alerts the
/// extension shows. One word, the same everywhere (`sharing run --user`, `ExtensionHost.user`, the matrix).
///
/// An OpenSharing addition: on a device, a person taps.
public enum ExtensionUser: String, Sendable, CaseIterable, Codable {
    /// Taps Post once the sheet is quiet and Post is enabled, and an alert's preferred action (else its first
    /// default one). At a sheet the extension built itself, picks the first row of each table (and item of each
    /// collection view) on screen that has some and none selected, then taps a Done, Save or Add bar button
    /// item, or one titled as a post button (`ExtensionPresenter.postTitles`), in a navigation bar on screen,
    /// else the first enabled button so titled. Each control once.
    case post
    /// Taps Cancel, and an alert's cancel action (else its last); at a sheet the extension built itself, the first
    /// enabled control titled Cancel or Close, or a Cancel or Close bar button item.
    case cancel
    /// Touches nothing: the sheet and any alert stay up until the request's time runs out.
    case none

    /// How long the person takes to act on what appears: half a second, a quick person's, counted from when
    /// the extension is quiescent (no load of its input, no URL opening and no expiring activity in progress,
    /// no thread of its process at work, its main queue turned twice with nothing begun or ended), not from when
    /// the sheet or alert appears. An extension that ends its request sooner (one that opens its app and closes)
    /// is never touched.
    public static let reactionTime: Duration = .milliseconds(500)

    /// How long the person stays at a sheet that is quiet — nothing in progress, no thread at work, no network
    /// connection open — and offers nothing they came to tap, before the run ends `stuck`: the extension is
    /// doing nothing, and nothing it could still do would change that (a timer it set fires well within this).
    /// Counted only while the process is quiet, so a busy machine, which slows work, never shortens it.
    static let patience: Duration = .seconds(3)
}

/// An alert an extension presented, and what the scripted user did with it.
///
/// An OpenSharing addition, for the run's report.
public struct PresentedAlert: Sendable, Equatable {
    public var title: String?
    public var message: String?
    /// Each action's title and style (`default`, `cancel`, `destructive`), in order.
    public var actions: [(title: String?, style: String)]
    /// The index of the action the user chose; `nil` when they chose none.
    public var chosen: Int?

    public init(title: String?, message: String?, actions: [(title: String?, style: String)], chosen: Int?) {
        self.title = title
        self.message = message
        self.actions = actions
        self.chosen = chosen
    }

    public static func == (lhs: PresentedAlert, rhs: PresentedAlert) -> Bool {
        lhs.title == rhs.title && lhs.message == rhs.message && lhs.chosen == rhs.chosen
            && lhs.actions.map(\.title) == rhs.actions.map(\.title) && lhs.actions.map(\.style) == rhs.actions.map(\.style)
    }
}

/// Shows a principal view controller as the system shows an extension's: the request begins on the controller
/// (`beginRequest(with:)`, which gives it the context), an application ends its responder chain, it moves
/// into the system's container, loads its view, and appears; then the scripted user acts.
///
/// An OpenSharing addition (UIKit does this itself): the extension runtime presents principals with it, and
/// tests that drive a view controller in their own process may too.
@MainActor
public enum ExtensionPresenter {
    /// Told of each alert once the user has done what they do with it (or at once, when they do nothing).
    public static var alertObserver: (@MainActor (PresentedAlert) -> Void)?
    /// Told of each button the user taps, as they tap it: the system compose sheet's `Post` and `Cancel`; on a
    /// sheet the extension built, `button "TITLE"`, `bar item "TITLE"` or `bar item done` (a system item),
    /// `row SECTION.ROW` for a table's row and `item SECTION.ITEM` for a collection view's item.
    public static var tapObserver: (@MainActor (String) -> Void)?
    /// Told, once, that the person is stuck: the sheet stayed quiet for `ExtensionUser.patience` and offers
    /// nothing they came to tap (why, in words). The runtime ends the run there; elsewhere the person waits on.
    package static var stuckObserver: (@MainActor (String) -> Void)?
    /// What the person can see of the extension's process beside its request's work: its threads at work, and
    /// its network connections. Set by the runtime in an extension's own process; `nil` elsewhere (a test's
    /// process has threads of its own at work).
    package static var process: ProcessProbe?

    /// Reads of the extension's process (`ExtensionPresenter.process`).
    package struct ProcessProbe: Sendable {
        /// Calls its argument, from any thread, once none of the process's threads is at work and no expiring
        /// activity runs, telling whether any was first.
        package var whenQuiet: @Sendable (_ body: @escaping @Sendable (_ waited: Bool) -> Void) -> Void
        /// Whether it holds a network connection: a request, or its answer, may be on its way.
        package var holdsConnection: @Sendable () -> Bool

        package init(whenQuiet: @escaping @Sendable (_ body: @escaping @Sendable (_ waited: Bool) -> Void) -> Void,
                     holdsConnection: @escaping @Sendable () -> Bool) {
            self.whenQuiet = whenQuiet
            self.holdsConnection = holdsConnection
        }
    }

    /// The words of a post button's title on a sheet an extension builds itself, each a word of the title
    /// ("Save Bookmark"), compared without regard to case: the words share sheets' own buttons use.
    public static let postTitles: Set<String> = ["post", "share", "send", "save", "done", "add"]
    /// The titles of a cancel button, likewise.
    public static let cancelTitles: Set<String> = ["cancel", "close"]

    /// Presents `controller` for the request `context` describes, used by `user`. The URLs it asks the
    /// application to open go to `context`'s `open(_:completionHandler:)`.
    public static func present(_ controller: UIViewController, with context: NSExtensionContext, user: ExtensionUser = .none) {
        controller.user = user
        controller.application = UIApplication(context: context)
        controller.beginRequest(with: context)
        let container = UIViewController()
        controller.willMove(toParent: container)
        _ = controller.view
        controller.didMove(toParent: container)
        controller.appear(animated: false)
        if let sheet = controller as? SLComposeServiceViewController { sheet.presentationAnimationDidFinish() }
        // The person acts once the sheet has settled, a moment later, unless the extension has ended the request
        // by then; and looks again whenever it settles, until the request ends.
        if user != .none { lookout(at: controller, as: user, context: context, chosen: false, tapped: nil, quietSince: nil) }
    }

    /// What the person did at a look at the sheet.
    private enum Look {
        /// Tapped the control they came for (its name, as `tapObserver` was told).
        case tapped(String)
        /// Chose a row or item of each table and collection view that asked for a choice: they look again.
        case chose
        /// An alert is up: it is answered on its own (`shown(_:)`).
        case alertUp
        /// Nothing they came to tap: why, in words.
        case nothing(String)
    }

    /// The person at the sheet, looking each time the extension is quiescent: they tap what they came for once
    /// it is enabled (once), and otherwise look again. A sheet that stays quiet and offers them nothing to tap
    /// for `ExtensionUser.patience` (or, once they tapped, does nothing more) has them stuck, which
    /// `stuckObserver` is told.
    private static func lookout(at principal: UIViewController, as user: ExtensionUser, context: NSExtensionContext, chosen: Bool,
                                tapped: String?, quietSince: ContinuousClock.Instant?) {
        react(to: context) { sawActivity in
            guard context.outcome == nil else { return }
            var since = sawActivity ? nil : quietSince
            var why: String
            if let tapped {
                why = "the user tapped \(tapped), then nothing was in progress and the request was not ended"
            } else {
                switch look(at: principal, as: user, choosing: !chosen) {
                case .tapped(let name):
                    return lookout(at: principal, as: user, context: context, chosen: chosen, tapped: name, quietSince: nil)
                case .chose:
                    return lookout(at: principal, as: user, context: context, chosen: true, tapped: nil, quietSince: nil)
                case .alertUp:
                    return lookout(at: principal, as: user, context: context, chosen: chosen, tapped: nil, quietSince: nil)
                case .nothing(let reason):
                    why = reason
                }
            }
            // Quiet only with no connection open: an answer may be on its way.
            if process?.holdsConnection() == true { since = nil }
            let now = ContinuousClock.now
            let start = since ?? now
            // Past their patience the person is stuck: the runtime ends the run; elsewhere they stop looking.
            if now - start >= ExtensionUser.patience {
                why += " for \(ExtensionUser.patience) with nothing in progress"
                return stuckObserver?(why) ?? ()
            }
            lookout(at: principal, as: user, context: context, chosen: chosen, tapped: tapped, quietSince: start)
        }
    }

    /// One look at the sheet: the person chooses rows that ask for a choice (when `choosing`: once), or taps the
    /// control they came for if it is enabled.
    private static func look(at principal: UIViewController, as user: ExtensionUser, choosing: Bool) -> Look {
        var shown = principal
        while let presented = shown.presentedViewController {
            if presented is UIAlertController { return .alertUp }
            shown = presented
        }
        if let sheet = shown as? SLComposeServiceViewController {
            switch user {
            case .post:
                guard sheet.postEnabled else { return .nothing("Post is disabled (isContentValid() returns false)") }
                tapObserver?("Post")
                sheet.didSelectPost()
                return .tapped("Post")
            case .cancel:
                tapObserver?("Cancel")
                sheet.cancel()
                return .tapped("Cancel")
            case .none:
                return .nothing("the user touches nothing")
            }
        }
        if user == .post && choosing {
            let unchosen = views(UITableView.self, in: shown.view).filter { $0.allowsSelection && $0.indexPathForSelectedRow == nil }
                .compactMap { table in table.indexPathsForVisibleRows?.first.map { (table, $0) } }
            let unchosenItems = views(UICollectionView.self, in: shown.view).filter { $0.allowsSelection && $0.indexPathsForSelectedItems == nil }
                .compactMap { collection in collection.indexPathsForVisibleItems.first.map { (collection, $0) } }
            if !unchosen.isEmpty || !unchosenItems.isEmpty {
                for (table, row) in unchosen {
                    tapObserver?("row \(row.section).\(row.row)")
                    table.tapRow(at: row)
                }
                for (collection, item) in unchosenItems {
                    tapObserver?("item \(item.section).\(item.item)")
                    collection.tapItem(at: item)
                }
                return .chose
            }
        }
        let titles = user == .post ? postTitles : cancelTitles
        let systemItems: Set<UIBarButtonItem.SystemItem> = user == .post ? [.done, .save, .add] : [.cancel, .close]
        let items = barItemsShown(in: onScreen(shown)).filter { item in
            item.systemItem.map(systemItems.contains) ?? item.title.map { names($0, titles) } ?? false
        }
        if let item = items.first(where: \.isEnabled) {
            let name = item.systemItem.map { "bar item \($0)" } ?? "bar item \"\(shortened(item.title ?? ""))\""
            tapObserver?(name)
            item.tap()
            return .tapped(name)
        }
        let matching = buttons(in: shown.view).filter { $0.currentTitle.map { names($0, titles) } ?? false }
        if let button = matching.first(where: \.isEnabled) {
            let name = "button \"\(shortened(button.currentTitle ?? ""))\""
            tapObserver?(name)
            button.sendActions(for: .touchDown)
            button.sendActions(for: [.touchUpInside, .primaryActionTriggered])
            return .tapped(name)
        }
        let disabled = items.map { $0.systemItem.map { "bar item \($0)" } ?? "bar item \"\(shortened($0.title ?? ""))\"" }
            + matching.map { "button \"\(shortened($0.currentTitle ?? ""))\"" }
        let goal = user == .post ? "post" : "cancel"
        if disabled.isEmpty {
            return .nothing("the sheet shows no control to \(goal) (a button or a bar item on screen titled \(titles.sorted().joined(separator: ", ")))")
        }
        return .nothing("its control to \(goal) is disabled (\(disabled.prefix(4).joined(separator: ", ")))")
    }

    /// Whether `title` says one of `words`, as a word of it, whatever the case: "Save Bookmark" is a Save.
    package static func names(_ title: String, _ words: Set<String>) -> Bool {
        title.lowercased().split { !$0.isLetter }.contains { words.contains(String($0)) }
    }

    /// A title as a report holds it: its first 256 bytes of UTF-8, whole characters.
    private static func shortened(_ title: String) -> String {
        var bytes = 0
        return String(title.prefix { character in
            bytes += character.utf8.count
            return bytes <= 256
        })
    }

    /// The bar button items a person can see among `controllers`: those of each navigation controller's top
    /// controller, whose items its bar shows, unless the bar is hidden. A controller's navigation item "represents
    /// the view controller when it is pushed onto a navigation controller" (Apple's `navigationItem`), and the
    /// system puts an extension's principal in none: items a principal sets on its own item are shown nowhere,
    /// and the person cannot tap them.
    private static func barItemsShown(in controllers: [UIViewController]) -> [UIBarButtonItem] {
        controllers.compactMap { $0 as? UINavigationController }.filter { !$0.isNavigationBarHidden }.compactMap(\.topViewController)
            .flatMap { ($0.navigationItem.rightBarButtonItems ?? []) + ($0.navigationItem.leftBarButtonItems ?? []) }
    }

    /// `controller` and the controllers it holds whose views are on screen, depth first: a navigation
    /// controller's top one, whose items its bar shows.
    private static func onScreen(_ controller: UIViewController) -> [UIViewController] {
        let held = controller.children.filter { $0.isViewLoaded && $0.view.isOnScreen }
        return [controller] + held.flatMap(onScreen)
    }

    /// The views of `kind` on screen beneath `view`, depth first (not those inside one).
    private static func views<Kind: UIView>(_ kind: Kind.Type, in view: UIView) -> [Kind] {
        guard !view.isHidden, view.alpha > 0 else { return [] }
        return (view as? Kind).map { [$0] } ?? view.subviews.flatMap { views(kind, in: $0) }
    }

    /// The buttons on screen beneath `view`, depth first.
    private static func buttons(in view: UIView) -> [UIButton] {
        guard !view.isHidden, view.alpha > 0, view.isUserInteractionEnabled else { return [] }
        return (view as? UIButton).map { [$0] } ?? view.subviews.flatMap(buttons)
    }

    /// Does `action` as the person would: once the request is quiescent, the reaction time later, and once
    /// whatever began meanwhile has ended too. A busy machine slows the extension's work and the person alike.
    /// `action` learns whether anything was at work on the way (the extension was not quiet all along).
    static func react(to context: NSExtensionContext?, _ action: @escaping @MainActor (_ sawActivity: Bool) -> Void) {
        let work = context?.work ?? WorkInProgress()
        settle(work) { first in
            DispatchQueue.main.asyncAfter(deadline: .now() + ExtensionUser.reactionTime.inSeconds) {
                settle(work) { second in action(first || second) }
            }
        }
    }

    /// Calls `body` on the main queue once the extension is quiescent: no load or URL opening in progress, the
    /// main queue turned twice with nothing begun or ended in between, and, in an extension's process, none of its
    /// threads at work and no expiring activity (`process`). Whatever it takes: waiting on the extension's own
    /// state, never on a clock. `body` learns whether anything was at work on the way.
    private static func settle(_ work: WorkInProgress, _ body: @escaping @MainActor (_ sawActivity: Bool) -> Void) {
        let activity = Locked(false)
        @Sendable func probe() {
            work.whenIdle {
                DispatchQueue.main.async {
                    let first = work.snapshot
                    guard first.count == 0 else {
                        activity.withLock { $0 = true }
                        return probe()
                    }
                    DispatchQueue.main.async {
                        guard work.snapshot.generation == first.generation else {
                            activity.withLock { $0 = true }
                            return probe()
                        }
                        guard let process else { return body(activity.withLock { $0 }) }
                        // The threads, then the queue and the loads again: a thread's work may have begun some.
                        process.whenQuiet { waited in
                            DispatchQueue.main.async {
                                guard waited || work.snapshot.generation != first.generation else { return body(activity.withLock { $0 }) }
                                activity.withLock { $0 = true }
                                probe()
                            }
                        }
                    }
                }
            }
        }
        probe()
    }

    /// An alert is up: the user of the controller that presented it answers it as they do, a moment later.
    static func shown(_ alert: UIAlertController) {
        let chosen: Int?
        switch alert.user {
        case .post:
            chosen = alert.preferredAction.flatMap { preferred in alert.actions.firstIndex { $0 === preferred } }
                ?? alert.actions.firstIndex { $0.style == .default } ?? alert.actions.firstIndex { $0.style != .cancel }
        case .cancel:
            chosen = alert.actions.firstIndex { $0.style == .cancel } ?? (alert.actions.isEmpty ? nil : alert.actions.count - 1)
        case .none:
            chosen = nil
        }
        let record = PresentedAlert(title: alert.title, message: alert.message,
                                    actions: alert.actions.map { ($0.title, $0.style.name) }, chosen: chosen)
        guard let chosen else { return alertObserver?(record) ?? () }
        react(to: alert.extensionContext) { _ in
            alertObserver?(record)
            alert.tap(alert.actions[chosen])
        }
    }
}
