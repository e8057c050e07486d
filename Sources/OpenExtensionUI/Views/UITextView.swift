import Foundation
import OpenImageIO

/// Editable text, as the compose sheet shows it. Stands in for UIKit's `UITextView`.
@preconcurrency @MainActor
open class UITextView: UIView {
    /// Stands in for `UITextView.text`.
    open var text: String! = ""
    /// Stands in for `UITextView.isEditable`.
    open var isEditable = true
}
