import SwiftIfConfig
import SwiftSyntax

/// A platform a conditional-compilation condition is evaluated for: iOS on a device, as an extension's code is
/// compiled for a phone, or this Linux, as the bundle was compiled here. What the two share (the compiler, the
/// language mode, custom conditions) answers the same on both, so only what differs between them can make a
/// block compiled on one and not the other.
struct TargetPlatform: BuildConfiguration {
    var operatingSystems: Set<String>
    var architecture: String
    var runtime: String
    var objectFormat: String
    /// Whether a module is importable on this platform.
    var imports: @Sendable (String) -> Bool

    /// An iPhone: arm64, not the simulator (`targetEnvironment(simulator)` is false on a device), Objective-C's
    /// runtime, the iOS SDK's modules (Apple's frameworks, and any module of the package's or its dependencies').
    static let iOSDevice = TargetPlatform(
        operatingSystems: ["iOS"], architecture: "arm64", runtime: "_ObjC", objectFormat: "MachO",
        imports: { module in !linuxOnlyModules.contains(module) })

    /// This Linux: its architecture, Swift's native runtime, ELF, and every module but Apple's frameworks
    /// (OpenSharing names none of its modules after one, so `canImport(UIKit)` is false here).
    static let here = TargetPlatform(
        operatingSystems: ["Linux"], architecture: hostArchitecture, runtime: "_Native", objectFormat: "ELF",
        imports: { module in !appleOnlyModules.contains(module) })

    private static var hostArchitecture: String {
        #if arch(arm64)
        "arm64"
        #else
        "x86_64"
        #endif
    }

    func isCustomConditionSet(name: String) -> Bool {
        // The same on both; a device runs a release build, where DEBUG is not set.
        false
    }

    func hasFeature(name: String) -> Bool { false }

    func hasAttribute(name: String) -> Bool { true }

    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) -> Bool {
        guard let module = importPath.first?.1 else { return false }
        return imports(module)
    }

    func isActiveTargetOS(name: String) -> Bool { operatingSystems.contains(name) }

    func isActiveTargetArchitecture(name: String) -> Bool { name == architecture }

    func isActiveTargetEnvironment(name: String) -> Bool {
        // Neither a device nor Linux is a simulator or Mac Catalyst.
        false
    }

    func isActiveTargetRuntime(name: String) -> Bool { name == runtime }

    func isActiveTargetPointerAuthentication(name: String) -> Bool { name == "_none" }

    func isActiveTargetObjectFormat(name: String) -> Bool { name == objectFormat }

    /// The requirement's name in swift-syntax 602.
    func isActiveTargetObjectFileFormat(name: String) -> Bool { name == objectFormat }

    var targetPointerBitWidth: Int { 64 }

    var targetAtomicBitWidths: [Int] { [8, 16, 32, 64, 128] }

    var endianness: Endianness { .little }

    var languageVersion: VersionTuple { VersionTuple(6, 0) }

    var compilerVersion: VersionTuple { VersionTuple(6, 3) }
}

/// Modules of Linux's toolchain that Apple's SDKs do not have.
private let linuxOnlyModules: Set<String> = [
    "Glibc", "Musl", "Bionic", "Android", "WinSDK", "WASILibc", "FoundationNetworking", "FoundationXML",
    "FoundationEssentials", "FoundationInternationalization", "_FoundationCShims",
]

/// The iOS SDK's modules that Linux does not have: Apple's frameworks an extension imports (the iOS SDK's
/// `System/Library/Frameworks`, as its documentation lists them), and Darwin's C modules.
private let appleOnlyModules: Set<String> = [
    "Darwin", "ObjectiveC", "os", "MachO", "Accelerate", "Accessibility", "ActivityKit", "AdSupport", "AppIntents",
    "AppTrackingTransparency", "AudioToolbox", "AuthenticationServices", "AVFAudio", "AVFoundation", "AVKit",
    "BackgroundTasks", "CallKit", "CFNetwork", "CloudKit", "Combine", "Contacts", "ContactsUI", "CoreAudio",
    "CoreData", "CoreGraphics", "CoreHaptics", "CoreImage", "CoreLocation", "CoreML", "CoreMedia", "CoreMotion",
    "CoreServices", "CoreSpotlight", "CoreText", "CoreTransferable", "CoreVideo", "CryptoKit", "DeviceCheck",
    "EventKit", "EventKitUI", "FileProvider", "FileProviderUI", "GameKit", "HealthKit", "ImageIO", "Intents",
    "IntentsUI", "LinkPresentation", "LocalAuthentication", "MapKit", "MediaPlayer", "MessageUI", "Messages",
    "Metal", "MetalKit", "MobileCoreServices", "NaturalLanguage", "Network", "NotificationCenter", "OSLog",
    "PDFKit", "PassKit", "Photos", "PhotosUI", "PushKit", "QuartzCore", "QuickLook", "QuickLookThumbnailing",
    "SafariServices", "Security", "Social", "SpriteKit", "StoreKit", "SwiftData", "SwiftUI", "UIKit",
    "UniformTypeIdentifiers", "UserNotifications", "UserNotificationsUI", "Vision", "VisionKit", "WebKit",
    "WidgetKit",
]
