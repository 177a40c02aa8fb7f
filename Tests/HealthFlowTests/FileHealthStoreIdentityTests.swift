import Foundation
import Testing

@testable import HealthFlow

/// A store's identity and change history: kept in every file's header, checked when files are read back, and
/// vouched for by ``HealthChangeHistory`` so sync state never outlives the store it describes.
struct FileHealthStoreIdentityTests {
    private static func save(_ count: Int, to store: FileHealthStore) throws -> [HealthSample] {
        let samples = try (0..<count).map { _ in try StoreFixture.sample() }
        #expect(DurableFixture.perform(.authorize(share: [.stepCount], read: [.stepCount]), on: store))
        #expect(DurableFixture.perform(.save(samples), on: store))
        return samples
    }

    @Test func theIdentityAndTheHistorySurviveReopeningAndSnapshots() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            _ = try Self.save(3, to: store)
            let identity = store.storeID
            let mark = store.historyCheckpoint()
            #expect(mark.storeID == identity)
            #expect(mark.sequence == 3)
            store.close()

            let reopened = try DurableFixture.open(directory)
            #expect(reopened.storeID == identity)
            #expect(reopened.historyCheckpoint() == mark)
            #expect(reopened.mismatch(with: mark) == nil)
            try reopened.snapshot()
            _ = try Self.save(2, to: reopened)
            reopened.close()

