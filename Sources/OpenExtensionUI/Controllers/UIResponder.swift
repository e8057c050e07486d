public import Foundation
import OpenItemProvider

/// An object in the responder chain: a view controller's next responder is the application that shows it.
///
/// Stands in for UIKit's `UIResponder`, main-actor isolated as Apple's is.
@preconcurrency @MainActor
open class UIResponder: NSObject {
    /// The next responder in the chain, or `nil` at its end.
    ///
    /// Stands in for `UIResponder.next`.
    open var next: UIResponder? { nil }

    /// Gives up first-responder status; always succeeds here (there is no keyboard).
    ///
    /// Stands in for `UIResponder.resignFirstResponder()`.
    @discardableResult
    open func resignFirstResponder() -> Bool { true }

    /// Asks to become the first responder; always succeeds here.
    ///
    /// Stands in for `UIResponder.becomeFirstResponder()`.
    @discardableResult
    open func becomeFirstResponder() -> Bool { true }
}

/// The application an extension runs in, at the end of its view controller's responder chain, as
/// extensions find it. Opening a URL asks the host through the extension context, the path UIKit takes.
///
/// Stands in for UIKit's `UIApplication`. Only `ExtensionPresenter` makes one; `UIApplication.shared` is
/// unavailable to extensions on iOS and absent here.
@preconcurrency @MainActor
open class UIApplication: UIResponder {
    /// A key of the options `open(_:options:completionHandler:)` takes.
    ///
    /// Stands in for `UIApplication.OpenExternalURLOptionsKey`.
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Open the URL only if an app claims it as a universal link.
        ///
        /// Stands in for `UIApplication.OpenExternalURLOptionsKey.universalLinksOnly`.
        public static let universalLinksOnly = OpenExternalURLOptionsKey(rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }

    private let context: NSExtensionContext

    init(context: NSExtensionContext) {
        self.context = context
    }

    /// Asks the host to open `url`; `completion` learns, on the main actor, whether it did.
    ///
    /// Stands in for `UIApplication.open(_:options:completionHandler:)`; the options are not used.
    open func open(_ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:],
                   completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil) {
        context.open(url) { opened in
            Task { @MainActor in completion?(opened) }
        }
    }
}
