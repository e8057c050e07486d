/// The platforms an Info.plist key or an extension point belongs to.
public enum ManifestPlatform: String, Sendable, Hashable, Codable {
    case iOS, macOS
}

/// An extension point (`NSExtensionPointIdentifier`): what kind of extension, on which platforms, how it
/// starts, and the memory limit developers have measured for it.
public struct ExtensionPoint: Sendable, Hashable {
    public let identifier: String
    public let name: String
    public let platforms: Set<ManifestPlatform>
    /// Whether the system shows it by an `NSExtensionActivationRule` (share and action extensions).
    public let usesActivationRule: Bool
    /// Whether it has a view controller (`NSExtensionMainStoryboard` or a view-controller principal class).
    public let hasUserInterface: Bool
    /// A memory limit developers report for it, in MB, with where it was reported. Information, not a promise:
    /// Apple publishes no figures, and they vary by device and OS version.
    public let reportedMemoryLimit: ReportedLimit?

    public struct ReportedLimit: Sendable, Hashable {
        public let megabytes: Int
        public let source: String
    }

    /// The extension points OpenSharing knows.
    public static let all: [ExtensionPoint] = [
        .init("com.apple.share-services", "Share", [.iOS, .macOS], activation: true, ui: true,
              limit: .init(megabytes: 120, source: "https://alicinaroglu.dev/share-extension-memory-limits-the-numbers-apple-wont-print/ (about 110 MB on a 3 GB iPhone to 180 MB on 8 GB ones)")),
        .init("com.apple.ui-services", "Action (with a user interface)", [.iOS, .macOS], activation: true, ui: true),
        .init("com.apple.services", "Action (without a user interface)", [.iOS, .macOS], activation: true, ui: false),
        .init("com.apple.keyboard-service", "Custom keyboard", [.iOS], activation: false, ui: true),
        .init("com.apple.fileprovider-ui", "Document picker / File Provider UI", [.iOS], activation: false, ui: true),
        .init("com.apple.fileprovider-nonui", "File Provider", [.iOS, .macOS], activation: false, ui: false),
        .init("com.apple.fileprovider-actionsui", "File Provider actions", [.iOS], activation: false, ui: true),
        .init("com.apple.photo-editing", "Photo editing", [.iOS, .macOS], activation: false, ui: true),
        .init("com.apple.widget-extension", "Today (widget)", [.iOS, .macOS], activation: false, ui: true,
              limit: .init(megabytes: 16, source: "https://cocoaheads.tv/memory-use-in-extensions-by-conrad-kramer/")),
        .init("com.apple.widgetkit-extension", "Widget (WidgetKit)", [.iOS, .macOS], activation: false, ui: false),
        .init("com.apple.usernotifications.service", "Notification service", [.iOS, .macOS], activation: false, ui: false,
              limit: .init(megabytes: 24, source: "https://blog.kulman.sk/dealing-with-memory-limits-in-app-extensions/")),
        .init("com.apple.usernotifications.content-extension", "Notification content", [.iOS], activation: false, ui: true),
        .init("com.apple.intents-service", "Intents", [.iOS, .macOS], activation: false, ui: false),
        .init("com.apple.intents-ui-service", "Intents UI", [.iOS], activation: false, ui: true),
        .init("com.apple.broadcast-services-upload", "Broadcast upload", [.iOS], activation: false, ui: false),
        .init("com.apple.broadcast-services-setupui", "Broadcast setup UI", [.iOS], activation: false, ui: true),
        .init("com.apple.Safari.content-blocker", "Safari content blocker", [.iOS, .macOS], activation: false, ui: false),
        .init("com.apple.Safari.web-extension", "Safari web extension", [.iOS, .macOS], activation: false, ui: false),
        .init("com.apple.message-payload-provider", "iMessage app", [.iOS], activation: false, ui: true),
        .init("com.apple.authentication-services-credential-provider-ui", "Credential provider (AutoFill)", [.iOS, .macOS], activation: false, ui: true),
        .init("com.apple.quicklook.preview", "Quick Look preview", [.iOS, .macOS], activation: false, ui: true),
        .init("com.apple.quicklook.thumbnail", "Quick Look thumbnail", [.iOS, .macOS], activation: false, ui: false),
        .init("com.apple.FinderSync", "Finder Sync", [.macOS], activation: false, ui: false),
    ]

    public static func named(_ identifier: String) -> ExtensionPoint? {
        all.first { $0.identifier == identifier }
    }

    private init(_ identifier: String, _ name: String, _ platforms: Set<ManifestPlatform>, activation: Bool, ui: Bool, limit: ReportedLimit? = nil) {
        self.identifier = identifier
        self.name = name
        self.platforms = platforms
        self.usesActivationRule = activation
        self.hasUserInterface = ui
        self.reportedMemoryLimit = limit
    }
}
