import Foundation
import HealthFlow
import ReceiverSupport
import Testing

@testable import HealthSync

/// A real crash: the `SyncProbe` child runs a sync over a `FileHealthStore` to the real receiver and is SIGKILLed
/// at one step of a batch or of the run's end; samples are saved while it is down; a restart without the fault
/// must then deliver every sample in the store, none counted twice (but the pending batch the receiver already
/// had, answered as a duplicate), and leave nothing pending. Bounded: three probe runs per kill point, each with a
/// watchdog.
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

    /// A kill point and what it leaves. The probe's 100 samples go out in batches of 40 (heart rates), 40 (30
    /// heart rates, 10 step counts) and 20 (step counts); the first occurrence of a step is in the first batch.
    struct KillPoint: CustomTestStringConvertible, Sendable {
        /// The probe's `--stop-at`: a checkpoint name, `:K` for its K-th occurrence.
        let step: String
        /// The batch (1-based) the state on disk holds as pending, if any.
        let pending: Int?
        /// How many batches the state on disk has committed.
        let committed: Int
        /// How many batches the receiver holds before the restart.
        let received: Int

        /// The restart re-sends the pending batch as a duplicate when the receiver already has it.
        var duplicates: Int { pending.map { $0 <= received ? 1 : 0 } ?? 0 }
        var testDescription: String { step }
    }

    /// Before the first pending file is in place nothing is pending; from its rename on (a kill -9 keeps a
    /// rename even before the folder's `fsync`) the first batch is. `committed` is the first batch's commit in
    /// memory only; `written:2` is the second batch's file `fsync`ed but not renamed (staged while the first batch
    /// was in flight, as a batch prepared ahead is): both find the first batch pending and send it again as a
    /// duplicate, and the staged temp file is removed. `renamed:2` finds the first batch's commit in the second batch's
    /// file. `state-written` and `state-renamed` are the end-of-run state file save: before its rename the last
    /// batch is still pending (a duplicate), after it everything is committed and the last pending file is stale.
    static let killPoints: [KillPoint] = [
        KillPoint(step: "gathered", pending: nil, committed: 0, received: 0),
        KillPoint(step: "written", pending: nil, committed: 0, received: 0),
        KillPoint(step: "renamed", pending: 1, committed: 0, received: 0),
        KillPoint(step: "persisted", pending: 1, committed: 0, received: 0),
        KillPoint(step: "mid-body", pending: 1, committed: 0, received: 0),
        KillPoint(step: "acknowledged", pending: 1, committed: 0, received: 1),
        KillPoint(step: "committed", pending: 1, committed: 0, received: 1),
        KillPoint(step: "written:2", pending: 1, committed: 0, received: 1),
        KillPoint(step: "renamed:2", pending: 2, committed: 1, received: 1),
        KillPoint(step: "state-written", pending: 3, committed: 2, received: 3),
        KillPoint(step: "state-renamed", pending: nil, committed: 3, received: 3),
    ]
    static let batchSizes = [40, 40, 20]
    static let anchoredTypes: [Set<String>] = [
        [], ["heartRate"], ["heartRate", "stepCount"], ["heartRate", "stepCount"],
    ]

    @Test(arguments: killPoints)
    func aSyncKilledAtAStepLosesNothingAndCountsNothingTwice(point: KillPoint) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthsync-crash-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let early = try SyncEngineBench.heartRates(70) + SyncEngineBench.steps(30, first: 1_000)
        try Self.ingest(early, in: directory)
        let name = String(point.step.prefix { $0 != ":" })

        try await withTestReceiver { receiver in
            let crashed = try await SyncProbeProcess.run(
                directory: directory, url: receiver.uploadURL, stopAt: point.step)
            #expect(
                crashed.lines.last?.hasPrefix("checkpoint \(name) ") == true, "\(crashed.lines) \(crashed.errors)")
            #expect(crashed.termination == .signalled(SIGKILL))
            let batchIDs = crashed.lines.compactMap { line -> UUID? in
                let words = line.split(separator: " ")
                guard words.count == 3, words[1] == "gathered" else { return nil }
                return UUID(uuidString: String(words[2]))
            }
            let state = try AnchorStore(fileURL: directory.appendingPathComponent("sync-state.json")).load()
            #expect(Set(state.anchors.keys) == Self.anchoredTypes[point.committed])
            let pendingID = try point.pending.map { batch in try #require(batchIDs.dropFirst(batch - 1).first) }
            #expect(state.pending?.batchID == pendingID)
            #expect(state.pending == nil || state.pending?.bodyCRC32 != nil)
            let before = try await receiver.stats()
            #expect(before.batches == point.received)

            let late = try SyncEngineBench.heartRates(5, first: 5_000)
            try Self.ingest(late, in: directory)

            let restarted = try await SyncProbeProcess.run(directory: directory, url: receiver.uploadURL)
            #expect(restarted.status == 0, "\(restarted.errors)")
            #expect(
                restarted.lines.last?.hasSuffix("duplicates=\(point.duplicates)") == true, "\(restarted.lines)")

            let everything = Set((early + late).map(\.uuid))
            let counts = try await receiver.sampleCounts()
            #expect(Set(counts.keys) == everything, "every sample in the store arrived")
            #expect(counts.values.allSatisfy { $0 == 1 }, "no sample was counted twice")
            let stats = try await receiver.stats()
            #expect(stats.samples == everything.count)
            #expect(stats.maxCountPerSample == 1)
            #expect(stats.duplicates == point.duplicates)
            #expect(stats.samplesByType == ["heartRate": 75, "stepCount": 30])
            if let pendingID, let batch = point.pending {
                let receipt = try await receiver.receipt(for: pendingID)
                #expect(
                    receipt.sampleUUIDs.count == Self.batchSizes[batch - 1],
                    "the pending batch went out whole under its own ID")
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
