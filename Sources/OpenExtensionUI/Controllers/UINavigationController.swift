public import Foundation
public import OpenImageIO

/// A button of a navigation bar or toolbar: its title, image or system item, and its action, kept; the scripted
/// user taps it as it taps a button. Stands in for UIKit's `UIBarButtonItem`.
///
/// The target–action initializers need Objective-C's selectors and are not here: give a `primaryAction`.
@preconcurrency @MainActor
open class UIBarButtonItem: NSObject {
    /// Stands in for `UIBarButtonItem.SystemItem`, with UIKit's raw values.
    public enum SystemItem: Int, Sendable {
        case done = 0, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize, bookmarks,
             search, refresh, stop, camera, trash, play, pause, rewind, fastForward, undo, redo
        case close = 24
    }

    /// Stands in for `UIBarButtonItem.Style`, with UIKit's raw values.
    public enum Style: Int, Sendable {
        case plain = 0
        case done = 2
    }

    /// Stands in for `UIBarButtonItem.title`.
    open var title: String?
    /// Stands in for `UIBarButtonItem.image`.
    open var image: UIImage?
    /// Stands in for `UIBarButtonItem.style`.
    open var style: Style = .plain
    /// Stands in for `UIBarButtonItem.isEnabled`.
    open var isEnabled = true
    /// Stands in for `UIBarButtonItem.tintColor`.
    open var tintColor: UIColor?
    /// Stands in for `UIBarButtonItem.tag`.
    open var tag = 0
    /// Stands in for `UIBarButtonItem.width`.
    open var width: CGFloat = 0
    /// Stands in for `UIBarButtonItem.customView`.
    open var customView: UIView?
    /// What a tap does. Stands in for `UIBarButtonItem.primaryAction`.
    open var primaryAction: UIAction?
    /// Stands in for `UIBarButtonItem.menu`.
    open var menu: UIMenu?
    /// The system item it was made as, if any.
    private(set) var systemItem: SystemItem?

    public override init() {
        super.init()
    }

    /// Stands in for `UIBarButtonItem.init(customView:)`.
    public init(customView: UIView) {
        self.customView = customView
        super.init()
    }

    /// Stands in for `UIBarButtonItem.init(systemItem:primaryAction:menu:)`.
    public convenience init(systemItem: UIBarButtonItem.SystemItem, primaryAction: UIAction? = nil, menu: UIMenu? = nil) {
        self.init()
        self.systemItem = systemItem
        if systemItem == .done { style = .done }
        self.primaryAction = primaryAction
        self.menu = menu
    }

    /// An item showing `primaryAction`'s title and image unless others are given. Stands in for
    /// `UIBarButtonItem.init(title:image:primaryAction:menu:)`.
    public convenience init(title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil, menu: UIMenu? = nil) {
        self.init()
        self.title = title ?? primaryAction?.title
        self.image = image ?? primaryAction?.image
        self.primaryAction = primaryAction
        self.menu = menu
    }

    /// What a person's tap does: the primary action, when the item is enabled.
    func tap() {
        guard isEnabled else { return }
        primaryAction?.perform(from: self)
    }
}

/// What a navigation bar shows for a controller: its title and bar buttons. Stands in for UIKit's
/// `UINavigationItem`.
@preconcurrency @MainActor
open class UINavigationItem: NSObject {
    /// Stands in for `UINavigationItem.LargeTitleDisplayMode`, with UIKit's raw values.
    public enum LargeTitleDisplayMode: Int, Sendable {
        case automatic = 0, always, never, inline
    }

    /// Stands in for `UINavigationItem.title`.
    open var title: String?
    /// Stands in for `UINavigationItem.prompt`.
    open var prompt: String?
    /// Stands in for `UINavigationItem.titleView`.
    open var titleView: UIView?
    /// Stands in for `UINavigationItem.hidesBackButton`.
    open var hidesBackButton = false
    /// Stands in for `UINavigationItem.backBarButtonItem`.
    open var backBarButtonItem: UIBarButtonItem?
    /// Stands in for `UINavigationItem.largeTitleDisplayMode`.
    open var largeTitleDisplayMode: LargeTitleDisplayMode = .automatic
    /// Stands in for `UINavigationItem.leftBarButtonItems`.
    open var leftBarButtonItems: [UIBarButtonItem]?
    /// Stands in for `UINavigationItem.rightBarButtonItems`.
    open var rightBarButtonItems: [UIBarButtonItem]?

    /// The first of the left items. Stands in for `UINavigationItem.leftBarButtonItem`.
    open var leftBarButtonItem: UIBarButtonItem? {
        get { leftBarButtonItems?.first }
        set { leftBarButtonItems = newValue.map { [$0] } }
    }

    /// The first of the right items. Stands in for `UINavigationItem.rightBarButtonItem`.
    open var rightBarButtonItem: UIBarButtonItem? {
        get { rightBarButtonItems?.first }
        set { rightBarButtonItems = newValue.map { [$0] } }
    }

    /// Stands in for `UINavigationItem.setLeftBarButton(_:animated:)`.
    open func setLeftBarButton(_ item: UIBarButtonItem?, animated: Bool) { leftBarButtonItem = item }
    /// Stands in for `UINavigationItem.setRightBarButton(_:animated:)`.
    open func setRightBarButton(_ item: UIBarButtonItem?, animated: Bool) { rightBarButtonItem = item }
    /// Stands in for `UINavigationItem.setLeftBarButtonItems(_:animated:)`.
    open func setLeftBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { leftBarButtonItems = items }
    /// Stands in for `UINavigationItem.setRightBarButtonItems(_:animated:)`.
    open func setRightBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { rightBarButtonItems = items }

