// swift-tools-version: 6.1
import PackageDescription

/// Strict Swift 6 everywhere: explicit `any`, imports visible only where written, internal imports by default.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OpenSharing",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "SharingShim", targets: ["SharingShim"]),
        .library(name: "OpenUniformTypeIdentifiers", targets: ["OpenUniformTypeIdentifiers"]),
        .executable(name: "sharing", targets: ["sharing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(name: "PropertyLists", swiftSettings: strictSettings),
        .target(
            name: "OpenUniformTypeIdentifiers",
            dependencies: ["PropertyLists"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SharingShim",
            dependencies: [
                .target(name: "OpenUniformTypeIdentifiers", condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "sharing",
            dependencies: [
                "SharingShim",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PropertyListsTests",
            dependencies: ["PropertyLists"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OpenUniformTypeIdentifiersTests",
            dependencies: [
                "OpenUniformTypeIdentifiers",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Oracles")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SharingCLITests",
            dependencies: ["sharing"],
            swiftSettings: strictSettings
        ),
    ]
)
