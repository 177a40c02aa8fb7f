import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// A repairing opening of a ``SegmentedHealthStoreBackend`` (``FileStoreRecoveryMode/repair``) reads every segment
/// whole, writes again what of a damaged one reads, keeps the damaged file in `damaged/`, reports each loss as the
/// assessment said it would, and restarts the history so no sync trusts a checkpoint of rows that are gone.
struct SegmentedRepairTests {
    static let rows = 1_000

    /// A backend holding `rows` heart-rate samples in one segment (several row blocks) and nothing in its log;
    /// returns the samples' UUIDs in the segment's row order and a checkpoint taken before any damage.
    static func storeWithOneSegment(in directory: URL) throws -> (uuids: [UUID], checkpoint: HealthHistoryCheckpoint) {
        var backend = try SegmentedHealthStoreBackendTests.open(
            directory, memtableLimit: SegmentMemtableLimit(rows: 10_000, bytes: 16 << 20), logLimit: 16 << 20)
        let samples = try (0..<rows).map { index in
            StoredHealthSample(
                sample: try StoreFixture.sample(
                    .heartRate, Double(60 + index % 40), unit: "count/min", start: Fixture.noon + Double(index) * 60),
                correlation: nil)
        }
        try backend.insert(samples)
        try backend.checkpoint()
        let checkpoint = BackedHealthStore(backend: backend, configuration: StoreFixture.app).historyCheckpoint()
        backend.close()
        return (samples.map(\.sample.uuid), checkpoint)
    }

    static var segment: String { SegmentName(type: .heartRate, first: 1, last: 1).fileName }

    static func reader(_ directory: URL) throws -> SegmentReader {
        try SegmentReader(
            file: try PosixFileSystem().openFileForReading(at: FileSystemPath(directory).appending(segment)),
            name: segment)
    }

    static func flip(_ directory: URL, at offset: Int) throws -> Data {
        let file = directory.appendingPathComponent(segment)
        var bytes = try Data(contentsOf: file)
        bytes[offset] ^= 0x10
        try bytes.write(to: file)
        return bytes
    }

    /// Every file under `directory` (its `damaged/` folder too) with its bytes.
    static func contents(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    static func repairing(_ directory: URL) throws -> SegmentedHealthStoreBackend {
        try SegmentedHealthStoreBackend(
            directory: FileSystemPath(directory), fileSystem: PosixFileSystem(), repair: true)
    }

    @Test func aDamagedRowBlockLosesOnlyItsRowsAsAssessedAndTheDamagedFileIsKept() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let (uuids, checkpoint) = try Self.storeWithOneSegment(in: directory)
            let blocks = try Self.reader(directory).rowBlocks
            try #require(blocks.count >= 3, "the test needs a block in the middle")
            let block = blocks[blocks.count / 2]
            let damaged = try Self.flip(directory, at: block.extent.offset + block.extent.length / 2)
            let before = try Self.contents(directory)

            let assessed = try SegmentedHealthStoreBackend.assessDamage(directory: FileSystemPath(directory))
            #expect(
                assessed == [
                    FileStoreRepair(
                        file: Self.segment, offset: block.extent.offset, skippedBytes: block.extent.length,
                        problem: .payloadChecksumMismatch, changesLost: block.rowCount, samplesLost: block.rowCount)
                ])
            #expect(try Self.contents(directory) == before, "assessing changes nothing")

            let backend = try Self.repairing(directory)
            #expect(backend.recovery.repairs == assessed)
            let kept = try #require(backend.recovery.movedAside.first)
            #expect(backend.recovery.movedAside.count == 1 && kept.hasPrefix("damaged/\(Self.segment)."))
            #expect(try Data(contentsOf: directory.appendingPathComponent(kept)) == damaged, "kept byte for byte")
            let lost = Set(uuids[block.firstRow..<(block.firstRow + block.rowCount)])
            let left = backend.samples(of: .heartRate, matching: nil)
            #expect(Set(left.map(\.uuid)) == Set(uuids).subtracting(lost))
            for uuid in uuids.prefix(3) + uuids.suffix(3) where !lost.contains(uuid) {
                #expect(backend.sample(withUUID: uuid) != nil, "the UUID column was written again")
            }
            #expect(backend.recovery.historyRestarted == backend.lastSequence)
            let store = BackedHealthStore(backend: backend, configuration: StoreFixture.app)
            #expect(store.mismatch(with: checkpoint) == .rewritten(sequence: checkpoint.sequence))
            #expect(backend.failure == nil)
            backend.close()

