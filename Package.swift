// swift-tools-version:6.0
// Playhead: a headless HLS reference player for Linux.
import PackageDescription

let package = Package(
    name: "Playhead",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "playhead", targets: ["playhead"]),
        .library(name: "PlayheadHLS", targets: ["PlayheadHLS"]),
        .library(name: "PlayheadMedia", targets: ["PlayheadMedia"]),
        .library(name: "PlayheadNet", targets: ["PlayheadNet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C edges: system libraries found with pkg-config, plus a thin shim for what Swift cannot call.
        .systemLibrary(
            name: "CFFmpeg", path: "CModules/CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]
        ),
        .systemLibrary(
            name: "CCurl", path: "CModules/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CPlayheadShims", dependencies: ["CFFmpeg", "CCurl"], path: "CModules/CPlayheadShims"),

        // Swift layers, bottom to top.
        .target(name: "PlayheadHLS", path: "Sources/PlayheadHLS"),
        .target(name: "PlayheadMedia", dependencies: ["CFFmpeg", "CPlayheadShims"], path: "Sources/PlayheadMedia"),
        .target(name: "PlayheadNet", dependencies: ["CCurl", "CPlayheadShims"], path: "Sources/PlayheadNet"),
        // Test utilities shared by test targets (and later the CLI's test origin): no C dependencies.
        .target(name: "PlayheadTestSupport", path: "Sources/PlayheadTestSupport"),
        .executableTarget(
            name: "playhead",
            dependencies: [
                "PlayheadHLS", "PlayheadMedia", "PlayheadNet",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/playhead"
        ),

        .testTarget(name: "PlayheadHLSTests", dependencies: ["PlayheadHLS"], path: "Tests/PlayheadHLSTests"),
        .testTarget(name: "PlayheadNetTests", dependencies: ["PlayheadNet", "PlayheadTestSupport"], path: "Tests/PlayheadNetTests"),
        .testTarget(name: "PlayheadMediaTests", dependencies: ["PlayheadMedia", "PlayheadNet", "PlayheadHLS", "PlayheadTestSupport"], path: "Tests/PlayheadMediaTests"),
    ]
)
