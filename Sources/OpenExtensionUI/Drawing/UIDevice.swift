public import Foundation

/// Which way a device is held. Stands in for UIKit's `UIDeviceOrientation`, with its raw values.
public enum UIDeviceOrientation: Int, Sendable {
    case unknown = 0, portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown

    /// Stands in for `UIDeviceOrientation.isPortrait`.
    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    /// Stands in for `UIDeviceOrientation.isLandscape`.
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    /// Stands in for `UIDeviceOrientation.isFlat`.
    public var isFlat: Bool { self == .faceUp || self == .faceDown }
    /// Stands in for `UIDeviceOrientation.isValidInterfaceOrientation`.
    public var isValidInterfaceOrientation: Bool { isPortrait || isLandscape }
}

/// The phone the runtime plays, as UIKit describes it: an iPhone, held upright, running the iOS version of the
/// device class played (`OPENSHARING_SYSTEM_VERSION`, which the runtime passes; else iOS 26.0). Its name is
/// the model's, as iOS 16 and later give it to apps without the user-assigned-name entitlement.
///
/// Stands in for UIKit's `UIDevice`, main-actor isolated as Apple's is.
@preconcurrency @MainActor
open class UIDevice: NSObject {
    /// Stands in for `UIDevice.BatteryState`, with UIKit's raw values.
    public enum BatteryState: Int, Sendable {
        case unknown = 0, unplugged, charging, full
    }

    /// Stands in for `UIDevice.current`.
    public static let current = UIDevice()

    /// Stands in for `UIDevice.name`: "iPhone", as iOS 16 and later answer without the entitlement.
    open var name: String { "iPhone" }
    /// Stands in for `UIDevice.model`.
    open var model: String { "iPhone" }
    /// Stands in for `UIDevice.localizedModel`.
    open var localizedModel: String { "iPhone" }
    /// Stands in for `UIDevice.systemName`.
    open var systemName: String { "iOS" }
    /// Stands in for `UIDevice.systemVersion`: the played device class's iOS version.
    open var systemVersion: String {
        let given = ProcessInfo.processInfo.environment["OPENSHARING_SYSTEM_VERSION"] ?? ""
        let numbers = given.split(separator: ".", omittingEmptySubsequences: false)
        let valid = (1...3).contains(numbers.count) && numbers.allSatisfy { !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        return valid ? given : "26.0"
    }
    /// Stands in for `UIDevice.userInterfaceIdiom`.
    open var userInterfaceIdiom: UIUserInterfaceIdiom { .phone }
    /// Stands in for `UIDevice.orientation`: upright, as the runtime plays a phone in portrait.
    open var orientation: UIDeviceOrientation { .portrait }
    /// Stands in for `UIDevice.isMultitaskingSupported`.
    open var isMultitaskingSupported: Bool { true }

    /// The same for every app of one vendor on the device: here, for every bundle whose identifier begins with the
    /// same two components (`com.example`), as a vendor's app and its extensions share one; nil without a bundle
    /// identifier. Stands in for `UIDevice.identifierForVendor`.
    open var identifierForVendor: UUID? {
        guard let identifier = Bundle.main.bundleIdentifier, !identifier.isEmpty else { return nil }
        return Self.vendorIdentifier(identifier.split(separator: ".").prefix(2).joined(separator: "."))
    }

    /// Stands in for `UIDevice.isBatteryMonitoringEnabled`.
    open var isBatteryMonitoringEnabled = false
    /// -1 until monitoring is enabled, as UIKit's; then a full battery. Stands in for `UIDevice.batteryLevel`.
    open var batteryLevel: Float { isBatteryMonitoringEnabled ? 1 : -1 }
    /// Unknown until monitoring is enabled, as UIKit's; then full, on its charger. Stands in for `UIDevice.batteryState`.
    open var batteryState: BatteryState { isBatteryMonitoringEnabled ? .full : .unknown }

    /// Stands in for `UIDevice.isGeneratingDeviceOrientationNotifications`.
    open private(set) var isGeneratingDeviceOrientationNotifications = false
    /// Stands in for `UIDevice.beginGeneratingDeviceOrientationNotifications()`: none is posted, as the phone is never turned.
    open func beginGeneratingDeviceOrientationNotifications() { isGeneratingDeviceOrientationNotifications = true }
    /// Stands in for `UIDevice.endGeneratingDeviceOrientationNotifications()`.
    open func endGeneratingDeviceOrientationNotifications() { isGeneratingDeviceOrientationNotifications = false }

    /// Stands in for `UIDevice.orientationDidChangeNotification`, posted by nothing here.
    nonisolated public static let orientationDidChangeNotification = Notification.Name("UIDeviceOrientationDidChangeNotification")
    /// Stands in for `UIDevice.batteryLevelDidChangeNotification`, posted by nothing here.
    nonisolated public static let batteryLevelDidChangeNotification = Notification.Name("UIDeviceBatteryLevelDidChangeNotification")
    /// Stands in for `UIDevice.batteryStateDidChangeNotification`, posted by nothing here.
    nonisolated public static let batteryStateDidChangeNotification = Notification.Name("UIDeviceBatteryStateDidChangeNotification")

    /// A UUID made from `vendor` alone (64-bit FNV-1a of it, twice, with the version and variant bits of a
    /// name-based UUID), so that a run gives the same one every time.
    package static func vendorIdentifier(_ vendor: String) -> UUID {
        func fnv(_ seed: UInt64) -> UInt64 {
            vendor.utf8.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        var bytes = withUnsafeBytes(of: fnv(0xcbf2_9ce4_8422_2325).bigEndian, Array.init) + withUnsafeBytes(of: fnv(0x8422_2325_cbf2_9ce4).bigEndian, Array.init)
        bytes[6] = bytes[6] & 0x0f | 0x50
        bytes[8] = bytes[8] & 0x3f | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