            let reopened = try Self.repairing(directory)
            defer { reopened.close() }
            #expect(reopened.recovery.repairs.isEmpty && reopened.recovery.historyRestarted == nil)
            #expect(reopened.samples(of: .heartRate, matching: nil).count == Self.rows - block.rowCount)
        }
    }

    @Test func aSegmentWhoseIndexDoesNotReadIsMovedAsideWhole() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            _ = try Self.storeWithOneSegment(in: directory)
            var other = try SegmentedHealthStoreBackendTests.open(directory)
            try other.insert([StoredHealthSample(sample: try StoreFixture.sample(), correlation: nil)])
            try other.checkpoint()
            other.close()
            let size = try Data(contentsOf: directory.appendingPathComponent(Self.segment)).count
            let damaged = try Self.flip(directory, at: size - SegmentFormat.footerSize - 3)
            #expect(throws: FileStoreError.self) { try SegmentedHealthStoreBackendTests.open(directory) }

            let backend = try Self.repairing(directory)
            defer { backend.close() }
            let repair = try #require(backend.recovery.repairs.first)
            #expect(repair.file == Self.segment && repair.samplesLost == 0 && repair.skippedBytes == size)
            let kept = try #require(backend.recovery.movedAside.first)
            #expect(try Data(contentsOf: directory.appendingPathComponent(kept)) == damaged)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(Self.segment).path))
            #expect(backend.samples(of: .heartRate, matching: nil).isEmpty)
            #expect(backend.samples(of: .stepCount, matching: nil).count == 1, "other types are untouched")
        }
    }

    @Test func aDamagedUUIDBlockLosesNothingAndIsWrittenAgain() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let (uuids, _) = try Self.storeWithOneSegment(in: directory)
            let extent = try #require(try Self.reader(directory).uuidBlockExtents.first)
            _ = try Self.flip(directory, at: extent.offset + 5)

            let backend = try Self.repairing(directory)
            defer { backend.close() }
            #expect(
                backend.recovery.repairs == [
                    FileStoreRepair(
                        file: Self.segment, offset: extent.offset, skippedBytes: extent.length,
                        problem: .payloadChecksumMismatch, changesLost: 0, samplesLost: 0)
                ])
            for uuid in uuids { #expect(backend.sample(withUUID: uuid)?.sample.uuid == uuid) }
            #expect(backend.failure == nil)
        }
    }

    /// The store's filter of held UUIDs (``HeldKeyFilter``) reads every UUID block when the first save asks about
    /// its UUIDs: a damaged block stops that save with the segment's damage, typed — nothing is logged and the file
    /// is kept as it is — until a repairing opening writes the block again and the save goes through.
    @Test func aDamagedUUIDBlockStopsTheFirstSaveWithItsDamageUntilRepaired() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let (uuids, _) = try Self.storeWithOneSegment(in: directory)
            let extent = try #require(try Self.reader(directory).uuidBlockExtents.first)
            let damaged = try Self.flip(directory, at: extent.offset + 5)
            let damage = FileStoreError.corruptFile(
                name: Self.segment, offset: extent.offset, problem: .payloadChecksumMismatch)
            let new = try StoreFixture.sample(.stepCount, 12, start: Fixture.noon, duration: 60)

            let backend = try SegmentedHealthStoreBackend(directory: FileSystemPath(directory))
            #expect(throws: FileStoreError.unusable(after: damage)) {
                try BackedHealthStore(backend: backend, configuration: StoreFixture.app).ingest([new])
            }
            #expect(backend.failure == damage)
            backend.close()
            #expect(try Data(contentsOf: directory.appendingPathComponent(Self.segment)) == damaged)

            let repaired = try Self.repairing(directory)
            defer { repaired.close() }
            try BackedHealthStore(backend: repaired, configuration: StoreFixture.app).ingest([new])
            #expect(repaired.storedUUIDs(among: uuids + [new.uuid]) == Set(uuids + [new.uuid]))
            #expect(repaired.failure == nil)
        }
    }

    @Test func aRowWhoseSeriesBlockIsDamagedIsLostWithItsSeries() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let recordings = try (0..<2).map { try SeriesKind.voltages.recording(hours: Double($0)) }
            do {
                let backend = try SegmentedHealthStoreBackendTests.open(directory)
                try SeriesKind.voltages.ingest(recordings, into: SegmentedSeriesTests.store(backend))
                try backend.checkpoint()
                backend.close()
            }
            let (name, _, _) = try SegmentedSeriesTests.damageFirstSeriesBlock(in: directory, at: 10)

            let backend = try Self.repairing(directory)
            defer { backend.close() }
            let repair = try #require(backend.recovery.repairs.first)
            #expect(repair.file == name && repair.samplesLost == 1)
            let store = try await SegmentedSeriesTests.readable(.voltages, backend)
            let left = try await store.samples(of: .electrocardiogram)
            #expect(left.count == 1)
            let survivor = try #require(left.first)
            #expect(
                try await SeriesKind.voltages.read(survivor, from: store)
                    != SeriesKind.voltages.none, "the other ECG keeps its voltages")
            #expect(backend.failure == nil)
        }
    }

    @Test func repairingAnUndamagedStoreChangesNothing() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            _ = try Self.storeWithOneSegment(in: directory)
            let before = try Self.contents(directory)
            #expect(try SegmentedHealthStoreBackend.assessDamage(directory: FileSystemPath(directory)).isEmpty)
            let backend = try Self.repairing(directory)
            #expect(backend.recovery.repairs.isEmpty && backend.recovery.movedAside.isEmpty)
            #expect(backend.recovery.historyRestarted == nil)
            backend.close()
            #expect(try Self.contents(directory) == before)
        }
    }
}