    /// Stands in for `UINavigationItem.init(title:)`.
    public init(title: String) {
        self.title = title
        super.init()
    }

    public override init() {
        super.init()
    }
}

/// A stack of controllers, the top one's view shown: pushing and popping move views and tell each controller it
/// moves to or from its parent and appears or disappears, in UIKit's order.
///
/// Stands in for UIKit's `UINavigationController`.
@preconcurrency @MainActor
open class UINavigationController: UIViewController {
    /// The stack, bottom first. Setting it replaces the stack without animation. Stands in for
    /// `UINavigationController.viewControllers`.
    open var viewControllers: [UIViewController] {
        get { children }
        set { setViewControllers(newValue, animated: false) }
    }

    /// Stands in for `UINavigationController.topViewController`.
    open var topViewController: UIViewController? { children.last }
    /// The top controller, or what it presented. Stands in for `UINavigationController.visibleViewController`.
    open var visibleViewController: UIViewController? { topViewController?.presentedViewController ?? topViewController }
    /// Stands in for `UINavigationController.isNavigationBarHidden`.
    open var isNavigationBarHidden = false
    /// The bar at the top, whose look code sets is kept. Stands in for `UINavigationController.navigationBar`.
    public let navigationBar = UINavigationBar()

    /// Stands in for `UINavigationController.init(rootViewController:)`.
    public init(rootViewController: UIViewController) {
        super.init(nibName: nil, bundle: nil)
        pushViewController(rootViewController, animated: false)
    }

    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UINavigationController.setNavigationBarHidden(_:animated:)`.
    open func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
        isNavigationBarHidden = hidden
    }

    /// Puts `viewController` on top: it moves to this parent, its view loads; when this controller is on screen the
    /// old top disappears as the new one appears, and the new one's view replaces the old's. Stands in for
    /// `UINavigationController.pushViewController(_:animated:)`.
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        let old = topViewController
        addChild(viewController)
        transition(from: old, to: viewController, animated: animated)
        viewController.didMove(toParent: self)
    }

    /// Takes the top controller off, unless it is the only one. Stands in for
    /// `UINavigationController.popViewController(animated:)`.
    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        guard children.count > 1, let top = topViewController else { return nil }
        top.willMove(toParent: nil)
        transition(from: top, to: children[children.count - 2], animated: animated)
        top.removeFromParent()
        return top
    }

    /// Pops every controller above the root. Stands in for `UINavigationController.popToRootViewController(animated:)`.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        guard let root = children.first else { return nil }
        return popToViewController(root, animated: animated)
    }

    /// Pops every controller above `viewController`; `nil` when it is not in the stack. Stands in for
    /// `UINavigationController.popToViewController(_:animated:)`.
    @discardableResult
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        guard let index = children.firstIndex(where: { $0 === viewController }) else { return nil }
        var popped: [UIViewController] = []
        while children.count > index + 1, let top = popViewController(animated: animated) { popped.insert(top, at: 0) }
        return popped
    }

    /// Replaces the stack: controllers no longer in it leave, new ones join, and the new top shows. Stands in for
    /// `UINavigationController.setViewControllers(_:animated:)`.
    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        let old = topViewController
        let leaving = children.filter { child in !viewControllers.contains { $0 === child } }
        leaving.forEach { $0.willMove(toParent: nil) }
        let joining = viewControllers.filter { controller in !children.contains { $0 === controller } }
        for controller in joining { addChild(controller) }
        reorderChildren(viewControllers)
        if old !== topViewController { transition(from: old, to: topViewController, animated: animated) }
        leaving.forEach { $0.removeFromParent() }
        joining.forEach { $0.didMove(toParent: self) }
    }

    /// Swaps the shown controller: the old one's view leaves and the new one's comes, with the appearance calls
    /// when this controller is itself on screen.
    private func transition(from old: UIViewController?, to new: UIViewController?, animated: Bool) {
        guard isViewLoaded else { return }
        let onScreen = view.isOnScreen
        if let new { _ = new.view }
        if onScreen { old?.viewWillDisappear(animated) }
        if onScreen { new?.viewWillAppear(animated) }
        old?.view.removeFromSuperview()
        if let new { view.addSubview(new.view) }
        if onScreen {
            view.layoutIfNeeded()
            old?.viewDidDisappear(animated)
            new?.viewDidAppear(animated)
        }
    }

    override func didLoadView() {
        if let top = topViewController { view.addSubview(top.view) }
    }

    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        topViewController?.viewWillAppear(animated)
    }

    open override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        topViewController?.viewDidAppear(animated)
    }

    open override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        topViewController?.viewWillDisappear(animated)
    }

    open override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        topViewController?.viewDidDisappear(animated)
    }
}

/// The bar a navigation controller shows its top controller's title and items in: what code sets of its look is
/// kept, as nothing is drawn. Stands in for UIKit's `UINavigationBar`.
@preconcurrency @MainActor
open class UINavigationBar: UIView {
    /// Stands in for `UINavigationBar.barTintColor`.
    open var barTintColor: UIColor?
    /// Stands in for `UINavigationBar.isTranslucent`.
    open var isTranslucent = true
    /// Stands in for `UINavigationBar.prefersLargeTitles`.
    open var prefersLargeTitles = false
    /// Stands in for `UINavigationBar.titleTextAttributes`.
    open var titleTextAttributes: [NSAttributedString.Key: Any]?
}

