/// One load the extension asked for, or one representation it returned.
public struct ExtensionLoad: Sendable, Equatable {
    public var typeIdentifier: String
    /// How the representation was loaded.
    public var form: LoadForm
    /// The bytes handed over, when known.
    public var size: Int?
    /// Why it failed, if it did.
    public var failure: String?

    public init(typeIdentifier: String, form: LoadForm, size: Int? = nil, failure: String? = nil) {
        self.typeIdentifier = typeIdentifier
        self.form = form
        self.size = size
        self.failure = failure
    }
}
