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
        .library(name: "PlayheadCore", targets: ["PlayheadCore"]),
        .library(name: "PlayheadOrigin", targets: ["PlayheadOrigin"]),
        .library(name: "PlayheadAds", targets: ["PlayheadAds"]),
        .library(name: "PlayheadAdInsertion", targets: ["PlayheadAdInsertion"]),
        .library(name: "PlayheadAnalytics", targets: ["PlayheadAnalytics"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
        .target(
            name: "PlayheadCore",
            dependencies: ["PlayheadHLS", "PlayheadMedia", "PlayheadNet", .product(name: "Logging", package: "swift-log")],
            path: "Sources/PlayheadCore"
        ),
        // The test origin: a loopback HTTP/1.1 server (Range, keep-alive, gzip, faults); no C dependencies.
        .target(name: "PlayheadOrigin", path: "Sources/PlayheadOrigin"),
        // VAST 2.0–4.x and VMAP 1.0: pure parsing (FoundationXML), wrapper-chain merge, macros; no I/O.
        .target(name: "PlayheadAds", path: "Sources/PlayheadAds"),
        // Ad decisioning at run time: the default ad resolver (VMAP up front, VAST per cue, over libcurl)
        // and the beacon tracker; joins PlayheadAds' parsing to PlayheadCore's timeline and events.
        .target(
            name: "PlayheadAdInsertion",
            dependencies: ["PlayheadAds", "PlayheadCore", "PlayheadNet", "PlayheadHLS"],
            path: "Sources/PlayheadAdInsertion"
        ),
        // Video heartbeats (F27): the player's events as the guide's track… calls and periodic heartbeats
        // to a tracking server, over libcurl.
        .target(name: "PlayheadAnalytics", dependencies: ["PlayheadCore", "PlayheadNet"], path: "Sources/PlayheadAnalytics"),
        // The HTML report of a session: one self-contained page (inline SVG); no server dependencies.
        .target(name: "PlayheadReport", dependencies: ["PlayheadCore"], path: "Sources/PlayheadReport"),
        // The daemon: HTTP API (Hummingbird), SSE, Prometheus metrics, SQLite store (GRDB), soak runs.
        .target(
            name: "PlayheadServer",
            dependencies: [
                "PlayheadCore", "PlayheadNet", "PlayheadMedia", "PlayheadReport", "PlayheadAdInsertion", "PlayheadAnalytics", "CPlayheadShims",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/PlayheadServer"
        ),
        .executableTarget(
            name: "playhead",
            dependencies: [
                "PlayheadCore", "PlayheadHLS", "PlayheadMedia", "PlayheadNet", "PlayheadOrigin", "PlayheadAds",
                "PlayheadAdInsertion", "PlayheadAnalytics", "PlayheadServer", "PlayheadReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/playhead"
        ),

        // Test fixtures shared by the test targets: the generated streams, child processes, framemd5 text.
        .target(name: "PlayheadTestFixtures", path: "Tests/PlayheadTestFixtures"),
        .testTarget(name: "PlayheadHLSTests", dependencies: ["PlayheadHLS"], path: "Tests/PlayheadHLSTests"),
        .testTarget(name: "PlayheadNetTests", dependencies: ["PlayheadTestFixtures", "PlayheadNet", "PlayheadOrigin"], path: "Tests/PlayheadNetTests"),
        .testTarget(name: "PlayheadMediaTests", dependencies: ["PlayheadTestFixtures", "PlayheadMedia"], path: "Tests/PlayheadMediaTests"),
        .testTarget(name: "PlayheadLinkTests", dependencies: ["PlayheadTestFixtures", "PlayheadCore", "PlayheadMedia", "PlayheadNet"], path: "Tests/PlayheadLinkTests"),
        .testTarget(name: "PlayheadPlayerTests", dependencies: ["PlayheadTestFixtures", "PlayheadCore", "PlayheadMedia", "PlayheadNet", "PlayheadOrigin"], path: "Tests/PlayheadPlayerTests"),
        .testTarget(
            name: "PlayheadThumbnailTests",
            dependencies: ["PlayheadTestFixtures", "PlayheadCore", "PlayheadHLS", "PlayheadMedia", "PlayheadNet", "PlayheadOrigin"],
            path: "Tests/PlayheadThumbnailTests"
        ),
        .testTarget(
            name: "PlayheadCatalogueTests",
            dependencies: ["PlayheadTestFixtures", "PlayheadCore", "PlayheadHLS", "PlayheadMedia", "PlayheadNet", "PlayheadOrigin"],
            path: "Tests/PlayheadCatalogueTests"
        ),
        .testTarget(name: "PlayheadCoreTests", dependencies: ["PlayheadCore", "PlayheadHLS"], path: "Tests/PlayheadCoreTests"),
        .testTarget(name: "PlayheadLiveTests", dependencies: ["PlayheadTestFixtures", "PlayheadCore", "PlayheadHLS"], path: "Tests/PlayheadLiveTests"),
        .testTarget(name: "PlayheadAdsTests", dependencies: ["PlayheadAds"], path: "Tests/PlayheadAdsTests"),
        .testTarget(
            name: "PlayheadAdInsertionTests",
            dependencies: ["PlayheadAdInsertion", "PlayheadAds", "PlayheadCore", "PlayheadNet", "PlayheadOrigin", "PlayheadMedia", "PlayheadTestFixtures"],
            path: "Tests/PlayheadAdInsertionTests"
        ),
        .testTarget(
            name: "PlayheadAnalyticsTests",
            dependencies: ["PlayheadAnalytics", "PlayheadCore", "PlayheadNet", "PlayheadOrigin", "PlayheadMedia", "PlayheadTestFixtures"],
            path: "Tests/PlayheadAnalyticsTests"
        ),
        .testTarget(name: "PlayheadSCTE35Tests", dependencies: ["PlayheadHLS"], path: "Tests/PlayheadSCTE35Tests"),
        .testTarget(name: "PlayheadABRTests", dependencies: ["PlayheadCore"], path: "Tests/PlayheadABRTests"),
        .testTarget(
            name: "PlayheadServerTests",
            dependencies: [
                "PlayheadTestFixtures",
                "PlayheadServer", "PlayheadReport", "PlayheadCore", "PlayheadOrigin", "playhead",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/PlayheadServerTests"
        ),
        .testTarget(name: "PlayheadCLITests", dependencies: ["PlayheadTestFixtures", "playhead", "PlayheadOrigin", "PlayheadNet", "PlayheadMedia"], path: "Tests/PlayheadCLITests"),
    ]
)
