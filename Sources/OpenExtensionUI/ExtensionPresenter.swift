public import OpenItemProvider

/// Shows a principal view controller as the system shows an extension's: the controller is given the
/// request's context and an application at the end of its responder chain, moves into the system's
/// container, loads its view, and appears.
///
/// An OpenSharing addition (UIKit does this itself): the extension runtime presents principals with it, and
/// tests that drive a view controller in their own process may too.
@MainActor
public enum ExtensionPresenter {
    /// Presents `controller` for the request `context` describes. The URLs it asks the application to
    /// open go to `context`'s `open(_:completionHandler:)`.
    public static func present(_ controller: UIViewController, with context: NSExtensionContext) {
        controller.application = UIApplication(context: context)
        controller.extensionContext = context
        let container = UIViewController()
        controller.willMove(toParent: container)
        _ = controller.view
        controller.didMove(toParent: container)
        controller.prepareToAppear()
        controller.viewWillAppear(false)
        controller.viewDidAppear(false)
        (controller as? SLComposeServiceViewController)?.presentationAnimationDidFinish()
    }
}
