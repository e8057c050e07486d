public import Foundation
import OpenItemProvider

/// The system's compose sheet, which many share extensions subclass: a text view that opens with the first
/// item's content text, Post and Cancel, and configuration items.
///
/// Stands in for Social's `SLComposeServiceViewController` (`import Social`, which `SharingShim` replaces).
/// Nothing is drawn; the user's taps are `didSelectPost()` and `didSelectCancel()`.
@preconcurrency @MainActor
open class SLComposeServiceViewController: UIViewController {
    /// The sheet's text view. Stands in for `SLComposeServiceViewController.textView`.
    open private(set) var textView: UITextView! = UITextView()

    /// The text the sheet shows while the text view is empty. Stands in for `placeholder`.
    open var placeholder: String!

    /// The text the user typed: what the text view holds. Stands in for `contentText`.
    open var contentText: String! { textView.text }

    /// A character count the sheet shows, when set. Stands in for `charactersRemaining`.
    open var charactersRemaining: NSNumber!

    /// Whether the content may be posted (the Post button is enabled); `true` by default.
    ///
    /// Stands in for `SLComposeServiceViewController.isContentValid()`.
    open func isContentValid() -> Bool { true }

    /// Asks `isContentValid()` again, as the sheet does after each change the user makes.
    ///
    /// Stands in for `SLComposeServiceViewController.validateContent()`.
    open func validateContent() {
        postEnabled = isContentValid()
    }

    /// Whether Post is enabled, as the last validation left it: the scripted user taps it once it is, and the
    /// sheet is quiet (`ExtensionPresenter`).
    var postEnabled = true

    /// The user tapped Post. The default completes the request, returning no items.
    ///
    /// Stands in for `SLComposeServiceViewController.didSelectPost()`.
    open func didSelectPost() {
        extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
    }

    /// The user tapped Cancel. The default cancels the request with `NSUserCancelledError`.
    ///
    /// Stands in for `SLComposeServiceViewController.didSelectCancel()`.
    open func didSelectCancel() {
        extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
    }

    /// Dismisses the sheet as its Cancel button does: `didSelectCancel()`.
    ///
    /// Stands in for `SLComposeServiceViewController.cancel()`.
    open func cancel() { didSelectCancel() }

    /// The sheet finished appearing. Stands in for `presentationAnimationDidFinish()`.
    open func presentationAnimationDidFinish() {}

    /// The rows the sheet shows under the text (`SLComposeSheetConfigurationItem`s); none by default.
    ///
    /// Stands in for `SLComposeServiceViewController.configurationItems()`.
    open func configurationItems() -> [Any]! { [] }

    /// Asks `configurationItems()` again. Stands in for `reloadConfigurationItems()`.
    open func reloadConfigurationItems() {
        shownConfigurationItems = (configurationItems() ?? []).compactMap { $0 as? SLComposeSheetConfigurationItem }
    }

    /// The configuration items the sheet shows now.
    var shownConfigurationItems: [SLComposeSheetConfigurationItem] = []

    /// A preview of the attachments; none here. Stands in for `loadPreviewView()`.
    open func loadPreviewView() -> UIView! { nil }

    /// Shows a configuration item's own controller over the sheet.
    ///
    /// Stands in for `SLComposeServiceViewController.pushConfigurationViewController(_:)`.
    open func pushConfigurationViewController(_ viewController: UIViewController!) {
        guard let viewController else { return }
        present(viewController, animated: true)
    }

    /// Returns from a configuration item's controller. Stands in for `popConfigurationViewController()`.
    open func popConfigurationViewController() {
        dismiss(animated: true)
    }

    /// The sheet opens with the first item's content text, and asks for its configuration items.
    override func prepareToAppear() {
        let first = extensionContext?.inputItems.first as? NSExtensionItem
        textView.text = first?.attributedContentText?.string ?? ""
        reloadConfigurationItems()
        validateContent()
    }
}

/// What a configuration row calls when tapped. Stands in for Social's `SLComposeSheetConfigurationItemTapHandler`.
public typealias SLComposeSheetConfigurationItemTapHandler = () -> Void

/// A row of the compose sheet: a title, a value, and what a tap does.
///
/// Stands in for Social's `SLComposeSheetConfigurationItem`. Not a subclass of `NSObject` here: Apple's
/// initializer is imported from Objective-C as `init!()`, so template code writes
/// `SLComposeSheetConfigurationItem()!`, and Swift lets no subclass of `NSObject` override its `init()` with a
/// failable one.
open class SLComposeSheetConfigurationItem {
    /// Stands in for `SLComposeSheetConfigurationItem.title`.
    open var title: String!
    /// Stands in for `SLComposeSheetConfigurationItem.value`.
    open var value: String!
    /// Whether the value is still being worked out. Stands in for `valuePending`.
    open var valuePending = false
    /// Stands in for `SLComposeSheetConfigurationItem.tapHandler`.
    open var tapHandler: SLComposeSheetConfigurationItemTapHandler!

    /// Stands in for `SLComposeSheetConfigurationItem.init()`, which Apple's SDK imports as implicitly
    /// unwrapped; it never fails.
    public init!() {}
}
