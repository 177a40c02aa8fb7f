// swift-tools-version: 6.0
import PackageDescription

/// HealthFlow: a promise and operation-graph framework with an async/await façade (FlowKit),
/// and health-data workflows built on it. No package dependencies, by design.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The example modules: `Examples/<Name>/` becomes the target `<Name>Example`.
let exampleNames = [
    "WriteHeight", "ReadHeights", "OperationChains", "SafeWrites", "ObserveAndUpload", "ActivityRings",
    "ImportAndSummarize",
]
let examples: [Target.Dependency] = exampleNames.map { .target(name: "\($0)Example") }

/// What the exercises, their worked solutions and their tests build on.
let exerciseDependencies: [Target.Dependency] =
    ["ExampleSupport", "HealthFlow", "HealthSync", "HealthExport", "FlowKit", "FlowKitTesting"] + examples

/// Examples that end in a real upload also depend on HealthSync.
let uploadingExamples: Set<String> = ["ObserveAndUpload"]
/// Examples that import a Health export also depend on HealthExport.
let importingExamples: Set<String> = ["ImportAndSummarize"]

func example(_ name: String) -> Target {
    let modules: [Target.Dependency] =
        (uploadingExamples.contains(name) ? ["HealthSync"] : [])
        + (importingExamples.contains(name) ? ["HealthExport"] : [])
    let seeds: [Target.Dependency] = healthKitSeeds.contains(name) ? healthKit : []
    return .target(
        name: "\(name)Example", dependencies: ["FlowKit", "HealthFlow", "ExampleSupport"] + modules + seeds,
        path: "Examples/\(name)", exclude: ["README.md", "LESSON.md"], swiftSettings: strict)
}

// MARK: HealthKit
/// HealthKit where it exists; elsewhere (Linux) the HealthKit-shaped shim over HealthFlow's model. Code that uses
/// it writes `#if canImport(HealthKit) import HealthKit #else import HealthKitShim #endif`.
let healthKit: [Target.Dependency] = [.target(name: "HealthKitShim", condition: .when(platforms: [.linux]))]
/// The examples whose folders also hold the seed code written directly against HealthKit's API.
let healthKitSeeds: Set<String> = ["WriteHeight", "ReadHeights"]
let healthKitTargets: [Target] = [
    // HealthKit's public API (the subset this project uses, names and signatures of the iOS 18 SDK) over
    // HealthFlow's model; API.txt lists its declarations for review against the SDK headers.
    .target(
        name: "HealthKitShim", dependencies: ["HealthFlow", "FlowKit"], exclude: ["API.txt"], swiftSettings: strict),
    // HealthKitStore: HealthFlow's HealthStore over HKHealthStore.
    .target(
        name: "HealthFlowHealthKit", dependencies: ["HealthFlow", "FlowKit"] + healthKit, exclude: ["README.md"],
        swiftSettings: strict),
    .testTarget(
        name: "HealthKitBridgeTests",
        dependencies: [
            "HealthFlowHealthKit", "HealthKitShim", "HealthFlow", "HealthSync", "FlowKit", "FlowKitTesting",
            "WriteHeightExample", "ReadHeightsExample", "ExampleSupport", "HealthKitShimProbe", "ProductSupport",
            "StoreConformance",
        ],
        exclude: ["Scripts"], swiftSettings: strict),
    // A child process that makes one HealthKit call that raises, so a test sees the shim stop like HealthKit.
    .executableTarget(
        name: "HealthKitShimProbe", dependencies: ["HealthKitShim"], path: "Tests/Support/HealthKitShimProbe",
        swiftSettings: strict),
]

