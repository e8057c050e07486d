public import Foundation
public import OpenItemProvider

/// A view controller with UIKit's life cycle and no drawing: the view loads the first time it is asked for
/// (`loadView()`, then `viewDidLoad()`), and `ExtensionPresenter` makes it appear as the system shows an
/// extension's principal, its `extensionContext` attached.
///
/// Stands in for UIKit's `UIViewController`, main-actor isolated as Apple's is.
@preconcurrency @MainActor
open class UIViewController: UIResponder {
    /// The application at the end of the responder chain, once the controller is presented: its own, or that of
    /// the controller that holds or presented it.
    var application: UIApplication? {
        get { attachedApplication ?? parent?.application ?? presentingViewController?.application }
        set { attachedApplication = newValue }
    }
    private var attachedApplication: UIApplication?
    /// Who uses the extension this controller is part of (`ExtensionPresenter`), as for `application`.
    var user: ExtensionUser {
        get { attachedUser ?? parent?.user ?? presentingViewController?.user ?? .none }
        set { attachedUser = newValue }
    }
    private var attachedUser: ExtensionUser?
    private var loadedView: UIView?
    private var attachedContext: NSExtensionContext?

    /// The context of the request the extension was started for, once the system presents it: the principal's,
    /// and so that of every controller it holds or presents.
    ///
    /// Stands in for `UIViewController.extensionContext`.
    open var extensionContext: NSExtensionContext? {
        attachedContext ?? parent?.extensionContext ?? presentingViewController?.extensionContext
    }

    /// The view, loaded the first time it is asked for, as UIKit does.
    ///
    /// Stands in for `UIViewController.view`.
    open var view: UIView! {
        get {
            if loadedView == nil {
                loadView()
                didLoadView()
                viewDidLoad()
            }
            return loadedView
        }
        set { loadedView = newValue }
    }

    /// Whether the view has loaded. Stands in for `UIViewController.isViewLoaded`.
    open var isViewLoaded: Bool { loadedView != nil }

    /// The view if it has loaded, without loading it. Stands in for `UIViewController.viewIfLoaded`.
    open var viewIfLoaded: UIView? { loadedView }

    /// Loads the view (`loadView()`, then `viewDidLoad()`) unless it has loaded. Stands in for
    /// `UIViewController.loadViewIfNeeded()`.
    open func loadViewIfNeeded() {
        _ = view
    }

    /// Stands in for `UIViewController.title`; setting it sets the navigation item's.
    open var title: String? {
        didSet { storedNavigationItem?.title = title }
    }

    private var storedNavigationItem: UINavigationItem?
    /// What a navigation bar shows for this controller, made the first time it is asked for with the controller's
    /// title. Stands in for `UIViewController.navigationItem`.
    open var navigationItem: UINavigationItem {
        if let storedNavigationItem { return storedNavigationItem }
        let item = UINavigationItem()
        item.title = title
        storedNavigationItem = item
        return item
    }

    /// The controllers this one holds, in the order added. Stands in for `UIViewController.children`.
    open internal(set) var children: [UIViewController] = []
    /// The controller that holds this one. Stands in for `UIViewController.parent`.
    open internal(set) weak var parent: UIViewController?

    /// The closest navigation controller holding this one. Stands in for `UIViewController.navigationController`.
    open var navigationController: UINavigationController? {
        var holder = parent
        while let candidate = holder {
            if let navigation = candidate as? UINavigationController { return navigation }
            holder = candidate.parent
        }
        return nil
    }

    /// Holds `childController`, taking it from its parent first, and tells it with `willMove(toParent:)`; the
    /// caller adds its view and calls `didMove(toParent:)`, as with UIKit. Stands in for
    /// `UIViewController.addChild(_:)`.
    open func addChild(_ childController: UIViewController) {
        guard childController !== self else { return }
        if childController.parent != nil { childController.removeFromParent() }
        childController.willMove(toParent: self)
        children.append(childController)
        childController.parent = self
    }

    /// Leaves the parent and tells this controller with `didMove(toParent: nil)`; the caller has called
    /// `willMove(toParent: nil)` and removes the view, as with UIKit. Stands in for `UIViewController.removeFromParent()`.
    open func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Puts the children in the order of `order`, those in it first.
    func reorderChildren(_ order: [UIViewController]) {
        children = order.filter { controller in children.contains { $0 === controller } }
            + children.filter { child in !order.contains { $0 === child } }
    }

    /// The controller this one presented, if any. Stands in for `UIViewController.presentedViewController`.
    open private(set) var presentedViewController: UIViewController?

    /// The controller that presented this one, if any. Stands in for `UIViewController.presentingViewController`.
    open private(set) weak var presentingViewController: UIViewController?

    /// The next responder: the presenting controller's, ending at the application.
    open override var next: UIResponder? { application }

