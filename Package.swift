// swift-tools-version: 6.1
import PackageDescription

/// Strict Swift 6 everywhere: explicit `any`, imports visible only where written, internal imports by default.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Where Apple's frameworks are missing and OpenSharing's modules stand in for them.
let nonApplePlatforms: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]

let package = Package(
    name: "OpenSharing",
    // What the API needs (UTType: iOS 14, macOS 11), so that an app that supports older systems can adopt
    // SharingShim on iOS too.
    platforms: [.macOS(.v11), .iOS(.v14)],
    products: [
        .library(name: "SharingShim", targets: ["SharingShim"]),
        .library(name: "OpenUniformTypeIdentifiers", targets: ["OpenUniformTypeIdentifiers"]),
        .library(name: "OpenItemProvider", targets: ["OpenItemProvider"]),
        .library(name: "HostProfiles", targets: ["HostProfiles"]),
        .library(name: "ExtensionManifest", targets: ["ExtensionManifest"]),
        .library(name: "ShareInbox", targets: ["ShareInbox"]),
        .library(name: "ShareIntake", targets: ["ShareIntake"]),
        .library(name: "Thumbnails", targets: ["Thumbnails"]),
        .executable(name: "sharing", targets: ["sharing"]),
        .plugin(name: "Appex", targets: ["Appex"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // Package-only primitives under everything: the lock, and the one reply box.
        .target(name: "PackageSupport", swiftSettings: strictSettings),
        .target(name: "PropertyLists", swiftSettings: strictSettings),
        .target(name: "CSharingSystem"),
        // BLAKE3 of our own, with SIMD kernels chosen at run time; optimized as SwiftPM builds C (no unsafe
        // flags: a package resolved by version may have none).
        .target(name: "CBLAKE3"),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The only module that calls the operating system.
        .target(
            name: "SharingSystem",
            dependencies: ["CSharingSystem", "PackageSupport", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSettings
        ),
        // Naming and sniffing files by type: the platform's UTType, no system calls.
        .target(
            name: "ContentTypes",
            dependencies: [.target(name: "OpenUniformTypeIdentifiers", condition: .when(platforms: nonApplePlatforms))],
            swiftSettings: strictSettings
        ),
        // The Core Foundation names (CFString, CFDictionary, CFURL …) as aliases of Foundation's bridged classes.
        .target(name: "OpenCoreFoundation", swiftSettings: strictSettings),
        .target(
            name: "OpenUniformTypeIdentifiers",
            dependencies: ["PropertyLists", "OpenCoreFoundation"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "OpenItemProvider",
            dependencies: [
                "OpenUniformTypeIdentifiers", "PropertyLists", "SharingSystem", "ContentTypes", "PackageSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSettings
        ),
        // ImageIO's image sources and destinations, and the CoreGraphics images they make, over Thumbnails.
        .target(name: "OpenImageIO", dependencies: ["OpenCoreFoundation", "Thumbnails", "SharingSystem", "PackageSupport"],
                swiftSettings: strictSettings),
        // The headless part of UIKit and Social that extension principals use: view controllers, the compose
        // sheet, images.
        .target(name: "OpenExtensionUI", dependencies: ["OpenItemProvider", "OpenImageIO", "OpenCoreFoundation", "Thumbnails"], swiftSettings: strictSettings),
        // The notification service API (UserNotifications' part of it), with Apple's checks of attachments.
        .target(name: "OpenUserNotifications", dependencies: ["OpenUniformTypeIdentifiers", "ContentTypes", "PackageSupport"],
                swiftSettings: strictSettings),
        .target(
            name: "SharingShim",
            dependencies: [
                .target(name: "OpenUniformTypeIdentifiers", condition: .when(platforms: nonApplePlatforms)),
                .target(name: "OpenItemProvider", condition: .when(platforms: nonApplePlatforms)),
                .target(name: "OpenExtensionUI", condition: .when(platforms: nonApplePlatforms)),
                .target(name: "OpenImageIO", condition: .when(platforms: nonApplePlatforms)),
                .target(name: "OpenCoreFoundation", condition: .when(platforms: nonApplePlatforms)),
                .target(name: "OpenUserNotifications", condition: .when(platforms: nonApplePlatforms)),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "HostProfiles", dependencies: ["SharingShim", "PackageSupport"], swiftSettings: strictSettings),
        .target(name: "ExtensionManifest", dependencies: ["SharingShim", "SharingSystem", "PropertyLists"], swiftSettings: strictSettings),
        .target(
            name: "ShareInbox",
            dependencies: [
                "SharingSystem", "CBLAKE3", "PackageSupport", .product(name: "SystemPackage", package: "swift-system"),
                .target(name: "COpenSSL", condition: .when(platforms: nonApplePlatforms)),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "ShareIntake", dependencies: ["SharingShim", "ShareInbox", "ContentTypes", "PropertyLists", "Thumbnails", "PackageSupport"],
                swiftSettings: strictSettings),
        // Debian's libjpeg62-turbo-dev, libpng-dev, libwebp-dev and libheif-dev (opened when needed).
        .target(
            name: "CThumbnailCodecs",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("webp"), .linkedLibrary("de265"),
                            .linkedLibrary("dl")]
        ),
        .target(name: "Thumbnails", dependencies: ["CThumbnailCodecs", "SharingSystem", "ContentTypes"], swiftSettings: strictSettings),
        .executableTarget(
            name: "sharing",
            dependencies: [
                "SharingShim",
                "SharingSystem",
                "HostProfiles",
                "ExtensionManifest",
                "ShareInbox",
                "ShareIntake",
                "Thumbnails",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // `swift package appex --product NAME`: an extension's product as NAME.appex, made by `sharing bundle`.
        .plugin(
            name: "Appex",
            capability: .command(
                intent: .custom(verb: "appex", description: "Make an extension bundle (NAME.appex) of an executable product, its Info.plist and resources"),
                permissions: [.writeToPackageDirectory(reason: "to write the extension bundle into .build/appex (or --output)")]
            ),
            dependencies: ["sharing"]
        ),
        .testTarget(name: "PackageSupportTests", dependencies: ["PackageSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "PropertyListsTests",
            dependencies: ["PropertyLists", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenUniformTypeIdentifiersTests",
            dependencies: [
                "OpenUniformTypeIdentifiers", "OpenCoreFoundation",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Oracles")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SharingSystemTests",
            dependencies: [
                "SharingSystem", "PackageSupport", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ContentTypesTests",
            dependencies: ["ContentTypes", "SharingShim", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenItemProviderTests",
            dependencies: ["OpenItemProvider", "SharingShim", "OpenUniformTypeIdentifiers", "PackageSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SharingShimTests",
            dependencies: ["SharingShim", "SharingSystem", "OpenItemProvider"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HostProfilesTests",
            dependencies: ["HostProfiles", "SharingShim"],
            exclude: ["Expected"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ExtensionManifestTests",
            dependencies: ["ExtensionManifest", "HostProfiles", "SharingShim",
                           .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ShareInboxTests",
            dependencies: ["ShareInbox", "SharingSystem", "CBLAKE3", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ShareIntakeTests",
            dependencies: ["ShareIntake", "ShareInbox", "HostProfiles", "SharingShim", "Thumbnails"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ThumbnailsTests",
            dependencies: ["Thumbnails", "SharingSystem", .product(name: "SystemPackage", package: "swift-system")],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenImageIOTests",
            dependencies: ["SharingShim", "OpenExtensionUI"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenUserNotificationsTests",
            dependencies: ["SharingShim", "OpenUserNotifications", "ContentTypes"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SharingCLITests",
            dependencies: ["sharing", "ShareInbox"],
            swiftSettings: strictSettings
        ),
    ]
)

// The extension runtime: Linux system calls (pidfd, memfd, SCM_RIGHTS), and OpenItemProvider's own view of
// providers, so only where OpenSharing's item providers stand in for Apple's.
#if os(Linux)
package.products.append(.library(name: "ExtensionRuntime", targets: ["ExtensionRuntime"]))
package.targets += [
    .target(name: "ExtensionRuntime", dependencies: ["OpenItemProvider", "OpenExtensionUI", "OpenUserNotifications", "ExtensionManifest",
                                                    "SharingSystem", "PackageSupport", "PropertyLists"],
            swiftSettings: strictSettings),
    .testTarget(
        name: "ExtensionRuntimeTests",
        dependencies: ["ExtensionRuntime", "SharingSystem", "HostProfiles", .product(name: "PropertyBased", package: "swift-property-based"),
                       .product(name: "SystemPackage", package: "swift-system")],
        // Extensions in Python that speak the wire protocol, found beside the tests' sources.
        exclude: ["Hostile"],
        swiftSettings: strictSettings
    ),
]
// The conformance matrix: an extension against hosts, devices and faults (`sharing test`, and from Swift).
package.products.append(.library(name: "ConformanceMatrix", targets: ["ConformanceMatrix"]))
package.targets.append(.target(name: "ConformanceMatrix", dependencies: ["ExtensionRuntime", "HostProfiles", "ExtensionManifest", "OpenItemProvider", "OpenExtensionUI", "ShareInbox", "OpenImageIO", "OpenCoreFoundation", "SharingSystem", "PackageSupport"],
                               swiftSettings: strictSettings))
package.targets.append(.testTarget(name: "ConformanceMatrixTests", dependencies: ["ConformanceMatrix", "ExtensionRuntime", "HostProfiles", "OpenExtensionUI"], swiftSettings: strictSettings))
if let sharing = package.targets.firstIndex(where: { $0.name == "sharing" }) {
    package.targets[sharing].dependencies += ["ExtensionRuntime", "ConformanceMatrix"]
}
/// The example extensions (Examples/Extensions): each an executable that `make extensions` puts in a bundle
/// of the same name beside its Info.plist.
let exampleExtensions: [(name: String, dependencies: [Target.Dependency])] = [
    ("Uppercase", []), ("ImageSaver", ["InboxSaver"]), ("FileSaver", ["InboxSaver"]),
    ("NeverCompletes", []), ("CrashesMidLoad", []), ("MemoryHog", []), ("ShareProber", ["HostProfiles"]),
    ("NaiveResizer", ["PhotoResizing"]), ("DownsamplingResizer", ["PhotoResizing"]), ("ImportAction", []), ("UploadShare", ["PhotoResizing"]),
    ("BannerRenderer", []), ("BundledAttachment", []), ("DecryptingService", []), ("SilentService", []), ("NotificationProber", []),
]
/// The files examples ship in their bundles (made by Tools/make-notification-fixtures.py).
let exampleResources: [String: [Resource]] = ["BannerRenderer": [.copy("banner.jpg")], "BundledAttachment": [.copy("banner.jpg")]]
// What the two resizers share: resizing a photo for upload the naive way and ImageIO's, as iOS code does.
package.targets.append(.target(name: "PhotoResizing", dependencies: ["SharingShim"], path: "Examples/Extensions/PhotoResizing",
                               swiftSettings: strictSettings))
// What ImageSaver and FileSaver share: ShareIntake into the app group's inbox.
package.targets.append(.target(name: "InboxSaver", dependencies: ["OpenItemProvider", "ShareIntake", "ShareInbox", "SharingShim"],
                               path: "Examples/Extensions/InboxSaver", swiftSettings: strictSettings))
package.targets += exampleExtensions.map { example in
    .executableTarget(name: example.name, dependencies: ["ExtensionRuntime", "OpenItemProvider"] + example.dependencies,
                      path: "Examples/Extensions/\(example.name)", exclude: ["Info.plist"], resources: exampleResources[example.name],
                      swiftSettings: strictSettings)
}
#endif

// The fuzz targets built by the package (Fuzz/run.sh), which need modules and those under them: only when asked,
// so that an ordinary build has no executable without a main.
if Context.environment["OPENSHARING_FUZZ"] != nil {
    package.targets.append(.executableTarget(name: "ImageHeaderFuzzer", dependencies: ["Thumbnails"], path: "Fuzz/ImageHeader",
                                             swiftSettings: strictSettings))
    package.targets.append(.executableTarget(name: "ReturnedItemsFuzzer", dependencies: ["ExtensionRuntime", "SharingSystem", "CSharingSystem", "PackageSupport", "OpenItemProvider"],
                                             path: "Fuzz/ReturnedItems", swiftSettings: strictSettings))
}