let package = Package(
    name: "HealthFlow",
    // `Synchronization.Mutex` needs these minimums on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
        .library(name: "FlowKitTesting", targets: ["FlowKitTesting"]),
        .library(name: "HealthFlow", targets: ["HealthFlow"]),
        .library(name: "HealthSync", targets: ["HealthSync"]),
        .library(name: "HealthFlowHealthKit", targets: ["HealthFlowHealthKit"]),
        .library(name: "HealthExport", targets: ["HealthExport"]),
        .executable(name: "healthflow", targets: ["healthflow"]),
    ],
    targets: [
        .target(name: "FlowKit", swiftSettings: strict),
        .target(name: "FlowKitTesting", dependencies: ["FlowKit"], swiftSettings: strict),
        .target(name: "HealthFlow", dependencies: ["FlowKit"], swiftSettings: strict),
        // zlib from the system (Debian/Ubuntu: zlib1g-dev; macOS ships it).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "HealthSync", dependencies: ["FlowKit", "HealthFlow", "CZlib"], swiftSettings: strict),
        // The Health app's "Export All Health Data" (export.zip, its folder or export.xml) into any HealthStore.
        .target(
            name: "HealthExport", dependencies: ["FlowKit", "HealthFlow", "CZlib", "CSHA1"], swiftSettings: strict),
        // SHA-1 blocks with the processor's SHA instructions (x86-64), for the export's content identities.
        .target(name: "CSHA1"),
        .executableTarget(
            name: "healthflow",
            dependencies: ["FlowKit", "HealthFlow", "HealthSync", "HealthExport", "ExampleSupport", "CAllocator"]
                + examples,
            swiftSettings: strict),
        // glibc's allocator tuned for the command line's long imports (`AllocatorTuning`).
        .target(name: "CAllocator"),

        // Examples/: the seed programs ported to promises and async/await, one folder (and module) each.
        .target(
            name: "ExampleSupport", dependencies: ["FlowKit", "HealthFlow"], path: "Examples/Support",
            swiftSettings: strict),
        // Examples/Exercises: the learners' exercises, as stubs that compile and report "not done yet";
        // Examples/Solutions: the worked solutions, which the exercise tests check unless HEALTHFLOW_EXERCISES=mine.
        .target(
            name: "Exercises", dependencies: exerciseDependencies, path: "Examples/Exercises", swiftSettings: strict),
        .target(
            name: "Solutions", dependencies: exerciseDependencies, path: "Examples/Solutions", swiftSettings: strict),
    ] + exampleNames.map(example) + healthKitTargets + [
        .testTarget(
            name: "FlowKitTests", dependencies: ["FlowKit", "FlowKitTesting", "TestScale", "ProductSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthFlowTests",
            dependencies: [
                "HealthFlow", "FlowKit", "FlowKitTesting", "RawPathSupport", "StoreConformance", "TestScale",
            ],
            exclude: ["Fixtures"], swiftSettings: strict),
        // The store conformance session, over HealthFlow's public API alone: every store's tests run it.
        .target(
            name: "StoreConformance", dependencies: ["HealthFlow", "FlowKit"], path: "Tests/Support/StoreConformance",
            swiftSettings: strict),
        // A store written the way a third party would: plain `import HealthFlow`, a dictionary-backed
        // HealthStoreBackend, and the same conformance session.
        .testTarget(
            name: "OutsideStoreTests", dependencies: ["HealthFlow", "FlowKit", "StoreConformance"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthExportTests",
            dependencies: [
                "HealthExport", "HealthFlow", "FlowKit", "CZlib", "HealthExportTestSupport", "HealthExportProbe",
                "ProductSupport",
            ],
            swiftSettings: strict),
        // A store that counts or watches what an import writes, for the tests and the probe.
        .target(
            name: "HealthExportTestSupport", dependencies: ["HealthExport", "HealthFlow"],
            path: "Tests/Support/HealthExportTestSupport", swiftSettings: strict),
        // A child process that writes a large export and measures its import's peak memory.
        .executableTarget(
            name: "HealthExportProbe",
            dependencies: ["FlowKit", "HealthExport", "HealthExportTestSupport", "HealthFlow"],
            path: "Tests/Support/HealthExportProbe", swiftSettings: strict),
        .testTarget(
            name: "HealthSyncTests",
            dependencies: [
                "HealthSync", "HealthFlow", "FlowKit", "FlowKitTesting", "ReceiverSupport", "SyncProbe",
                "HTTPWaitProbe", "RawPathSupport", "ProductSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthFlowCLITests",
            dependencies: [
                "healthflow", "HealthFlow", "FlowKit", "ExampleSupport", "ReceiverSupport", "RawPathSupport",
                "ProductSupport",
            ],
            swiftSettings: strict),
        // Folders named by bytes that are not UTF-8, made and listed with the C calls alone, for the tests that
        // check a path reaches the disk as given.
        .target(name: "RawPathSupport", path: "Tests/Support/RawPathSupport", swiftSettings: strict),
        // The tests' built products and their child processes (ChildProcess over CChildProcess's posix_spawn).
        .target(
            name: "ProductSupport", dependencies: ["FlowKit", "CChildProcess"], path: "Tests/Support/ProductSupport",
            swiftSettings: strict),
        .target(name: "CChildProcess", path: "Tests/Support/CChildProcess"),
        // HEALTHFLOW_STRESS_SCALE, read once: how much of the stress and randomized tests runs.
        .target(name: "TestScale", path: "Tests/Support/TestScale", swiftSettings: strict),
        // Starts Tests/Receiver/healthsync_receiver.py (Werkzeug, python-multipart, jsonschema) for the tests that
        // need a real server. Tests/Receiver itself is no target: it holds the Python receiver and its JSON schema.
        .target(
            name: "ReceiverSupport", dependencies: ["FlowKit", "ProductSupport"], path: "Tests/Support/ReceiverSupport",
            swiftSettings: strict),
        // A child process for the crash tests of the sync engine: one sync run that can stop dead at a chosen step.
        .executableTarget(
            name: "SyncProbe", dependencies: ["FlowKit", "HealthFlow", "HealthSync"], path: "Tests/Support/SyncProbe",
            swiftSettings: strict),
        // A child process that measures the CPU one HTTP upload costs while it waits for a server that never answers.
        .executableTarget(
            name: "HTTPWaitProbe", dependencies: ["FlowKit", "HealthSync"], path: "Tests/Support/HTTPWaitProbe",
            swiftSettings: strict),
        // Top-level code that awaits every async twin with its result type stated; built and never run, so that a
        // build warning (or a promise picked where the code wrote `try await`) fails CI.
        .executableTarget(
            name: "TopLevelAwaitCheck", dependencies: ["FlowKit", "HealthFlow", "HealthSync"],
            path: "Tests/Support/TopLevelAwaitCheck",
            swiftSettings: strict),
        // A child process for the kill -9 test of the durable store (a test helper, not a product).
        .executableTarget(
            name: "DurableStoreProbe", dependencies: ["FlowKit", "HealthFlow"], path: "Tests/Support/DurableStoreProbe",
            swiftSettings: strict),
        .testTarget(
            name: "DurableStoreKillTests",
            dependencies: ["DurableStoreProbe", "HealthFlow", "FlowKit", "ProductSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "ExampleSupport", "HealthFlow", "HealthSync", "FlowKit", "ReceiverSupport", "ProductSupport",
            ]
                + examples,
            swiftSettings: strict),
        // The examples of the DocC articles, compiled and run; a test checks that every example in the
        // documentation is one of them.
        .testTarget(
            name: "DocExamplesTests", dependencies: ["FlowKit", "FlowKitTesting", "HealthFlow"],
            swiftSettings: strict),
        // Each answer file imports one of Exercises and Solutions; MemberImportVisibility keeps the two modules'
        // extension methods of the same name apart.
        .testTarget(
            name: "ExercisesTests", dependencies: ["Exercises", "Solutions"] + exerciseDependencies,
            swiftSettings: strict + [.enableUpcomingFeature("MemberImportVisibility")]),
    ],
    swiftLanguageModes: [.v6]
)
