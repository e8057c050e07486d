public import Foundation

/// An alert or action sheet: a title, a message, actions, and text fields. Presented with
/// `present(_:animated:completion:)`, it is recorded in the run's report and answered by the scripted user
/// (`ExtensionUser`): the chosen action's handler runs once the alert is dismissed, as UIKit runs it.
///
/// Stands in for UIKit's `UIAlertController`.
@preconcurrency @MainActor
open class UIAlertController: UIViewController {
    /// Stands in for `UIAlertController.Style`.
    public enum Style: Int, Sendable {
        case actionSheet = 0, alert
    }

    /// Stands in for `UIAlertController.message`.
    open var message: String?
    /// Stands in for `UIAlertController.preferredStyle`.
    open private(set) var preferredStyle = Style.alert
    /// Stands in for `UIAlertController.actions`.
    open private(set) var actions: [UIAlertAction] = []
    /// The action a person would press with Return. Stands in for `UIAlertController.preferredAction`.
    open var preferredAction: UIAlertAction?
    /// Stands in for `UIAlertController.textFields`.
    open private(set) var textFields: [UITextField]?

    /// Stands in for `UIAlertController.init(title:message:preferredStyle:)`.
    public convenience init(title: String?, message: String?, preferredStyle: Style) {
        self.init(nibName: nil, bundle: nil)
        self.title = title
        self.message = message
        self.preferredStyle = preferredStyle
    }

    /// Stands in for `UIAlertController.addAction(_:)`.
    open func addAction(_ action: UIAlertAction) {
        actions.append(action)
    }

    /// Stands in for `UIAlertController.addTextField(configurationHandler:)`.
    open func addTextField(configurationHandler: ((UITextField) -> Void)? = nil) {
        let field = UITextField()
        configurationHandler?(field)
        textFields = (textFields ?? []) + [field]
    }

    /// Once presented, the scripted user sees it.
    override open func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        ExtensionPresenter.shown(self)
    }

    /// The user pressed `action`: the alert goes away, then the action's handler runs.
    func tap(_ action: UIAlertAction) {
        guard action.isEnabled else { return }
        dismiss(animated: true) { action.handler?(action) }
    }
}

/// A button of an alert. Stands in for UIKit's `UIAlertAction`.
@preconcurrency @MainActor
open class UIAlertAction: NSObject {
    /// Stands in for `UIAlertAction.Style`.
    public enum Style: Int, Sendable {
        case `default` = 0, cancel, destructive

        var name: String {
            switch self {
            case .default: "default"
            case .cancel: "cancel"
            case .destructive: "destructive"
            }
        }
    }

    /// Stands in for `UIAlertAction.title`.
    open private(set) var title: String?
    /// Stands in for `UIAlertAction.style`.
    open private(set) var style = Style.default
    /// Stands in for `UIAlertAction.isEnabled`.
    open var isEnabled = true
    let handler: ((UIAlertAction) -> Void)?

    /// Stands in for `UIAlertAction.init(title:style:handler:)`.
    public init(title: String?, style: Style, handler: ((UIAlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
        super.init()
    }
}
