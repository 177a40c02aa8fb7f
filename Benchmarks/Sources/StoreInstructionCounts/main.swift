// The store's save rows without package-benchmark, for counting instructions with callgrind (repeatable on a
// shared machine, unlike wall time) or profiling with perf. `callgrind-store.sh` runs each mode at two sizes and
// prints the difference per sample, which leaves out start-up and the samples' generation (always the same).
import Dispatch
import Foundation
import HealthFlow

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Calls `body` with a completion and waits for it (the callback API: no Swift concurrency threads, which
/// valgrind cannot follow here).
func wait(_ body: (@escaping @Sendable (Bool, (any Error)?) -> Void) -> Void) {
    let done = DispatchSemaphore(value: 0)
    body { success, error in
        precondition(success, "the store refused: \(String(describing: error))")
        done.signal()
    }
    done.wait()
}

/// Saves `batches` into `store`, as the Save1M benchmark rows do.
func saveAll(_ batches: ArraySlice<[HealthSample]>, into store: some HealthStore) {
    wait { store.requestAuthorization(toShare: [.heartRate], read: [.heartRate], completion: $0) }
    for batch in batches {
        wait { store.save(batch, withCompletion: $0) }
    }
}

let arguments = CommandLine.arguments
let yearApp = HealthAppConfiguration(
    bundleIdentifier: "org.healthflow.year", name: "year",
    healthShareUsageDescription: "Reads a generated year.", healthUpdateUsageDescription: "Stores a generated year.")
// The demo's year, stored as the demo stores it (one change, then a snapshot), and reopened: for profiling the
// reopening with perf or callgrind without the year's generation in the profile.
if arguments.count == 4, arguments[1] == "year", let times = Int(arguments[3]) {
    let folder = URL(fileURLWithPath: arguments[2])
    if !FileManager.default.fileExists(atPath: folder.path) {
        let data = try HealthDataGenerator(configuration: GeneratorConfiguration(days: 365, seed: 2026)).generate()
        let store = try FileHealthStore(directory: folder, configuration: yearApp)
        try store.ingest(data.allSamples())
        try store.snapshot()
        store.close()
    }
    for _ in 0..<times {
        let store = try FileHealthStore(directory: folder, configuration: yearApp)
        blackHole(store)
        store.close()
    }
    exit(0)
}
guard arguments.count == 3, let count = Int(arguments[2]), count % 1_000 == 0 else {
    fatalError("usage: StoreInstructionCounts memory|file|append COUNT (a multiple of 1,000) | year FOLDER TIMES")
}
let batch = 1_000
let source = HealthSource(bundleIdentifier: "org.healthflow.callgrind", name: "callgrind")
let app = HealthAppConfiguration(
    bundleIdentifier: source.bundleIdentifier, name: source.name,
    healthShareUsageDescription: "Reads samples to count instructions.",
    healthUpdateUsageDescription: "Saves samples to count instructions.")
let unit = HealthUnit.count().unitDivided(by: .minute())
let start = Date(timeIntervalSince1970: 1_704_067_200)
// The same heart rates, one minute apart, as the Save1M benchmark rows.
// Always 20,000 generated (at least), so that the two sizes callgrind-store.sh compares generate the same.
let generated: [HealthSample] = (0..<max(count, 20_000)).map { index in
    .quantity(
        try! HealthQuantitySample(
            type: .heartRate, quantity: HealthQuantity(unit: unit, doubleValue: 55 + Double(index % 60)),
            date: start.addingTimeInterval(Double(index) * 60), source: source))
}
// Batches of 1,000 made before any row runs (as the Save1M rows make them before measuring), always of the 20,000
// samples, so that neither the store rows nor the baseline count copying samples into batches.
let batches = stride(from: 0, to: generated.count, by: batch).map { Array(generated[$0..<$0 + batch]) }
let used = batches[..<(count / batch)]

switch arguments[1] {
case "memory":
    let store = InMemoryHealthStore(configuration: app)
    saveAll(used, into: store)
    blackHole(store)
case "file":
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("callgrind-store-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try FileHealthStore(directory: folder, configuration: app)
    saveAll(used, into: store)
    store.close()
case "append":
    var array: [HealthSample] = []
    for batch in used { array.append(contentsOf: batch) }
    blackHole(array)
default:
    fatalError("unknown mode \(arguments[1])")
}
