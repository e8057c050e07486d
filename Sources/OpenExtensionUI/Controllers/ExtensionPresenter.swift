import Foundation
public import OpenItemProvider
import PackageSupport

/// The person using an extension, scripted: what they do with a compose sheet and with the alerts the
/// extension shows. One word, the same everywhere (`sharing run --user`, `ExtensionHost.user`, the matrix).
///
/// An OpenSharing addition: on a device, a person taps.
public enum ExtensionUser: String, Sendable, CaseIterable, Codable {
    /// Taps Post once the content is valid (after the sheet's presentation animation), and an alert's
    /// preferred action (else its first default one). At a sheet the extension built itself, picks the first row
    /// of each table (and item of each collection view) on screen that has some and none selected, then taps a Done, Save or Add bar button item, or
    /// one titled as a post button (`ExtensionPresenter.postTitles`), in a navigation bar on screen, else the first
    /// enabled button so titled.
    case post
    /// Taps Cancel, and an alert's cancel action (else its last); at a sheet the extension built itself, the first
    /// enabled control titled Cancel or Close, or a Cancel or Close bar button item.
    case cancel
    /// Touches nothing: the sheet and any alert stay up until the request's time runs out.
    case none

    /// How long the person takes to act on what appears: half a second, a quick person's, counted from when
    /// the extension is quiescent (no load of its input and no URL opening in progress, its main queue turned
    /// twice with nothing begun or ended), not from when the sheet or alert appears. An extension that ends its
    /// request sooner (one that opens its app and closes) is never touched.
    public static let reactionTime: Duration = .milliseconds(500)

    /// How long the person waits for the extension to become quiescent before acting anyway: longer than any
    /// load takes but one the host holds back (a load that never answers).
    static let patience: Duration = .seconds(10)
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

    /// The titles of a post button on a sheet an extension builds itself, compared without regard to case: the
    /// words share sheets' own buttons use.
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
        // The person acts once the sheet has settled, a moment later, unless the extension has ended the request by then.
        if let sheet = controller as? SLComposeServiceViewController {
            sheet.presentationAnimationDidFinish()
            react(to: context) {
                if context.outcome == nil { sheet.userArrives(user) }
            }
        } else if user != .none {
            react(to: context) {
                if context.outcome == nil { arrive(at: controller, as: user, context: context) }
            }
        }
    }

    /// The person at a sheet the extension built: they choose a row of each table that asks for a choice, once
    /// (then look again once that has settled), and tap the button they came for. A sheet with no such button
    /// keeps them waiting, as a person would, until the request's time runs out.
    private static func arrive(at principal: UIViewController, as user: ExtensionUser, context: NSExtensionContext,
                               choosing: Bool = true) {
        var shown = principal
        while let presented = shown.presentedViewController, !(presented is UIAlertController) { shown = presented }
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
                return react(to: context) {
                    if context.outcome == nil { arrive(at: principal, as: user, context: context, choosing: false) }
                }
            }
        }
        let titles = user == .post ? postTitles : cancelTitles
        let systemItems: Set<UIBarButtonItem.SystemItem> = user == .post ? [.done, .save, .add] : [.cancel, .close]
        let items = barItemsShown(in: onScreen(shown))
        if let item = items.first(where: { item in
            item.isEnabled && (item.systemItem.map(systemItems.contains) ?? item.title.map { titles.contains($0.lowercased()) } ?? false)
        }) {
            tapObserver?(item.systemItem.map { "bar item \($0)" } ?? "bar item \"\(shortened(item.title ?? ""))\"")
            return item.tap()
        }
        if let button = buttons(in: shown.view).first(where: { $0.isEnabled && $0.currentTitle.map { titles.contains($0.lowercased()) } ?? false }) {
            tapObserver?("button \"\(shortened(button.currentTitle ?? ""))\"")
            button.sendActions(for: .touchDown)
            button.sendActions(for: [.touchUpInside, .primaryActionTriggered])
        }
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
    static func react(to context: NSExtensionContext?, _ action: @escaping @MainActor () -> Void) {
        let work = context?.work ?? WorkInProgress()
        settle(work) {
            DispatchQueue.main.asyncAfter(deadline: .now() + ExtensionUser.reactionTime.inSeconds) {
                settle(work, action)
            }
        }
    }

    /// Calls `body` on the main queue once `work` is quiescent: nothing in progress, and the main queue turned
    /// twice with nothing begun or ended in between; or once the person's patience has run out.
    private static func settle(_ work: WorkInProgress, _ body: @escaping @MainActor () -> Void) {
        let acted = ActedOnce()
        let act: @MainActor () -> Void = {
            guard !acted.done else { return }
            acted.done = true
            body()
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + ExtensionUser.patience.inSeconds, execute: act)
        @Sendable func probe() {
            work.whenIdle {
                DispatchQueue.main.async {
                    let first = work.snapshot
                    guard first.count == 0 else { return probe() }
                    DispatchQueue.main.async {
                        if work.snapshot.generation == first.generation { act() } else { probe() }
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
        react(to: alert.extensionContext) {
            alertObserver?(record)
            alert.tap(alert.actions[chosen])
        }
    }
}

/// Whether the person has acted on what a `settle` waited for.
@MainActor
private final class ActedOnce {
    var done = false
}
