import Foundation
import OpenImageIO

/// A line of editable text, as an alert's text field is. Stands in for UIKit's `UITextField`.
@preconcurrency @MainActor
open class UITextField: UIView {
    /// Stands in for `UITextField.text`.
    open var text: String?
    /// Stands in for `UITextField.placeholder`.
    open var placeholder: String?
    /// Stands in for `UITextField.isSecureTextEntry`.
    open var isSecureTextEntry = false
}
