public import Foundation
import OpenImageIO

/// Editable text, as the compose sheet shows it. Stands in for UIKit's `UITextView`.
@preconcurrency @MainActor
open class UITextView: UIView {
    /// Setting it does not tell the delegate, as a change made in code does not on iOS. Stands in for
    /// `UITextView.text`.
    open var text: String! = ""
    /// Stands in for `UITextView.isEditable`.
    open var isEditable = true
    /// Stands in for `UITextView.font`.
    open var font: UIFont?
    /// Stands in for `UITextView.textColor`.
    open var textColor: UIColor?
    /// Stands in for `UITextView.textAlignment`.
    open var textAlignment: NSTextAlignment = .natural
    /// Stands in for `UITextView.isScrollEnabled` (a `UIScrollView`'s on iOS).
    open var isScrollEnabled = true
    /// Stands in for `UITextView.delegate`.
    open weak var delegate: (any UITextViewDelegate)?
}

/// Told what a person does in a text view. Stands in for UIKit's `UITextViewDelegate`; every requirement has a
/// default, as its optional methods are: begin and change allowed, nothing done.
@MainActor
public protocol UITextViewDelegate: NSObjectProtocol {
    /// Stands in for `UITextViewDelegate.textViewShouldBeginEditing(_:)`.
    func textViewShouldBeginEditing(_ textView: UITextView) -> Bool
    /// Stands in for `UITextViewDelegate.textViewDidBeginEditing(_:)`.
    func textViewDidBeginEditing(_ textView: UITextView)
    /// Stands in for `UITextViewDelegate.textViewDidEndEditing(_:)`.
    func textViewDidEndEditing(_ textView: UITextView)
    /// Stands in for `UITextViewDelegate.textView(_:shouldChangeTextIn:replacementText:)`.
    func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool
    /// Stands in for `UITextViewDelegate.textViewDidChange(_:)`.
    func textViewDidChange(_ textView: UITextView)
}

extension UITextViewDelegate {
    public func textViewShouldBeginEditing(_ textView: UITextView) -> Bool { true }
    public func textViewDidBeginEditing(_ textView: UITextView) {}
    public func textViewDidEndEditing(_ textView: UITextView) {}
    public func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool { true }
    public func textViewDidChange(_ textView: UITextView) {}
}
