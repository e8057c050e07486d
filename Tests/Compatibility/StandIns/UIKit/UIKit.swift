// A stand-in for the few UIKit classes share and action extensions touch beside the sharing API, so that
// extension sources from public apps compile here with `import UIKit` as written. Nothing is drawn: a view
// controller has a life cycle (load, appear), a responder chain ending at the application, and images that
// decode for real (through OpenSharing's Thumbnails). The compatibility suite only; not a product.
//
// Like Apple's, the classes are main-actor isolated, and UIKit brings Foundation and the sharing API with it.

@_exported import Foundation
@_exported import SharingShim
import Thumbnails

@MainActor
open class UIResponder: NSObject {
    /// The next responder: a view controller's is the application that presents it.
    open var next: UIResponder? { nil }
}

/// The application the extension runs in. Its `open(_:)` asks the host through the extension context, the
/// path an extension's responder-chain trick reaches on iOS; the URLs asked for are kept in `openedURLs`.
@MainActor
open class UIApplication: UIResponder {
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// OpenSharing: the context whose host receives the requests, and the URLs asked for, in order (from
    /// any thread: extensions call this from item-provider handlers too).
    public let context: NSExtensionContext
    private let requested = NSLock()
    nonisolated(unsafe) private var urls: [URL] = []
    public var openedURLs: [URL] { requested.withLock { urls } }

    public init(context: NSExtensionContext) {
        self.context = context
    }

    open func open(_ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:], completionHandler: ((Bool) -> Void)? = nil) {
        requested.withLock { urls.append(url) }
        nonisolated(unsafe) let handler = completionHandler
        context.open(url) { opened in
            Task { @MainActor in handler?(opened) }
        }
    }
}

@MainActor
open class UIView: UIResponder {
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
    }

    open var alpha: CGFloat = 1
    open var backgroundColor: UIColor?

    /// Applies the changes at once and finishes: nothing is on screen to animate.
    open class func animate(withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        animations()
        DispatchQueue.main.asyncAfter(deadline: .now() + delay + duration) { completion?(true) }
    }
}

/// A colour, by name only: nothing is drawn.
open class UIColor: NSObject, @unchecked Sendable {
    open class var clear: UIColor { UIColor() }
}

@MainActor
open class UITextView: UIView {
    open var text: String! = ""
    open var isEditable = true

    @discardableResult
    open func resignFirstResponder() -> Bool { true }
}

@MainActor
open class UIViewController: UIResponder {
    private var application: UIApplication?

    open private(set) var extensionContext: NSExtensionContext?
    private var loadedView: UIView?
    /// The view, loaded (`loadView()`, then `viewDidLoad()`) the first time it is asked for, as UIKit does.
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
    open var title: String?
    override open var next: UIResponder? { application }

    /// UIKit's designated initializer; there are no nibs, so both arguments are kept only for subclasses.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    /// Controllers are never decoded from storyboards here.
    public required init?(coder: NSCoder) {
        return nil
    }

    public override convenience init() {
        self.init(nibName: nil, bundle: nil)
    }

    open func loadView() { view = UIView() }
    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func willMove(toParent parent: UIViewController?) {}
    /// The name before Swift 4.2, which older extensions still override.
    open func willMove(toParentViewController parent: UIViewController?) {}

    /// OpenSharing: shows this controller as the system shows an extension's principal view controller: the
    /// context is attached, the view loads, and the controller appears. Answers the application at the end
    /// of its responder chain.
    @discardableResult
    open func presentAsExtension(with context: NSExtensionContext) -> UIApplication {
        let application = UIApplication(context: context)
        self.application = application
        extensionContext = context
        // The system adds the controller to a container of its own, then shows its view.
        let container = UIViewController()
        willMove(toParent: container)
        willMove(toParentViewController: container)
        _ = view
        viewDidLoadBeforeAppearing()
        viewWillAppear(false)
        viewDidAppear(false)
        return application
    }

    /// What a UIKit class does itself between loading and appearing, whatever its subclass overrides.
    func viewDidLoadBeforeAppearing() {}
}

/// Social's compose sheet, the base class of many share extensions (`import Social` brings it).
@MainActor
open class SLComposeServiceViewController: UIViewController {
    open private(set) var textView: UITextView! = UITextView()
    open var placeholder: String!
    /// The text the user typed: the first item's content text, which the sheet opens with.
    open var contentText: String! { textView.text }

    open func isContentValid() -> Bool { true }
    /// Posting completes the request with no items, as Apple's default implementation does.
    open func didSelectPost() { extensionContext?.completeRequest(returningItems: [], completionHandler: nil) }
    /// Cancelling cancels the request with `NSUserCancelledError`, as Apple's default implementation does.
    open func didSelectCancel() {
        extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
    }
    /// Dismisses the sheet as its Cancel button does.
    open func cancel() { didSelectCancel() }
    open func configurationItems() -> [Any]! { [] }

    /// The sheet opens with the first item's content text and asks for its configuration items.
    override func viewDidLoadBeforeAppearing() {
        let first = extensionContext?.inputItems.first as? NSExtensionItem
        textView.text = first?.attributedContentText?.string ?? ""
        _ = configurationItems()
    }
}

/// An image decoded from data: its size in points (one pixel each), upright, and its encodings.
public final class UIImage: NSObject, @unchecked Sendable {
    private let image: Thumbnail

    /// Decodes `data` as any image format OpenSharing reads; `nil` if it is not one.
    public init?(data: Data) {
        guard let header = try? Thumbnailer.header(of: data),
              let image = try? Thumbnailer(maxPixelSize: max(header.width, header.height), memoryBudget: 120 << 20).thumbnail(of: data)
        else { return nil }
        self.image = image
    }

    public var size: CGSize { CGSize(width: image.width, height: image.height) }

    public func jpegData(compressionQuality: CGFloat) -> Data? {
        encoded(as: .jpeg(quality: Int((compressionQuality * 100).rounded())))
    }

    public func pngData() -> Data? { encoded(as: .png) }

    private func encoded(as encoding: Thumbnail.Encoding) -> Data? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("uiimage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? image.write(to: file, as: encoding)) != nil else { return nil }
        return try? Data(contentsOf: file)
    }
}
