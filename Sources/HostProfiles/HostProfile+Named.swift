/// Each built-in profile by name, as a static member, so that a test says `HostProfile.photos` (and
/// `HostProfile.allCases` for every one). Each is `named(_:)` of the name its comment gives.
extension HostProfile {
    /// The `safari` profile.
    public static let safari = builtIn("safari")
    /// The `safari-javascript` profile.
    public static let safariJavaScript = builtIn("safari-javascript")
    /// The `safari-image` profile.
    public static let safariImage = builtIn("safari-image")
    /// The `chrome` profile.
    public static let chrome = builtIn("chrome")
    /// The `firefox` profile.
    public static let firefox = builtIn("firefox")
    /// The `empty` profile.
    public static let empty = builtIn("empty")
    /// The `no-attachments` profile.
    public static let noAttachments = builtIn("no-attachments")
    /// The `empty-attachment` profile.
    public static let emptyAttachment = builtIn("empty-attachment")
    /// The `duplicates` profile.
    public static let duplicates = builtIn("duplicates")
    /// The `files` profile.
    public static let files = builtIn("files")
    /// The `notes` profile.
    public static let notes = builtIn("notes")
    /// The `mail` profile.
    public static let mail = builtIn("mail")
    /// The `messages` profile.
    public static let messages = builtIn("messages")
    /// The `screenshot` profile.
    public static let screenshot = builtIn("screenshot")
    /// The `photos` profile.
    public static let photos = builtIn("photos")
    /// The `live-photo` profile.
    public static let livePhoto = builtIn("live-photo")
    /// The `live-photo-messages` profile.
    public static let livePhotoMessages = builtIn("live-photo-messages")
    /// The `live-photo-bundle` profile.
    public static let livePhotoBundle = builtIn("live-photo-bundle")

    /// The built-in profile named `name`, which exists: the names above are those of `all`.
    private static func builtIn(_ name: String) -> HostProfile {
        guard let profile = named(name) else { preconditionFailure("no built-in host profile is named \(name)") }
        return profile
    }
}