/// A repair interrupted at any step (a crash: what reached the files stays, a write cut after 7 bytes) leaves the
/// folder such that the next repairing opening ends where an uninterrupted repair does — the same samples, the
/// damaged file kept byte for byte in `damaged/`, and the history restarted — whichever step it stopped at.
struct SegmentedRepairCrashTests {
    typealias Repair = SegmentedRepairTests

    static func copy(_ template: URL, to directory: URL) throws {
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.copyItem(at: template, to: directory)
    }

    @Test func aRepairInterruptedAtAnyStepIsFinishedByTheNextOne() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { template in
            let (_, checkpoint) = try Repair.storeWithOneSegment(in: template)
            let blocks = try Repair.reader(template).rowBlocks
            let block = blocks[blocks.count / 2]
            let damaged = try Repair.flip(template, at: block.extent.offset + 3)
            let work = template.deletingLastPathComponent().appendingPathComponent("work")

            try Self.copy(template, to: work)
            let probe = FaultyFileSystem()
            let clean = try SegmentedHealthStoreBackend(
                directory: FileSystemPath(work), fileSystem: probe, repair: true)
            let expected = Set(clean.samples(of: .heartRate, matching: nil).map(\.uuid))
            clean.close()
            let steps = probe.steps.count
            #expect(expected.count == Repair.rows - block.rowCount)
            #expect((8...200).contains(steps), "\(steps) steps")

            for step in 1...steps {
                try Self.copy(template, to: work)
                let faulty = FaultyFileSystem(.crash(at: step, keeping: 7))
                if let opened = try? SegmentedHealthStoreBackend(
                    directory: FileSystemPath(work), fileSystem: faulty, repair: true)
                {
                    opened.close()
                }
                let rerun = try Repair.repairing(work)
                defer { rerun.close() }
                #expect(
                    Set(rerun.samples(of: .heartRate, matching: nil).map(\.uuid)) == expected, "crash at step \(step)")
                let store = BackedHealthStore(backend: rerun, configuration: StoreFixture.app)
                #expect(store.mismatch(with: checkpoint) != nil, "crash at step \(step): the history restarted")
                let kept = try FileManager.default.contentsOfDirectory(
                    atPath: work.appendingPathComponent("damaged").path)
                #expect(
                    try kept.contains {
                        try Data(contentsOf: work.appendingPathComponent("damaged/" + $0)) == damaged
                    }, "crash at step \(step): the damaged file is kept")
                #expect(rerun.failure == nil)
            }
        }
    }
}
