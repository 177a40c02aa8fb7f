import Foundation
import Testing

@testable import HealthFlow

/// When a ``FileHealthStore`` takes its automatic snapshots: after the journal's changes reach the larger of the
/// size limit and the last snapshot's size, so that a growing store is not rewritten whole every `limit` bytes.
@Suite struct FileStoreSnapshotScheduleTests {
    /// 4 KiB: a few dozen samples' worth of journal.
    static let limit = 4 << 10

    static func batch(_ index: Int, count: Int = 20) throws -> [HealthSample] {
        try (0..<count).map { offset in
            let second = Double(index * count + offset)
            return try StoreFixture.sample(.stepCount, second, start: Fixture.noon + second)
        }
    }

    /// The bytes written to snapshot files, and how many snapshots were written, from the file system's log.
    static func snapshotWrites(_ fileSystem: FaultyFileSystem) -> (bytes: Int, count: Int) {
        let steps = fileSystem.steps.filter { $0.name.contains("snapshot") }
        return (
            steps.filter { $0.operation == "write" }.reduce(0) { $0 + $1.bytes },
            steps.filter { $0.operation == "rename" }.count
        )
    }

    static func snapshotGeneration(in directory: URL) throws -> UInt64? {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).compactMap { name -> UInt64? in
            if case .snapshot(let generation) = StoreLayout.classify(name) { return generation }
            return nil
        }.max()
    }

    @Test func aGrowingStoreWritesItsSnapshotsInFewerThanThreeTimesTheFinalSnapshotsBytes() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let fileSystem = FaultyFileSystem()
            let store = try DurableFixture.open(directory, fileSystem: fileSystem, limit: Self.limit)
            // ~300 KB of journal: a fixed 4 KiB limit would take ~70 snapshots of the growing store (~10 MB).
            for index in 0..<200 { try store.ingest(try Self.batch(index)) }
            let automatic = Self.snapshotWrites(fileSystem)
            try store.snapshot()
            let final = Self.snapshotWrites(fileSystem).bytes - automatic.bytes
            store.close()

            #expect(automatic.count >= 3, "the store still snapshots as it grows")
            #expect(automatic.count <= 10, "each snapshot waits for as many bytes of changes as the one before")
            #expect(automatic.bytes < 3 * final, "automatic \(automatic.bytes) bytes against a final \(final)")
            let reopened = try DurableFixture.open(directory)
            #expect(reopened.image.locations.count == 200 * 20)
            reopened.close()
        }
    }

    @Test func aStoreWhoseAutomaticSnapshotsAreOffTakesNoneAndLosesNothingUntilTurnedOnAgain() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let fileSystem = FaultyFileSystem()
            let store = try DurableFixture.open(directory, fileSystem: fileSystem, limit: Self.limit)
            #expect(store.takesAutomaticSnapshots)
            store.takesAutomaticSnapshots = false
            // ~75 KB of journal: eighteen times the limit.
            for index in 0..<50 { try store.ingest(try Self.batch(index)) }
            #expect(Self.snapshotWrites(fileSystem).count == 0)
            store.close()

            let reopened = try DurableFixture.open(directory, fileSystem: fileSystem, limit: Self.limit)
            #expect(reopened.image.locations.count == 50 * 20, "the journal kept every change")
            #expect(reopened.recovery.replayedRecords == 50)
            #expect(reopened.takesAutomaticSnapshots, "a store opens taking its snapshots")
            reopened.takesAutomaticSnapshots = false
            try reopened.ingest(try Self.batch(50))
            #expect(Self.snapshotWrites(fileSystem).count == 0)
            reopened.takesAutomaticSnapshots = true
            try reopened.ingest(try Self.batch(51))
            #expect(Self.snapshotWrites(fileSystem).count == 1, "the snapshot due is taken after the next change")
            reopened.close()
        }
    }

    @Test func aReopenedStoreWaitsForItsSnapshotsSizeOfChangesBeforeTheNextSnapshot() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let first = try DurableFixture.open(directory)
            for index in 0..<50 { try first.ingest(try Self.batch(index)) }
            try first.snapshot()
            first.close()
            let generation = try #require(try Self.snapshotGeneration(in: directory))
            let snapshotSize = try #require(
                try FileManager.default.attributesOfItem(
                    atPath: directory.appendingPathComponent(StoreLayout.snapshotName(generation)).path
                )[.size] as? Int)
            #expect(snapshotSize > 4 * Self.limit, "the snapshot outweighs the limit")

            let store = try DurableFixture.open(directory, limit: Self.limit)
            var index = 50
            var journalSize = 0
            let journal = directory.appendingPathComponent(StoreLayout.journalName(generation))
            while journalSize < snapshotSize / 2, try Self.snapshotGeneration(in: directory) == generation {
                try store.ingest(try Self.batch(index))
                index += 1
                journalSize = (try? FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int) ?? 0
            }
            #expect(try Self.snapshotGeneration(in: directory) == generation, "past the limit, below the snapshot")
            while try Self.snapshotGeneration(in: directory) == generation, index < 10_000 {
                try store.ingest(try Self.batch(index))
                index += 1
            }
            #expect(try Self.snapshotGeneration(in: directory) == generation + 1, "once the changes outweigh it")
            let kept = store.image.locations.count
            store.close()
            #expect(kept == index * 20)
            let reopened = try DurableFixture.open(directory)
            #expect(reopened.image.locations.count == kept)
            reopened.close()
        }
    }
}
