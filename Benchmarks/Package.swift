// swift-tools-version: 6.1
import PackageDescription

/// One benchmark executable: `Benchmarks/<name>/`, run by package-benchmark's plugin, with the shared support
/// library and package-benchmark besides `dependencies`.
func benchmarkTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["BenchmarkSupport", .product(name: "Benchmark", package: "package-benchmark")] + dependencies,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    )
}

/// HealthFlow's benchmarks (promises, graphs, store, gzip, multipart, sync, import), each beside its baselines and peers,
/// as a separate package so that the library itself keeps zero dependencies.
let package = Package(
    name: "HealthFlowBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "HealthFlow", path: "../"),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "FlowKit", package: "HealthFlow"),
                .product(name: "HealthFlow", package: "HealthFlow"),
            ]
        ),
        benchmarkTarget("PromiseBenchmarks", [.product(name: "FlowKit", package: "HealthFlow")]),
        // The promise rows' peers, apart so that CI's allocation check (PromiseBenchmarks) builds no swift-nio.
        benchmarkTarget(
            "PromisePeerBenchmarks",
            [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        benchmarkTarget("GraphBenchmarks", [.product(name: "FlowKit", package: "HealthFlow")]),
        // Not a benchmark: the promise rows' loops alone, for callgrind-promise.sh.
        .executableTarget(
            name: "PromiseInstructionCounts", dependencies: [.product(name: "FlowKit", package: "HealthFlow")]),
        benchmarkTarget("StoreBenchmarks", [.product(name: "HealthFlow", package: "HealthFlow")]),
        // Not a benchmark: the store's save rows alone, for callgrind-store.sh and perf.
        .executableTarget(
            name: "StoreInstructionCounts", dependencies: [.product(name: "HealthFlow", package: "HealthFlow")]),
        benchmarkTarget(
            "GzipBenchmarks",
            [.product(name: "HealthFlow", package: "HealthFlow"), .product(name: "HealthSync", package: "HealthFlow")]),
        benchmarkTarget("MultipartBenchmarks", [.product(name: "HealthSync", package: "HealthFlow")]),
        benchmarkTarget(
            "SyncBenchmarks",
            [
                .product(name: "FlowKit", package: "HealthFlow"),
                .product(name: "HealthFlow", package: "HealthFlow"),
                .product(name: "HealthSync", package: "HealthFlow"),
            ]),
        benchmarkTarget(
            "ImportBenchmarks",
            [
                .product(name: "HealthExport", package: "HealthFlow"),
                .product(name: "HealthFlow", package: "HealthFlow"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
