// The store's save rows without package-benchmark, for counting instructions with callgrind (repeatable on a
// shared machine, unlike wall time) or profiling with perf. `callgrind-store.sh` runs each mode at two sizes and
// prints the difference per sample, which leaves out start-up and the samples' generation.
import Foundation
import HealthFlow

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count % 1_000 == 0 else {
    fatalError("usage: StoreInstructionCounts memory|file|append COUNT (a multiple of 1,000)")
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
let samples: [HealthSample] = (0..<count).map { index in
    .quantity(
        try! HealthQuantitySample(
            type: .heartRate, quantity: HealthQuantity(unit: unit, doubleValue: 55 + Double(index % 60)),
            date: start.addingTimeInterval(Double(index) * 60), source: source))
}

switch arguments[1] {
case "memory":
    let store = InMemoryHealthStore(configuration: app)
    try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
    for first in stride(from: 0, to: count, by: batch) {
        try await store.save(Array(samples[first..<first + batch]))
    }
    blackHole(store)
case "file":
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("callgrind-store-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try FileHealthStore(directory: folder, configuration: app)
    try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
    for first in stride(from: 0, to: count, by: batch) {
        try await store.save(Array(samples[first..<first + batch]))
    }
    store.close()
case "append":
    var array: [HealthSample] = []
    for first in stride(from: 0, to: count, by: batch) {
        array.append(contentsOf: samples[first..<first + batch])
    }
    blackHole(array)
default:
    fatalError("unknown mode \(arguments[1])")
}
