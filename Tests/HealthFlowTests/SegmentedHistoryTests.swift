import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// A ``BackedHealthStore`` over ``SegmentedHealthStoreBackend`` vouches for its change history
/// (``HealthChangeHistory``) as the durable store does: checkpoints taken at any batch stay valid through flushes,
/// merges, log rotations and reopening, and a recreated, restored or damaged history is never taken for the same.
struct SegmentedHistoryTests {
    typealias Backend = SegmentedHealthStoreBackendTests

    static func store(_ backend: SegmentedHealthStoreBackend) -> BackedHealthStore<SegmentedHealthStoreBackend> {
        BackedHealthStore(backend: backend, configuration: StoreFixture.app, callbackExecutor: .immediate)
    }

    /// The fingerprint through the end of each change of `changes`, summed here from the changes themselves: each
    /// object inserted or deleted, and each series addition, takes the next sequence number.
    static func expectedFingerprints(_ changes: [Backend.Change]) -> [(sequence: UInt64, fingerprint: UInt64)] {
        var sequence: UInt64 = 0
        var sum: UInt64 = 0
        return changes.map { change in
            switch change {
            case .insert(let samples, _):
                for object in samples.flatMap(HealthSaveRules.flattened) {
                    sequence += 1
                    sum &+= HistoryMix.addition(sequence: sequence, uuid: object.uuid)
                }
            case .delete(let samples):
                for object in samples.flatMap(HealthSaveRules.flattened) {
                    sequence += 1
                    sum &+= HistoryMix.deletion(sequence: sequence, uuid: object.uuid)
                }
            case .addSeries(_, let uuid):
                sequence += 1
                sum &+= HistoryMix.addition(sequence: sequence, uuid: uuid)
            }
            return (sequence, sum)
        }
    }

    /// Applies `changes`, taking the store's checkpoint after each.
    static func apply(
        _ changes: [Backend.Change], to backend: inout SegmentedHealthStoreBackend
    ) throws -> [HealthHistoryCheckpoint] {
        let store = Self.store(backend)
        return try changes.map { change in
            try Backend.apply(change, to: &backend)
            return store.historyCheckpoint()
        }
    }

    /// Writes a workload of 40 batches from `seed` into a backend in `directory` (checkpointed at the end when
    /// asked, so every log's batches are in the history file) and closes it; returns each batch's checkpoint.
    static func written(
        seed: UInt64, in directory: URL, checkpointing: Bool = false
    ) throws -> [HealthHistoryCheckpoint] {
        var backend = try Backend.open(directory, logLimit: 2_048)
        defer { backend.close() }
        let checkpoints = try apply(try Backend.workload(seed: seed, batches: 40), to: &backend)
        if checkpointing { try backend.checkpoint() }
        return checkpoints
    }

    @Test func everyBatchsCheckpointStaysVouchedForThroughMergesRotationsAndReopening() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let changes = try Backend.workload(seed: 21, batches: 80)
            let expected = Self.expectedFingerprints(changes)
            // A small log: it rotates many times, so most batches' fingerprints are read from the history file.
            var backend = try Backend.open(directory, logLimit: 2_048)
            let store = Self.store(backend)
            let checkpoints = try Self.apply(changes, to: &backend)
            #expect(checkpoints.map(\.sequence) == expected.map(\.sequence))
            #expect(checkpoints.map(\.fingerprint) == expected.map(\.fingerprint))
            #expect(Set(checkpoints.map(\.storeID)) == [backend.storeID])
            #expect((backend.log?.generation ?? 0) > 5, "the logs rotated")
            #expect(checkpoints.allSatisfy { store.mismatch(with: $0) == nil })
            backend.close()