            let third = try DurableFixture.open(directory)
            #expect(third.storeID == identity)
            #expect(third.lastChangeSequence == 5)
            #expect(third.mismatch(with: mark) == nil, "a checkpoint stays valid as the history grows")
            third.close()
        }
    }

    @Test func aRecreatedStoreHasANewIdentityAndRejectsTheOldCheckpoint() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            _ = try Self.save(3, to: store)
            let mark = store.historyCheckpoint()
            store.close()
            try FileManager.default.removeItem(at: directory)

            let recreated = try DurableFixture.open(directory)
            _ = try Self.save(5, to: recreated)
            #expect(recreated.storeID != mark.storeID)
            #expect(
                recreated.mismatch(with: mark) == .differentStore(recorded: mark.storeID, current: recreated.storeID))
            recreated.close()
        }
    }

    @Test func aStoreRestoredFromAnOlderCopyRejectsALaterCheckpoint() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let copy = directory.deletingLastPathComponent().appendingPathComponent("copy")
            let store = try DurableFixture.open(directory)
            _ = try Self.save(3, to: store)
            store.close()
            try FileManager.default.copyItem(at: directory, to: copy)

            let later = try DurableFixture.open(directory)
            _ = try Self.save(4, to: later)
            let mark = later.historyCheckpoint()
            later.close()
            try FileManager.default.removeItem(at: directory)
            try FileManager.default.moveItem(at: copy, to: directory)

            let restored = try DurableFixture.open(directory)
            #expect(restored.mismatch(with: mark) == .beyondEnd(recorded: 7, end: 3))
            _ = try Self.save(6, to: restored)
            #expect(restored.lastChangeSequence == 9)
            #expect(restored.mismatch(with: mark) == .rewritten(sequence: 7))
            restored.close()
        }
    }

    @Test func deletionsCountInTheFingerprintAndReopeningRecomputesIt() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            let saved = try Self.save(4, to: store)
            #expect(DurableFixture.perform(.delete([saved[1]]), on: store))
            let mark = store.historyCheckpoint()
            try store.snapshot()
            store.close()
            let reopened = try DurableFixture.open(directory)
            #expect(reopened.historyCheckpoint() == mark, "a snapshot restores the same fingerprint")
            reopened.close()
        }
    }

    @Test func aJournalOfAnotherStoreIsCorruptionNotData() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let other = directory.deletingLastPathComponent().appendingPathComponent("other")
            let first = try DurableFixture.open(directory)
            _ = try Self.save(2, to: first)
            try first.snapshot()
            first.close()
            let second = try DurableFixture.open(other)
            _ = try Self.save(2, to: second)
            try second.snapshot()
            _ = try Self.save(1, to: second)
            second.close()
            // Generation 1 of the other store, swapped in for this store's journal 1.
            let name = StoreLayout.journalName(1)
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            try FileManager.default.copyItem(
                at: other.appendingPathComponent(name), to: directory.appendingPathComponent(name))
            do throws(FileStoreError) {
                _ = try DurableFixture.open(directory)
                Issue.record("a journal of another store was read as this store's")
            } catch .corruptFile(let file, let offset, .inconsistent(let reason)) {
                #expect(file == name)
                #expect(offset == StoreLayout.journalMagic.count)
                #expect(reason.contains("belongs to store"), "\(reason)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func aJournalFromAnotherPointOfTheSameStoresHistoryIsCaughtByItsStartSequence() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            _ = try Self.save(2, to: store)
            try store.snapshot()  // snapshot 1 ends at change 2; journal 1 starts after it
            let identity = store.storeID
            store.close()
            // This store's journal 1, as a copy taken at another point would hold it: starting after change 7.
            let name = StoreLayout.journalName(1)
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            let creator = JournalCreator(
                fileSystem: PosixFileSystem(), directory: FileSystemPath(directory),
                appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: identity)
            try creator.create(generation: 1, startSequence: 7).file.close()
            do throws(FileStoreError) {
                _ = try DurableFixture.open(directory)
                Issue.record("a journal from another point of the history was replayed")
            } catch .corruptFile(let file, _, .inconsistent(let reason)) {
                #expect(file == name)
                #expect(reason.contains("starts after change 7, the files before it end at 2"), "\(reason)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func aSnapshotWithoutItsJournalIsAMissingJournal() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            _ = try Self.save(2, to: store)
            try store.snapshot()
            _ = try Self.save(3, to: store)  // in journal 1 only
            store.close()
            try FileManager.default.removeItem(at: directory.appendingPathComponent(StoreLayout.journalName(1)))
            #expect(throws: FileStoreError.missingJournal(generation: 1)) { try DurableFixture.open(directory) }
            #expect(
                FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent(StoreLayout.snapshotName(1)).path),
                "the snapshot stays")
        }
    }

    @Test func aDeletedSnapshotIsCaughtNotReadAsAnEmptyStoreWithALaterJournal() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            _ = try Self.save(3, to: store)
            try store.snapshot()  // journal 0 is removed: only snapshot 1 holds those samples
            _ = try Self.save(1, to: store)
            store.close()
            try FileManager.default.removeItem(at: directory.appendingPathComponent(StoreLayout.snapshotName(1)))
            // Without the snapshot, journal 1 needs journal 0 (removed when the snapshot covered it).
            #expect(throws: FileStoreError.missingJournal(generation: 0)) { try DurableFixture.open(directory) }
            // A repair keeps what is readable and says what is missing; journal 1's changes need its start.
            let repaired = try DurableFixture.open(directory, recovery: .repair)
            #expect(repaired.recovery.repairs.first?.problem == .missingFile)
            #expect(
                repaired.recovery.repairs.contains {
                    $0.problem == .inconsistent("the journal starts after change 3, the files before it end at 0")
                })
            repaired.close()
        }
    }

    @Test func filesWrittenBeforeIdentitiesGetOneWhenOpened() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            // A journal as the earlier format wrote it: the header ends after the app's identifier.
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var bytes = StoreLayout.journalMagic
            RecordFrame.append(
                kind: .header,
                payload: StoreFileHeader(
                    generation: 0, appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: nil,
                    startSequence: nil
                ).encoded(),
                to: &bytes)
            let sample = try StoreFixture.sample(source: Fixture.watch)
            let insert = MutationCodec.encode(.insert([sample]))
            RecordFrame.append(kind: insert.kind, payload: insert.payload, to: &bytes)
            try Data(bytes).write(to: directory.appendingPathComponent(StoreLayout.journalName(0)))

            let store = try DurableFixture.open(directory)
            let identity = store.storeID
            #expect(StateDump(store.image).locations.keys.contains(sample.uuid))
            store.close()
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(names == ["LOCK", StoreLayout.journalName(1), StoreLayout.snapshotName(1)])
            let reopened = try DurableFixture.open(directory)
            #expect(reopened.storeID == identity, "the identity is written once, then kept")
            reopened.close()
        }
    }

    @Test func everyInMemoryStoreIsANewHistory() {
        let first = DurableFixture.reference()
        let second = DurableFixture.reference()
        #expect(first.storeID != second.storeID)
        #expect(first.mismatch(with: second.historyCheckpoint()) != nil)
        #expect(first.mismatch(with: first.historyCheckpoint()) == nil)
    }

    @Test func aCheckpointRoundTripsThroughJSONWithItsFullFingerprint() throws {
        let checkpoint = HealthHistoryCheckpoint(storeID: UUID(), sequence: 42, fingerprint: 0xFFFF_FFFF_FFFF_FFF1)
        let data = try JSONEncoder().encode(checkpoint)
        #expect(try JSONDecoder().decode(HealthHistoryCheckpoint.self, from: data) == checkpoint)
        #expect(String(decoding: data, as: UTF8.self).contains("fffffffffffffff1"))
    }
}
