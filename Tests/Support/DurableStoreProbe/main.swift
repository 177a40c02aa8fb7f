// A test helper, not a product: opens a FileHealthStore in the folder given as the first argument, then saves
// step samples one at a time, forever, printing each sample's UUID only after its save was acknowledged. The
// kill test SIGKILLs it mid-stream and checks that every printed UUID survived.

import FlowKit
import Foundation
import HealthFlow

let app = HealthAppConfiguration(
    bundleIdentifier: "dev.healthflow.probe", name: "Probe", healthShareUsageDescription: "reads",
    healthUpdateUsageDescription: "writes")

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: DurableStoreProbe DIR\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
do {
    let store = try FileHealthStore(directory: directory, configuration: app, callbackExecutor: .immediate)
    try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) as Void
    var minute = 0.0
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    while true {
        let from = start.addingTimeInterval(minute * 60)
        let sample = try HealthQuantitySample(
            type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 10), start: from,
            end: from.addingTimeInterval(60), source: app.source)
        try await store.save(.quantity(sample)) as Void
        FileHandle.standardOutput.write(Data("\(sample.uuid.uuidString)\n".utf8))
        minute += 1
    }
} catch {
    FileHandle.standardError.write(Data("probe failed: \(error)\n".utf8))
    exit(1)
}