    /// Stands in for `UIViewController.init(nibName:bundle:)`; there are no nibs here, so both are unused.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    /// Controllers are never decoded from storyboards here. Stands in for `UIViewController.init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    public override convenience init() {
        self.init(nibName: nil, bundle: nil)
    }

    /// Takes the context of the host's request, as the system gives it to an extension's principal before
    /// presenting it. A subclass that overrides this calls `super`.
    ///
    /// Stands in for `UIViewController.beginRequest(with:)` (UIKit's `NSExtensionRequestHandling`).
    open func beginRequest(with context: NSExtensionContext) {
        attachedContext = context
    }

    /// Stands in for `UIViewController.loadView()`: makes a plain view.
    open func loadView() { view = UIView() }
    /// Stands in for `UIViewController.viewDidLoad()`.
    open func viewDidLoad() {}
    /// The device's traits (`UITraitEnvironment`): a phone in portrait at the screen's scale, light mode.
    /// Stands in for `traitCollection`.
    open var traitCollection: UITraitCollection { .device }
    /// Called when the traits change, which they never do while an extension runs here.
    /// Stands in for `traitCollectionDidChange(_:)`.
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}
    /// Called before the view's size changes (a rotation, a resized window), which it never does while an
    /// extension runs here; passed on to the children, as UIKit's is. Stands in for
    /// `UIViewController.viewWillTransition(to:with:)`.
    open func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {
        for child in children { child.viewWillTransition(to: size, with: coordinator) }
    }
    /// Stands in for `UIViewController.viewWillAppear(_:)`.
    open func viewWillAppear(_ animated: Bool) {}
    /// Stands in for `UIViewController.viewDidAppear(_:)`.
    open func viewDidAppear(_ animated: Bool) {}
    /// Stands in for `UIViewController.viewWillDisappear(_:)`.
    open func viewWillDisappear(_ animated: Bool) {}
    /// Stands in for `UIViewController.viewDidDisappear(_:)`.
    open func viewDidDisappear(_ animated: Bool) {}
    /// Stands in for `UIViewController.viewWillLayoutSubviews()`.
    open func viewWillLayoutSubviews() {}
    /// Stands in for `UIViewController.viewDidLayoutSubviews()`.
    open func viewDidLayoutSubviews() {}
    /// Stands in for `UIViewController.willMove(toParent:)`.
    open func willMove(toParent parent: UIViewController?) {}
    /// Stands in for `UIViewController.didMove(toParent:)`.
    open func didMove(toParent parent: UIViewController?) {}

    /// Presents `viewControllerToPresent` over this one: it shares this controller's context and
    /// application, loads and appears; `completion` runs once it has.
    ///
    /// Stands in for `UIViewController.present(_:animated:completion:)`.
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        presentedViewController = viewControllerToPresent
        viewControllerToPresent.presentingViewController = self
        viewControllerToPresent.appear(animated: flag)
        completion?()
    }

    /// Dismisses the controller this one presented, or, when it presented none, this one from its presenter;
    /// `completion` runs once it has disappeared.
    ///
    /// Stands in for `UIViewController.dismiss(animated:completion:)`.
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        guard let presented = presentedViewController else {
            if let presentingViewController { return presentingViewController.dismiss(animated: flag, completion: completion) }
            completion?()
            return
        }
        presented.viewWillDisappear(flag)
        presented.view.isShownRoot = false
        presented.viewDidDisappear(flag)
        presented.presentingViewController = nil
        presentedViewController = nil
        completion?()
    }

    /// What a UIKit class itself does between loading and appearing, whatever its subclass overrides.
    func prepareToAppear() {}

    /// What a UIKit class itself does once its view is made, before `viewDidLoad()`, whatever its subclass overrides.
    func didLoadView() {}

    /// Shows this controller's view as the root of what the system shows: it loads, appears, is laid out (the
    /// tables in it asking their data sources), and has appeared.
    func appear(animated: Bool) {
        let view = view!
        prepareToAppear()
        viewWillAppear(animated)
        view.isShownRoot = true
        viewWillLayoutSubviews()
        view.layoutIfNeeded()
        viewDidLayoutSubviews()
        viewDidAppear(animated)
    }
}

/// A view controller is an extension's request handler, as UIKit's is: the system begins the request on the
/// principal, then presents it.
extension UIViewController: @preconcurrency NSExtensionRequestHandling {}

/// What a transition between sizes or controllers is. Stands in for UIKit's
/// `UIViewControllerTransitionCoordinatorContext`, in part.
@MainActor
public protocol UIViewControllerTransitionCoordinatorContext: NSObjectProtocol {
    /// Stands in for `UIViewControllerTransitionCoordinatorContext.isAnimated`.
    var isAnimated: Bool { get }
    /// Stands in for `UIViewControllerTransitionCoordinatorContext.isCancelled`.
    var isCancelled: Bool { get }
    /// Stands in for `UIViewControllerTransitionCoordinatorContext.transitionDuration`.
    var transitionDuration: TimeInterval { get }
    /// Stands in for `UIViewControllerTransitionCoordinatorContext.containerView`.
    var containerView: UIView { get }
}

/// Runs work beside a transition. Stands in for UIKit's `UIViewControllerTransitionCoordinator`, in part.
@MainActor
public protocol UIViewControllerTransitionCoordinator: UIViewControllerTransitionCoordinatorContext {
    /// Stands in for `UIViewControllerTransitionCoordinator.animate(alongsideTransition:completion:)`; the
    /// completion may be left out, as Apple's defaults it to `nil`.
    @discardableResult
    func animate(alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
                 completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool
}

extension UIViewControllerTransitionCoordinator {
    @discardableResult
    public func animate(alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool {
        animate(alongsideTransition: animation, completion: nil)
    }
}

