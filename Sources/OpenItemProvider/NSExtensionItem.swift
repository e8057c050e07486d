public import Foundation

/// The user-info key of an item's title. Stands in for Foundation's `NSExtensionItemAttributedTitleKey`.
public let NSExtensionItemAttributedTitleKey = "NSExtensionItemAttributedTitleKey"
/// The user-info key of an item's content text. Stands in for `NSExtensionItemAttributedContentTextKey`.
public let NSExtensionItemAttributedContentTextKey = "NSExtensionItemAttributedContentTextKey"
/// The user-info key of an item's attachments. Stands in for `NSExtensionItemAttachmentsKey`.
public let NSExtensionItemAttachmentsKey = "NSExtensionItemAttachmentsKey"
/// The key, in the property list Safari attaches, of what a JavaScript preprocessing file's `run` passed
/// to `completionFunction`. Stands in for `NSExtensionJavaScriptPreprocessingResultsKey`.
public let NSExtensionJavaScriptPreprocessingResultsKey = "NSExtensionJavaScriptPreprocessingResultsKey"
/// The key of what an action extension returns to its JavaScript `finalize` function.
/// Stands in for `NSExtensionJavaScriptFinalizeArgumentKey`.
public let NSExtensionJavaScriptFinalizeArgumentKey = "NSExtensionJavaScriptFinalizeArgumentKey"
/// The key of the items and errors an extension returns. Stands in for `NSExtensionItemsAndErrorsKey`.
public let NSExtensionItemsAndErrorsKey = "NSExtensionItemsAndErrorsKey"

/// One item a host app shares with an extension: a title, content text, attachments (item providers)
/// and more, all kept in `userInfo` under the keys above, as Apple does.
///
/// Stands in for Foundation's `NSExtensionItem`.
// @unchecked: Apple's SDK declares this class Sendable, and like Apple's it is an open NSObject subclass the compiler cannot check; its storage is under a lock.
open class NSExtensionItem: NSObject, NSCopying, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [AnyHashable: Any] = [:]

    public override init() {
        super.init()
    }

    /// The title (`NSExtensionItemAttributedTitleKey`).
    open var attributedTitle: NSAttributedString? {
        get { value(NSExtensionItemAttributedTitleKey) }
        set { setValue(newValue?.copy(), for: NSExtensionItemAttributedTitleKey) }
    }

    /// The content text (`NSExtensionItemAttributedContentTextKey`): what Mail and Notes put a message's
    /// body in, sometimes with no attachment at all.
    open var attributedContentText: NSAttributedString? {
        get { value(NSExtensionItemAttributedContentTextKey) }
        set { setValue(newValue?.copy(), for: NSExtensionItemAttributedContentTextKey) }
    }

    /// The item providers (`NSExtensionItemAttachmentsKey`).
    open var attachments: [NSItemProvider]? {
        get { value(NSExtensionItemAttachmentsKey) }
        set { setValue(newValue, for: NSExtensionItemAttachmentsKey) }
    }

    /// Everything the item holds; setting it replaces the title, content text and attachments too.
    open var userInfo: [AnyHashable: Any]? {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue ?? [:] } }
    }

    /// A copy holding the same values (the same item providers).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSExtensionItem()
        copy.userInfo = userInfo
        return copy
    }

    open override var description: String {
        let title = attributedTitle.map { " title: \"\($0.string)\"" } ?? ""
        return "<NSExtensionItem\(title) attachments: \(attachments?.count ?? 0)>"
    }

    private func value<T>(_ key: String) -> T? {
        lock.withLock { storage[key] as? T }
    }

    private func setValue(_ value: Any?, for key: String) {
        lock.withLock { storage[key] = value }
    }
}