            let reopened = try Backend.open(directory, logLimit: 2_048)
            let again = Self.store(reopened)
            #expect(reopened.recovery.historyRestarted == nil)
            #expect(checkpoints.allSatisfy { again.mismatch(with: $0) == nil })
            try reopened.checkpoint()
            #expect(checkpoints.allSatisfy { again.mismatch(with: $0) == nil })
            #expect(again.historyCheckpoint() == checkpoints.last)
            #expect(reopened.failure == nil)
            reopened.close()
        }
    }

    @Test func aRecreatedDirectoryARestoredCopyAndAnOlderCopyAreNotTheSameHistory() throws {
        let changes = try Backend.workload(seed: 22, batches: 30)
        let other = try Backend.workload(seed: 23, batches: 30)
        try DurableFixture.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let copy = directory.appendingPathComponent("copy")
            let data = directory.appendingPathComponent("data")
            var backend = try Backend.open(data, logLimit: 2_048)
            for change in changes.prefix(10) { try Backend.apply(change, to: &backend) }
            backend.close()
            try FileManager.default.copyItem(at: data, to: copy)
            backend = try Backend.open(data, logLimit: 2_048)
            for change in changes.dropFirst(10) { try Backend.apply(change, to: &backend) }
            let latest = Self.store(backend).historyCheckpoint()
            backend.close()

            // The copy taken before: the checkpoint lies past its end.
            var restored = try Backend.open(copy, logLimit: 2_048)
            #expect(
                Self.store(restored).mismatch(with: latest)
                    == .beyondEnd(recorded: latest.sequence, end: restored.lastSequence))
            // The copy then takes other changes, past the checkpoint's sequence: same store, another history.
            for change in other { try Backend.apply(change, to: &restored) }
            #expect(restored.lastSequence > latest.sequence)
            #expect(Self.store(restored).mismatch(with: latest) == .rewritten(sequence: latest.sequence))
            restored.close()

            try FileManager.default.removeItem(at: data)
            let recreated = try Backend.open(data)
            #expect(
                Self.store(recreated).mismatch(with: latest)
                    == .differentStore(recorded: latest.storeID, current: recreated.storeID))
            recreated.close()
        }
    }

    @Test func aMissingHistoryFileRestartsTheHistoryAndSaysSo() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let checkpoints = try Self.written(seed: 24, in: directory)
            try FileManager.default.removeItem(at: directory.appendingPathComponent(SegmentHistory.fileName))

            let reopened = try Backend.open(directory, logLimit: 2_048)
            let origin = try #require(reopened.recovery.historyRestarted)
            #expect(origin > 0 && origin < reopened.lastSequence)
            // The sums start again at the origin: no checkpoint taken before is vouched for, not even one after it.
            let store = Self.store(reopened)
            for checkpoint in checkpoints {
                #expect(store.mismatch(with: checkpoint) == .rewritten(sequence: checkpoint.sequence))
            }
            // Checkpoints taken now hold, across another reopening.
            var next = reopened
            try Backend.apply(.insert([try StoreFixture.sample(.stepCount, 5)]), to: &next)
            let fresh = store.historyCheckpoint()
            #expect(store.mismatch(with: fresh) == nil)
            #expect(reopened.failure == nil)
            reopened.close()
            let later = try Backend.open(directory, logLimit: 2_048)
            #expect(later.recovery.historyRestarted == nil, "the restarted history was written when it restarted")
            #expect(Self.store(later).mismatch(with: fresh) == nil)
            later.close()
        }
    }

    @Test func damageInTheHistoryFileIsReportedAndItsCheckpointsAreNotVouchedFor() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let checkpoints = try Self.written(seed: 25, in: directory, checkpointing: true)
            let file = directory.appendingPathComponent(SegmentHistory.fileName)
            var bytes = try Data(contentsOf: file)
            let entries = (bytes.count - SegmentHistory.headerSize) / SegmentHistory.entrySize
            #expect(entries == checkpoints.count, "one entry a batch once every log is rotated away")
            let damaged = SegmentHistory.headerSize + (entries / 2) * SegmentHistory.entrySize
            bytes[damaged + 9] ^= 0x10
            try bytes.write(to: file)

            let reopened = try Backend.open(directory, logLimit: 2_048)
            let store = Self.store(reopened)
            #expect(
                store.mismatch(with: checkpoints[entries / 2])
                    == .rewritten(sequence: checkpoints[entries / 2].sequence))
            #expect(
                reopened.failure
                    == .corruptFile(name: SegmentHistory.fileName, offset: damaged, problem: .payloadChecksumMismatch))
            reopened.close()
            #expect(try Data(contentsOf: file) == bytes, "the damaged file is kept as it is")
        }
    }
}
