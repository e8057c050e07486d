public import Foundation
public import OpenItemProvider

/// A view controller with UIKit's life cycle and no drawing: the view loads the first time it is asked for
/// (`loadView()`, then `viewDidLoad()`), and `ExtensionPresenter` makes it appear as the system shows an
/// extension's principal, its `extensionContext` attached.
///
/// Stands in for UIKit's `UIViewController`, main-actor isolated as Apple's is.
@preconcurrency @MainActor
open class UIViewController: UIResponder {
    /// The application at the end of the responder chain, once the controller is presented.
    var application: UIApplication?
    /// Who uses the extension this controller is part of (`ExtensionPresenter`).
    var user = ExtensionUser.none
    private var loadedView: UIView?

    /// The context of the request the extension was started for, once the system presents it.
    ///
    /// Stands in for `UIViewController.extensionContext`.
    open internal(set) var extensionContext: NSExtensionContext?

    /// The view, loaded the first time it is asked for, as UIKit does.
    ///
    /// Stands in for `UIViewController.view`.
    open var view: UIView! {
        get {
            if loadedView == nil {
                loadView()
                viewDidLoad()
            }
            return loadedView
        }
        set { loadedView = newValue }
    }

    /// Whether the view has loaded. Stands in for `UIViewController.isViewLoaded`.
    open var isViewLoaded: Bool { loadedView != nil }

    /// Stands in for `UIViewController.title`.
    open var title: String?

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
        extensionContext = context
    }

    /// Stands in for `UIViewController.loadView()`: makes a plain view.
    open func loadView() { view = UIView() }
    /// Stands in for `UIViewController.viewDidLoad()`.
    open func viewDidLoad() {}
    /// Stands in for `UIViewController.viewWillAppear(_:)`.
    open func viewWillAppear(_ animated: Bool) {}
    /// Stands in for `UIViewController.viewDidAppear(_:)`.
    open func viewDidAppear(_ animated: Bool) {}
    /// Stands in for `UIViewController.viewWillDisappear(_:)`.
    open func viewWillDisappear(_ animated: Bool) {}
    /// Stands in for `UIViewController.viewDidDisappear(_:)`.
    open func viewDidDisappear(_ animated: Bool) {}
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
        viewControllerToPresent.application = application
        viewControllerToPresent.user = user
        viewControllerToPresent.extensionContext = extensionContext
        _ = viewControllerToPresent.view
        viewControllerToPresent.viewWillAppear(flag)
        viewControllerToPresent.viewDidAppear(flag)
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
        presented.viewDidDisappear(flag)
        presented.presentingViewController = nil
        presentedViewController = nil
        completion?()
    }

    /// What a UIKit class itself does between loading and appearing, whatever its subclass overrides.
    func prepareToAppear() {}
}

/// A view controller is an extension's request handler, as UIKit's is: the system begins the request on the
/// principal, then presents it.
extension UIViewController: @preconcurrency NSExtensionRequestHandling {}
