/// A class of device the runtime plays: its screen (scale and size in points, which `UIScreen` and image
/// renderers read) and the memory limit the system gives an extension point there, each figure with its source.
/// Apple publishes none of the limits; they are what developers have reported. Classes are equal when their
/// names are, and code as their names.
public struct DeviceClass: Sendable {
    /// The name `--device` takes: `iphone-13`.
    public var name: String
    /// The devices of the class: "iPhone 13".
    public var model: String
    /// Device pixels a point (`UIScreen.main.scale`).
    public var screenScale: Int
    /// The screen in points, portrait.
    public var screenWidth: Int, screenHeight: Int
    /// The iOS version played (`UIDevice.current.systemVersion`): iOS 26.0 for the phones in use today, the last
    /// their phones ran for the older classes.
    public var systemVersion: String
    /// The memory limit of each extension point reported for the class, in bytes; points not named here take
    /// their default (`ExtensionLimits.defaults(forExtensionPoint:)`).
    public var memoryLimits: [String: Int]
    /// What an empty extension of each point already uses on the device (UIKit and the system's frameworks),
    /// charged against the limit; none where no source gives a figure.
    public var baselines: [String: Int]
    /// Where each figure comes from.
    public var sources: [String]

    public init(name: String, model: String, screenScale: Int, screenWidth: Int, screenHeight: Int,
                systemVersion: String = DeviceClass.currentSystem, memoryLimits: [String: Int], baselines: [String: Int] = [:], sources: [String]) {
        self.name = name
        self.model = model
        self.screenScale = screenScale
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.systemVersion = systemVersion
        self.memoryLimits = memoryLimits
        self.baselines = baselines
        self.sources = sources
    }

    /// The memory limit the class gives `extensionPoint`, if a source reports one.
    public func memoryLimit(forExtensionPoint extensionPoint: String) -> Int? {
        memoryLimits[extensionPoint] ?? (DeviceClass.actionPoints.contains(extensionPoint) ? memoryLimits[DeviceClass.share] : nil)
    }

    /// What an empty extension of `extensionPoint` uses on the device, charged against its limit (0 when unknown).
    public func baseline(forExtensionPoint extensionPoint: String) -> Int {
        baselines[extensionPoint] ?? 0
    }

    static let share = "com.apple.share-services"
    /// Action extensions are reported to share the share extension's limit.
    static let actionPoints: Set<String> = ["com.apple.ui-services", "com.apple.services"]
    package static let notificationService = "com.apple.usernotifications.service"

    private static let screens = "https://developer.apple.com/design/human-interface-guidelines/layout (Specifications: device screen sizes and scale factors); the same figures tabled at https://gist.github.com/ricsantos/e7baee6885626b9cb87c021a5097623f"
    private static let newerScreens = "iPhone 16 Pro and iPhone 17: 402 × 874 points at 3×; iPhone 16 Pro Max: 440 × 956 at 3× (https://developer.apple.com/design/human-interface-guidelines/layout; https://pub.dev/documentation/flutterware/latest/devices/Devices/iphone16Pro-constant.html)"
    private static let shareLimits = "https://alicinaroglu.dev/share-extension-memory-limits-the-numbers-apple-wont-print/ (share extension ceilings measured on iPhone SE 2: ~110 MB, iPhone 13: ~120 MB, iPhone 15 Pro: ~180 MB)"
    private static let notificationLimits = "24 MB for notification service extensions on iOS 13 to 17: https://github.com/nextcloud/talk-ios/issues/1223, https://github.com/realm/realm-swift/issues/8606, https://blog.kulman.sk/dealing-with-memory-limits-in-app-extensions/"
    private static let olderNotificationLimits = "12 MB on an iPhone 5s and 16 MB on an iPhone X, as reported in 2020 and 2022: https://github.com/element-hq/element-ios/issues/3868, https://forums.developer.apple.com/forums/thread/698076"
    /// The iOS version the phones in use today run: every class here but the two older ones is of phones that run
    /// iOS 26 (the iPhone 11 and later, and the second and third iPhone SE).
    public static let currentSystem = "26.0"
    private static let currentSystemSource = "iOS 26.0: iOS 26 runs on the iPhone 11 and later and the iPhone SE (2nd and 3rd generation), not the XR or XS (Apple's compatibility list, as https://www.tomsguide.com/phones/iphones/ios-26-supported-devices-heres-the-iphones-that-do-and-dont-make-the-cut reports it)"
    private static let noShareFigure = "no source gives this model's share extension limit: the point's reported 120 MB applies"

