// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that the root package builds fast and has no benchmark
// dependencies. `make bench` runs them; Benchmarks/RESULTS.md records what they printed.
let package = Package(
    name: "OpenSharingBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OpenSharing", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "TypeLookups",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SharingShim", package: "OpenSharing"),
            ],
            path: "Benchmarks/TypeLookups",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TypeTiming",
            dependencies: [.product(name: "SharingShim", package: "OpenSharing")],
            path: "Benchmarks/TypeTiming"
        ),
        .executableTarget(
            name: "TransferableLoad",
            dependencies: [.product(name: "SharingShim", package: "OpenSharing")],
            path: "Benchmarks/TransferableLoad"
        ),
        .executableTarget(
            name: "ProviderCopy",
            dependencies: [.product(name: "SharingShim", package: "OpenSharing")],
            path: "Benchmarks/ProviderCopy"
        ),
        .executableTarget(
            name: "ManifestTiming",
            dependencies: [
                .product(name: "ExtensionManifest", package: "OpenSharing"),
                .product(name: "HostProfiles", package: "OpenSharing"),
                .product(name: "SharingShim", package: "OpenSharing"),
            ],
            path: "Benchmarks/ManifestTiming"
        ),
        .executableTarget(name: "ReceiveNaive", path: "Benchmarks/ReceiveNaive"),
        // The extension runtime (Linux): the host side, the extension it measures, and the bare peer.
        .executableTarget(
            name: "RuntimeTiming",
            dependencies: [
                .product(name: "ExtensionRuntime", package: "OpenSharing", condition: .when(platforms: [.linux])),
                .product(name: "OpenItemProvider", package: "OpenSharing", condition: .when(platforms: [.linux])),
            ],
            path: "Benchmarks/RuntimeTiming"
        ),
        .executableTarget(
            name: "RoundTrip",
            dependencies: [
                .product(name: "ExtensionRuntime", package: "OpenSharing", condition: .when(platforms: [.linux])),
                .product(name: "OpenItemProvider", package: "OpenSharing", condition: .when(platforms: [.linux])),
            ],
            path: "Benchmarks/RoundTrip"
        ),
        .executableTarget(name: "BareFoundation", path: "Benchmarks/BareFoundation"),
        // A notification's round trip (Linux): the host side, and the service it measures.
        .executableTarget(
            name: "NotifyTiming",
            dependencies: [.product(name: "ExtensionRuntime", package: "OpenSharing", condition: .when(platforms: [.linux]))],
            path: "Benchmarks/NotifyTiming"
        ),
        .executableTarget(
            name: "TitleEditor",
            dependencies: [
                .product(name: "ExtensionRuntime", package: "OpenSharing", condition: .when(platforms: [.linux])),
                .product(name: "SharingShim", package: "OpenSharing"),
            ],
            path: "Benchmarks/TitleEditor"
        ),
        .executableTarget(
            name: "ImageIOThumbnail",
            dependencies: [.product(name: "SharingShim", package: "OpenSharing")],
            path: "Benchmarks/ImageIOThumbnail"
        ),
    ]
)
