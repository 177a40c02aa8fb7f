import Foundation
import HealthFlow
import ReceiverSupport
import Testing

@testable import HealthSync

/// A real crash: the `SyncProbe` child runs a sync over a `FileHealthStore` to the real receiver and is SIGKILLed
/// at one step of its first batch; samples are saved while it is down; a restart without the fault must then
/// deliver every sample in the store, none counted twice, and leave nothing pending. Bounded: three probe runs
/// per step, each with a watchdog.
@Suite(.serialized) struct SyncCrashTests {
    static let app = HealthAppConfiguration(
        bundleIdentifier: "dev.healthflow.sync-probe", name: "Sync probe", healthShareUsageDescription: "reads",
        healthUpdateUsageDescription: "writes")

    /// Adds samples to the probe's store (the probe is not running).
    static func ingest(_ samples: [HealthSample], in directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = try FileHealthStore(
            directory: directory.appendingPathComponent("store", isDirectory: true), configuration: app)
        defer { store.close() }
        try store.ingest(samples)
    }

    /// `committed` is the first batch's commit while it is in memory only (it becomes durable with the second
    /// batch's pending record): the restart finds that batch still pending and re-sends it as a duplicate.
    @Test(arguments: ["gathered", "persisted", "mid-body", "acknowledged", "committed"])
    func aSyncKilledAtAStepLosesNothingAndCountsNothingTwice(step: String) async throws {
        let acknowledged = step == "acknowledged" || step == "committed"
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthsync-crash-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let early = try SyncEngineBench.heartRates(70) + SyncEngineBench.steps(30, first: 1_000)
        try Self.ingest(early, in: directory)

        try await withTestReceiver { receiver in
            let crashed = try await SyncProbeProcess.run(directory: directory, url: receiver.uploadURL, stopAt: step)
            let checkpoint = try #require(
                crashed.lines.last { $0.hasPrefix("checkpoint \(step) ") }, "no checkpoint: \(crashed.errors)")
            let crashedID = try #require(UUID(uuidString: String(checkpoint.split(separator: " ").last ?? "")))
            #expect(crashed.reason == .uncaughtSignal && crashed.status == SIGKILL)
            let state = try AnchorStore(fileURL: directory.appendingPathComponent("sync-state.json")).load()
            #expect(state.anchors.isEmpty, "nothing was committed before the crash")
            // Before the pending record is saved the batch is not pending; from then on it is, with its CRC-32.
            #expect((state.pending?.batchID == crashedID) == (step != "gathered"))
            #expect(step == "gathered" || state.pending?.bodyCRC32 != nil)
            let before = try await receiver.stats()
            #expect(before.batches == (acknowledged ? 1 : 0))

            let late = try SyncEngineBench.heartRates(5, first: 5_000)
            try Self.ingest(late, in: directory)

            let restarted = try await SyncProbeProcess.run(directory: directory, url: receiver.uploadURL)
            #expect(restarted.status == 0, "\(restarted.errors)")
            let duplicates = acknowledged ? 1 : 0
            #expect(restarted.lines.last?.hasSuffix("duplicates=\(duplicates)") == true, "\(restarted.lines)")

            let everything = Set((early + late).map(\.uuid))
            let counts = try await receiver.sampleCounts()
            #expect(Set(counts.keys) == everything, "every sample in the store arrived")
            #expect(counts.values.allSatisfy { $0 == 1 }, "no sample was counted twice")
            let stats = try await receiver.stats()
            #expect(stats.samples == everything.count)
            #expect(stats.maxCountPerSample == 1)
            #expect(stats.duplicates == duplicates)
            #expect(stats.samplesByType == ["heartRate": 75, "stepCount": 30])
            if step != "gathered" {
                let receipt = try await receiver.receipt(for: crashedID)
                #expect(receipt.sampleUUIDs.count == 40, "the crashed batch went out whole under its own ID")
            }

            let after = try AnchorStore(fileURL: directory.appendingPathComponent("sync-state.json")).load()
            #expect(after.pending == nil && after.pendingBatchID == nil)
            #expect(Set(after.anchors.keys) == ["heartRate", "stepCount"])
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.contains(".pending-") || $0.contains(".tmp-") }, "\(names)")
            let temp = directory.appendingPathComponent("sync-tmp").path
            #expect(try FileManager.default.contentsOfDirectory(atPath: temp).isEmpty)

            let again = try await SyncProbeProcess.run(directory: directory, url: receiver.uploadURL)
            #expect(again.lines == ["report batches=0 samples=0 duplicates=0"], "\(again.errors)")
            #expect(try await receiver.stats() == stats)
        }
    }
}