    /// The classes the runtime knows: the phones in use today (every one iOS 26 supports is of one of these
    /// screens), and two older ones with the notification limits reported for them.
    public static let all: [DeviceClass] = [
        DeviceClass(name: "iphone-se-2", model: "iPhone SE (2nd generation)", screenScale: 2, screenWidth: 375, screenHeight: 667,
                    memoryLimits: [share: 110 << 20, notificationService: 24 << 20], sources: [screens, currentSystemSource, shareLimits, notificationLimits]),
        DeviceClass(name: "iphone-se-3", model: "iPhone SE (3rd generation)", screenScale: 2, screenWidth: 375, screenHeight: 667,
                    memoryLimits: [notificationService: 24 << 20], sources: [screens, currentSystemSource, noShareFigure, notificationLimits]),
        DeviceClass(name: "iphone-11", model: "iPhone 11 and iPhone XR", screenScale: 2, screenWidth: 414, screenHeight: 896,
                    memoryLimits: [notificationService: 24 << 20], sources: [screens, currentSystemSource, noShareFigure, notificationLimits]),
        DeviceClass(name: "iphone-13", model: "iPhone 13", screenScale: 3, screenWidth: 390, screenHeight: 844,
                    memoryLimits: [share: 120 << 20, notificationService: 24 << 20],
                    sources: [screens, currentSystemSource, shareLimits, "https://github.com/signalapp/Signal-iOS/issues/4220 (a share extension \"terminated upon reaching 120MB\")",
                              notificationLimits]),
        DeviceClass(name: "iphone-14", model: "iPhone 14 (and 12, 13 Pro, 16e)", screenScale: 3, screenWidth: 390, screenHeight: 844,
                    memoryLimits: [notificationService: 24 << 20], sources: [screens, currentSystemSource, noShareFigure, notificationLimits]),
        DeviceClass(name: "iphone-15", model: "iPhone 15 (and 14 Pro, 16)", screenScale: 3, screenWidth: 393, screenHeight: 852,
                    memoryLimits: [notificationService: 24 << 20], sources: [screens, currentSystemSource, noShareFigure, notificationLimits]),
        DeviceClass(name: "iphone-15-pro", model: "iPhone 15 Pro", screenScale: 3, screenWidth: 393, screenHeight: 852,
                    memoryLimits: [share: 180 << 20, notificationService: 24 << 20], sources: [screens, currentSystemSource, shareLimits, notificationLimits]),
        DeviceClass(name: "iphone-16-pro", model: "iPhone 16 Pro (and 17)", screenScale: 3, screenWidth: 402, screenHeight: 874,
                    memoryLimits: [notificationService: 24 << 20], sources: [newerScreens, currentSystemSource, noShareFigure, notificationLimits]),
        DeviceClass(name: "iphone-16-pro-max", model: "iPhone 16 Pro Max", screenScale: 3, screenWidth: 440, screenHeight: 956,
                    memoryLimits: [notificationService: 24 << 20], sources: [newerScreens, currentSystemSource, noShareFigure, notificationLimits]),
        DeviceClass(name: "iphone-x-2020", model: "iPhone X, as reported in 2020", screenScale: 3, screenWidth: 375, screenHeight: 812,
                    systemVersion: "14.0", memoryLimits: [notificationService: 16 << 20],
                    sources: [screens, "iOS 14.0, released in September 2020, the year of the report", olderNotificationLimits]),
        DeviceClass(name: "iphone-5s", model: "iPhone 5s (iOS 12 at most)", screenScale: 2, screenWidth: 320, screenHeight: 568,
                    systemVersion: "12.5.7", memoryLimits: [notificationService: 12 << 20],
                    sources: [screens, "iOS 12.5.7 (January 2023), the last release of iOS 12, the last the iPhone 5s runs", olderNotificationLimits]),
    ]

    /// The device played when none is named: the iPhone 13, a phone in use today whose screen draws at 3× and whose
    /// share extension limit (120 MB) is the smallest reported for a 3× phone. `--device none` (`nil`) opts out.
    public static let `default` = named("iphone-13")!

    /// The devices `sharing test` plays when none are named (`--devices standard`): the smallest share extension
    /// limit reported for a current phone (the iPhone SE, 110 MB, 2×) and the default, the largest scale with the
    /// smallest limit reported at it (the iPhone 13, 120 MB, 3×).
    public static let standard = [named("iphone-se-2")!, `default`]

    /// How a report names it: "iphone-13 (iPhone 13, 3×, 390 × 844 points)".
    public var played: String { "\(name) (\(model), \(screenScale)×, \(screenWidth) × \(screenHeight) points)" }

    /// The class named `name`.
    public static func named(_ name: String) -> DeviceClass? {
        all.first { $0.name == name }
    }
}

extension DeviceClass: Hashable, Codable, CustomStringConvertible {
    public static func == (a: DeviceClass, b: DeviceClass) -> Bool { a.name == b.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Its name.
    public var description: String { name }

    /// Reads a class's name.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the classes when none has the name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let device = Self.named(name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no device is named '\(name)' (they are \(Self.all.map(\.name).joined(separator: ", ")))")
        }
        self = device
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
