// swift-tools-version: 6.0
import PackageDescription

/// HealthFlow: a promise and operation-graph framework with an async/await façade (FlowKit),
/// and health-data workflows built on it. No package dependencies, by design.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "HealthFlow",
    // `Synchronization.Mutex` needs these minimums on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
        .library(name: "FlowKitTesting", targets: ["FlowKitTesting"]),
        .library(name: "HealthFlow", targets: ["HealthFlow"]),
        .executable(name: "healthflow", targets: ["healthflow"]),
    ],
    targets: [
        .target(name: "FlowKit", swiftSettings: strict),
        .target(name: "FlowKitTesting", dependencies: ["FlowKit"], swiftSettings: strict),
        .target(name: "HealthFlow", dependencies: ["FlowKit"], swiftSettings: strict),
        .executableTarget(name: "healthflow", dependencies: ["FlowKit", "HealthFlow"], swiftSettings: strict),
        .testTarget(name: "FlowKitTests", dependencies: ["FlowKit", "FlowKitTesting"], swiftSettings: strict),
        .testTarget(name: "HealthFlowTests", dependencies: ["HealthFlow", "FlowKitTesting"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
