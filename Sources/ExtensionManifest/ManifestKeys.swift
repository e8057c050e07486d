import PackageSupport

/// Where a key lives in an extension's Info.plist.
enum KeyLevel: String, Sendable, CaseIterable {
    case infoPlist = "the Info.plist's top level"
    case extensionDictionary = "NSExtension"
    case attributes = "NSExtensionAttributes"
    case activationDictionary = "the NSExtensionActivationRule dictionary"
}

/// The value type a key takes.
enum KeyType: String, Sendable {
    case string, boolean, integer, number, dictionary, array
    case stringOrDictionary = "string or dict"
    case stringOrArray = "string or array"
}

/// One key of Apple's App Extension Keys reference (and the Info.plist keys an extension needs).
struct ManifestKey: Sendable {
    let name: String
    let level: KeyLevel
    let type: KeyType
    /// The extension points it applies to; `nil` for all.
    let extensionPoints: Set<String>?
    /// The platforms it applies to; `nil` for both.
    let platforms: Set<ManifestPlatform>?
    /// Another level where it is commonly written, though Apple's reference places it at `level`.
    let commonlyAt: KeyLevel?

    init(_ name: String, _ level: KeyLevel, _ type: KeyType, points: Set<String>? = nil, platforms: Set<ManifestPlatform>? = nil,
         commonlyAt: KeyLevel? = nil) {
        self.name = name
        self.level = level
        self.type = type
        self.extensionPoints = points
        self.platforms = platforms
        self.commonlyAt = commonlyAt
    }

    private static let shareAndAction: Set<String> = ["com.apple.share-services", "com.apple.ui-services", "com.apple.services"]
    private static let actions: Set<String> = ["com.apple.ui-services", "com.apple.services"]
    private static let intents: Set<String> = ["com.apple.intents-service", "com.apple.intents-ui-service", "com.apple.share-services"]

