// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The compatibility suite (README.md): share and action extensions written in the patterns public apps use,
// each importing only SharingShim, driven with the host profiles' shares. A package of its own, so that what
// it builds never enters the root package's build.
//
// It depends on OpenSharing as users do. `make test` points it, through OPENSHARING_VERSIONED_CLONE, at a
// tagged clone of this checkout resolved by version (`Tools/versioned-clone.sh`), which proves the package
// works as a versioned dependency; without the variable it takes the checkout by path.
let openSharing: Package.Dependency
let openSharingIdentity: String
if let clone = Context.environment["OPENSHARING_VERSIONED_CLONE"] {
    openSharing = .package(url: URL(fileURLWithPath: clone).absoluteString, from: "0.1.0")
    openSharingIdentity = URL(fileURLWithPath: clone).lastPathComponent
} else {
    let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    openSharing = .package(path: root.path)
    openSharingIdentity = root.lastPathComponent
}

func product(_ name: String) -> Target.Dependency {
    .product(name: name, package: openSharingIdentity)
}

/// One executable per extension, as an app's extension target is: its view controller, which imports
/// SharingShim and nothing else of OpenSharing's, builds in Swift 5 language mode as the apps build them; its
/// Info.plist is Xcode's, excluded from the sources; its main.swift runs it as a process (on Linux, through
/// ExtensionRuntime). `swift package appex --product NAME` makes NAME.appex of each.
let extensions = [
    "IntentComposerShare", "SchemeOpenerShare", "DeepLinkShare", "SearchOrOpenAction", "FirstLinkAction",
    "ComposeSheetOpener", "QuickLinkAction", "ContinuationAction", "FirstImageShare",
    "ImageDownloadService", "CallOnceService", "TmpHintService", "DiscardService", "ErrorImageService", "ChatAvatarService", "ReadLaterShare", "BoardPickerShare",
]

/// The extensions that share an app group with their app, each listing it in its `NAME.entitlements` (Xcode's), which
/// the plugin puts in the bundle: the host gives no other group a container, as a device gives none.
let entitled: Set<String> = ["BoardPickerShare", "FirstImageShare", "ReadLaterShare", "IntentComposerShare"]

let package = Package(
    name: "OpenSharingCompatibility",
    platforms: [.macOS(.v15)],
    dependencies: [openSharing],
    targets: extensions.map { name in
        .executableTarget(name: name, dependencies: [product("SharingShim"), .product(name: "ExtensionRuntime", package: openSharingIdentity,
                                                                                         condition: .when(platforms: [.linux]))]
                              + (name == "ReadLaterShare" ? [.product(name: "BackgroundTransfers", package: openSharingIdentity,
                                                                      condition: .when(platforms: [.linux]))] : []),
                          exclude: ["Info.plist"] + (entitled.contains(name) ? ["\(name).entitlements"] : []),
                          swiftSettings: [.swiftLanguageMode(.v5)])
    } + [
        .target(name: "CompatibilityHarness", dependencies: [
            product("SharingShim"), product("HostProfiles"),
            .product(name: "ExtensionRuntime", package: openSharingIdentity, condition: .when(platforms: [.linux])),
        ]),
        .testTarget(
            name: "CompatibilityTests",
            dependencies: ["CompatibilityHarness", product("SharingShim"), product("HostProfiles")]
                + extensions.map { .target(name: $0) }
        ),
        // A few lines a user of the package writes, through its products as a versioned dependency.
        .testTarget(
            name: "VersionedDependencyTests",
            dependencies: [product("SharingShim"), product("ShareIntake"), product("ShareInbox"), product("Thumbnails"),
                           product("HostProfiles")]
        ),
    ]
)