    static let all: [ManifestKey] = [
        // The Info.plist's own keys an extension bundle carries.
        .init("CFBundleIdentifier", .infoPlist, .string), .init("CFBundleDisplayName", .infoPlist, .string),
        .init("CFBundleName", .infoPlist, .string), .init("CFBundleExecutable", .infoPlist, .string),
        .init("CFBundlePackageType", .infoPlist, .string), .init("CFBundleVersion", .infoPlist, .string),
        .init("CFBundleShortVersionString", .infoPlist, .string), .init("CFBundleDevelopmentRegion", .infoPlist, .string),
        .init("CFBundleInfoDictionaryVersion", .infoPlist, .string), .init("MinimumOSVersion", .infoPlist, .string, platforms: [.iOS]),
        .init("LSMinimumSystemVersion", .infoPlist, .string, platforms: [.macOS]), .init("NSExtension", .infoPlist, .dictionary),
        .init("UTExportedTypeDeclarations", .infoPlist, .array), .init("UTImportedTypeDeclarations", .infoPlist, .array),
        // NSExtension.
        .init("NSExtensionPointIdentifier", .extensionDictionary, .string),
        .init("NSExtensionPrincipalClass", .extensionDictionary, .string),
        .init("NSExtensionMainStoryboard", .extensionDictionary, .string),
        .init("NSExtensionAttributes", .extensionDictionary, .dictionary),
        .init("NSExtensionPointVersion", .extensionDictionary, .string),
        // NSExtensionAttributes: share and action.
        .init("NSExtensionActivationRule", .attributes, .stringOrDictionary, points: shareAndAction),
        .init("NSExtensionJavaScriptPreprocessingFile", .attributes, .string, points: shareAndAction),
        // The reference: "must be an immediate child of the NSExtension key".
        .init("NSExtensionActionWantsFullScreenPresentation", .extensionDictionary, .boolean, points: actions, platforms: [.iOS]),
        .init("NSExtensionOverridesHostUIAppearance", .attributes, .boolean, points: ["com.apple.share-services", "com.apple.ui-services"], platforms: [.iOS]),
        // macOS action extensions.
        .init("NSExtensionServiceRoleType", .attributes, .string, points: actions, platforms: [.macOS]),
        .init("NSExtensionServiceAllowsFinderPreviewItem", .attributes, .boolean, points: actions, platforms: [.macOS]),
        .init("NSExtensionServiceAllowsTouchBarItem", .attributes, .boolean, points: actions, platforms: [.macOS]),
        .init("NSExtensionServiceFinderPreviewIconName", .attributes, .string, points: actions, platforms: [.macOS]),
        .init("NSExtensionServiceFinderPreviewLabel", .attributes, .string, points: actions, platforms: [.macOS]),
        .init("NSExtensionServiceTouchBarBezelColorName", .attributes, .string, points: actions, platforms: [.macOS]),
        .init("NSExtensionServiceTouchBarIconName", .attributes, .string, points: actions, platforms: [.macOS]),
        .init("NSExtensionServiceTouchBarLabel", .attributes, .string, points: actions, platforms: [.macOS]),
        // Custom keyboards.
        .init("IsASCIICapable", .attributes, .boolean, points: ["com.apple.keyboard-service"]),
        .init("PrefersRightToLeft", .attributes, .boolean, points: ["com.apple.keyboard-service"]),
        .init("PrimaryLanguage", .attributes, .string, points: ["com.apple.keyboard-service"]),
        .init("RequestsOpenAccess", .attributes, .boolean, points: ["com.apple.keyboard-service"]),
        // Document pickers and File Providers.
        .init("UIDocumentPickerModes", .attributes, .array, points: ["com.apple.fileprovider-ui"]),
        .init("UIDocumentPickerSupportedFileTypes", .attributes, .array, points: ["com.apple.fileprovider-ui"]),
        .init("NSExtensionFileProviderDocumentGroup", .extensionDictionary, .string, points: ["com.apple.fileprovider-nonui", "com.apple.fileprovider-ui"]),
        .init("NSExtensionFileProviderSupportsEnumeration", .extensionDictionary, .boolean, points: ["com.apple.fileprovider-nonui"]),
        .init("NSExtensionFileProviderActions", .extensionDictionary, .array, points: ["com.apple.fileprovider-actionsui", "com.apple.fileprovider-nonui"]),
        // Photo editing.
        .init("PHSupportedMediaTypes", .attributes, .array, points: ["com.apple.photo-editing"]),
        // Notification content.
        .init("UNNotificationExtensionCategory", .attributes, .stringOrArray, points: ["com.apple.usernotifications.content-extension"]),
        .init("UNNotificationExtensionInitialContentSizeRatio", .attributes, .number, points: ["com.apple.usernotifications.content-extension"]),
        .init("UNNotificationExtensionDefaultContentHidden", .attributes, .boolean, points: ["com.apple.usernotifications.content-extension"]),
        .init("UNNotificationExtensionOverridesDefaultTitle", .attributes, .boolean, points: ["com.apple.usernotifications.content-extension"]),
        .init("UNNotificationExtensionUserInteractionEnabled", .attributes, .boolean, points: ["com.apple.usernotifications.content-extension"]),
        // Intents (share extensions list INSendMessageIntent for share-sheet suggestions; a notification service
        // that makes communication notifications lists it too, as Apple's "Implementing communication
        // notifications" has the service update its content from the intent).
        .init("IntentsSupported", .attributes, .array, points: intents.union(["com.apple.usernotifications.service"])),
        .init("IntentsRestrictedWhileLocked", .attributes, .array, points: intents),
        .init("IntentsRestrictedWhileProtectedDataUnavailable", .attributes, .array, points: intents),
        // Broadcasts and Quick Look.
        .init("RPBroadcastProcessMode", .attributes, .string, points: ["com.apple.broadcast-services-upload"]),
        .init("QLSupportedContentTypes", .attributes, .array, points: ["com.apple.quicklook.preview", "com.apple.quicklook.thumbnail"]),
        .init("QLSupportsSearchableItems", .attributes, .boolean, points: ["com.apple.quicklook.preview"]),
        // The activation rule's dictionary form.
        .init("NSExtensionActivationSupportsAttachmentsWithMaxCount", .activationDictionary, .integer),
        .init("NSExtensionActivationSupportsAttachmentsWithMinCount", .activationDictionary, .integer),
        .init("NSExtensionActivationSupportsFileWithMaxCount", .activationDictionary, .integer),
        .init("NSExtensionActivationSupportsImageWithMaxCount", .activationDictionary, .integer),
        .init("NSExtensionActivationSupportsMovieWithMaxCount", .activationDictionary, .integer),
        .init("NSExtensionActivationSupportsText", .activationDictionary, .boolean),
        .init("NSExtensionActivationSupportsWebURLWithMaxCount", .activationDictionary, .integer),
        .init("NSExtensionActivationSupportsWebPageWithMaxCount", .activationDictionary, .integer),
        .init("NSExtensionActivationDictionaryVersion", .attributes, .integer, points: shareAndAction, commonlyAt: .activationDictionary),
        .init("NSExtensionActivationUsesStrictMatching", .activationDictionary, .boolean),
    ]

    static let byName: [String: ManifestKey] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    static func keys(at level: KeyLevel) -> [ManifestKey] {
        all.filter { $0.level == level }
    }

    /// The known key closest in spelling to `name` (case-insensitive edit distance), if close enough to be
    /// a misspelling of it.
    static func closest(to name: String, among candidates: [ManifestKey]) -> ManifestKey? {
        let lowered = Array(name.lowercased())
        let scored = candidates.map { ($0, editDistance(lowered, Array($0.name.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, best.0.name.count / 8) ? best.0 : nil
    }
}
