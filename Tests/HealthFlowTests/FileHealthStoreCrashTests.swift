import Foundation
import Testing

@testable import HealthFlow

/// Crashes and damage: whatever happens mid-write, reopening yields exactly the acknowledged changes (plus,
/// at most, the one in flight when its record had fully reached the file), a torn last record is reported,
/// and damage before the last record is an error.
struct FileHealthStoreCrashTests {
    typealias Operation = DurableFixture.Operation

    static func referenceDump(_ operations: [Operation]) -> StateDump {
        let reference = DurableFixture.reference()
        for operation in operations { DurableFixture.perform(operation, on: reference) }
        return StateDump(reference.image)
    }

    static func journalPath(_ directory: URL, _ generation: UInt64 = 0) -> String {
        directory.appendingPathComponent(StoreLayout.journalName(generation)).path
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    // MARK: Crashes at every step

    @Test func aCrashAtAnyWriteStepReopensToTheAcknowledgedState() throws {
        let operations = try DurableFixture.workload(seed: 5, snapshots: true)
        let steps = try DurableFixture.diskSteps(of: operations)
        #expect(steps.count > 40)
        var sawTornTail = false
        var sawInFlightSurvive = false
        for (position, step) in steps.enumerated() {
            let keeps: [Int?] = step.operation == "write" ? [0, 1, step.bytes / 2, step.bytes - 1, nil] : [nil]
            for keeping in keeps {
                let fault = FaultyFileSystem.Fault.crash(at: position + 1, keeping: keeping)
                try DurableFixture.withTemporaryDirectory { directory in
                    let faulty = FaultyFileSystem(fault)
                    var acknowledged: [Operation] = []
                    var inFlight: Operation?
                    if let store = try? DurableFixture.open(directory, fileSystem: faulty) {
                        for operation in operations {
                            let crashedBefore = faulty.hasCrashed
                            if DurableFixture.perform(operation, on: store) {
                                acknowledged.append(operation)
                            } else if !crashedBefore && faulty.hasCrashed {
                                inFlight = operation
                            }
                        }
                        store.close()
                    }
                    #expect(faulty.hasCrashed, "\(fault)")

                    let reopened = try DurableFixture.open(directory)
                    let dump = StateDump(reopened.image)
                    let acknowledgedOnly = Self.referenceDump(acknowledged)
                    let withInFlight = inFlight.map { Self.referenceDump(acknowledged + [$0]) }
                    #expect(dump == acknowledgedOnly || dump == withInFlight, "\(fault) at \(step)")

                    let isAppend = step.name.hasSuffix(".hfj")
                    if isAppend && step.operation == "write" && (keeping ?? step.bytes) < step.bytes {
                        #expect(dump == acknowledgedOnly, "a partly written record is dropped: \(fault)")
                        #expect((reopened.recovery.tornTail != nil) == (keeping ?? 0 > 0), "\(fault)")
                        if let torn = reopened.recovery.tornTail {
                            #expect(torn.length == keeping)
                            sawTornTail = true
                        }
                    } else {
                        #expect(reopened.recovery.tornTail == nil, "\(fault) at \(step)")
                    }
                    if isAppend && step.operation == "fsync" {
                        #expect(dump == withInFlight, "a record fully written survives: \(fault)")
                        sawInFlightSurvive = true
                    }

                    // The recovered store is clean: it takes new changes, and reopens without a torn tail.
                    let extra = try StoreFixture.sample(.stepCount, 1, start: Fixture.noon + 86_400)
                    let authorize = Operation.authorize(share: [.stepCount], read: [])
                    DurableFixture.perform(authorize, on: reopened)
                    #expect(DurableFixture.perform(.save([extra]), on: reopened), "\(fault)")
                    reopened.close()
                    let again = try DurableFixture.open(directory)
                    #expect(again.recovery.tornTail == nil)
                    let expected = Self.referenceDump(
                        (dump == acknowledgedOnly ? acknowledged : acknowledged + [inFlight].compactMap { $0 })
                            + [authorize, .save([extra])])
                    #expect(StateDump(again.image) == expected, "\(fault)")
                }
            }
        }
        #expect(sawTornTail)
        #expect(sawInFlightSurvive)
    }

    // MARK: Torn tails

    /// A closed store with `operations` journaled; returns the journal's bytes and where its last record
    /// starts.
    static func journalWithLastRecord(
        _ directory: URL, _ operations: [Operation]
    ) throws -> (bytes: [UInt8], lastRecord: Int) {
        let store = try DurableFixture.open(directory)
        for operation in operations.dropLast() { DurableFixture.perform(operation, on: store) }
        let before = try Self.bytes(Self.journalPath(directory)).count
        #expect(DurableFixture.perform(operations[operations.count - 1], on: store))
        store.close()
        return (try Self.bytes(Self.journalPath(directory)), before)
    }

    @Test func truncatingTheLastRecordAtEveryByteDropsExactlyThatRecord() throws {
        let last = Operation.save([
            try StoreFixture.sample(start: Fixture.noon + 7200), try StoreFixture.sample(start: Fixture.noon + 7260),
        ])
        let operations =
            try DurableFixture.workload(seed: 3, snapshots: false).filter {
                if case .save = $0 { return true }
                if case .authorize = $0 { return true }
                return false
            } + [last]
        let allButLast = Self.referenceDump(Array(operations.dropLast()))
        try DurableFixture.withTemporaryDirectory { directory in
            let (journal, lastRecord) = try Self.journalWithLastRecord(directory, operations)
            let path = Self.journalPath(directory)
            #expect(journal.count - lastRecord > 100)
            for cut in lastRecord..<journal.count {
                try Self.write(Array(journal[0..<cut]), to: path)
                let store = try DurableFixture.open(directory)
                #expect(StateDump(store.image) == allButLast, "cut at \(cut)")
                let expectedTail =
                    cut == lastRecord
                    ? nil
                    : FileStoreRecovery.TornTail(
                        file: StoreLayout.journalName(0), offset: lastRecord, length: cut - lastRecord,
                        problem: .truncated)
                #expect(store.recovery.tornTail.map(Self.withoutCopy) == expectedTail)
                store.close()
                #expect(try Self.bytes(path).count == lastRecord, "the torn tail is cut off the file")
                if let kept = store.recovery.tornTail?.keptAs {
                    #expect(kept.hasPrefix("damaged/\(StoreLayout.journalName(0)).torn."))
                    let copy = try Self.bytes(directory.appendingPathComponent(kept).path)
                    #expect(copy == Array(journal[lastRecord..<cut]), "the torn bytes are kept before the cut")
                } else {
                    #expect(cut == lastRecord, "cut at \(cut): the torn bytes were not kept")
                }
            }
            try Self.write(journal, to: path)
            let whole = try DurableFixture.open(directory)
            #expect(StateDump(whole.image) == Self.referenceDump(operations))
            #expect(whole.recovery.tornTail == nil)
        }
    }

    /// A torn-tail report without where its bytes were copied (a time-stamped name), to compare with an expected one.
    static func withoutCopy(_ torn: FileStoreRecovery.TornTail) -> FileStoreRecovery.TornTail {
        FileStoreRecovery.TornTail(file: torn.file, offset: torn.offset, length: torn.length, problem: torn.problem)
    }

    @Test func zerosOrGarbageAfterTheLastRecordAreATornTail() throws {
        let operations = try DurableFixture.workload(seed: 4, snapshots: false)
        let expected = Self.referenceDump(operations)
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            for operation in operations { DurableFixture.perform(operation, on: store) }
            store.close()
            let path = Self.journalPath(directory)
            let journal = try Self.bytes(path)

            // Blocks the file system allocated but never wrote.
            try Self.write(journal + [UInt8](repeating: 0, count: 4096), to: path)
            var reopened = try DurableFixture.open(directory)
            #expect(StateDump(reopened.image) == expected)
            #expect(
                reopened.recovery.tornTail.map(Self.withoutCopy)
                    == FileStoreRecovery.TornTail(
                        file: StoreLayout.journalName(0), offset: journal.count, length: 4096,
                        problem: .headerChecksumMismatch))
            reopened.close()

            // A last record whose header reached the disk but whose payload did not.
            var header: [UInt8] = []
            RecordFrame.append(kind: .delete, payload: [UInt8](repeating: 7, count: 17), to: &header)
            try Self.write(journal + Array(header[0..<16]) + [UInt8](repeating: 0, count: 17), to: path)
            reopened = try DurableFixture.open(directory)
            #expect(StateDump(reopened.image) == expected)
            #expect(reopened.recovery.tornTail?.problem == .payloadChecksumMismatch)
            #expect(reopened.recovery.tornTail?.offset == journal.count)
        }
    }

    // MARK: Corruption

    @Test func aDamagedByteBeforeTheLastRecordIsAnError() throws {
        let operations = try DurableFixture.workload(seed: 6, snapshots: false)
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            for operation in operations { DurableFixture.perform(operation, on: store) }
            store.close()
            let path = Self.journalPath(directory)
            let journal = try Self.bytes(path)
            // Find the records' offsets, and damage every byte of the third one in turn.
            var starts: [Int] = []
            var offset = StoreLayout.journalMagic.count
            while case .record(_, _, let next, _) = FrameScanner(bytes: journal).scan(at: offset) {
                starts.append(offset)
                offset = next
            }
            #expect(starts.count == 14)
            let damaged = starts[3]..<starts[4]
            for position in damaged {
                var copy = journal
                copy[position] ^= 0x20
                try Self.write(copy, to: path)
                let expectedProblem: FileStoreError.Damage =
                    position < damaged.lowerBound + RecordFrame.headerSize
                    ? .headerChecksumMismatch : .payloadChecksumMismatch
                #expect(
                    throws: FileStoreError.corruptFile(
                        name: StoreLayout.journalName(0), offset: damaged.lowerBound, problem: expectedProblem)
                ) {
                    try DurableFixture.open(directory)
                }
            }
            // The magic too.
            var copy = journal
            copy[0] ^= 1
            try Self.write(copy, to: path)
            #expect(
                throws: FileStoreError.corruptFile(name: StoreLayout.journalName(0), offset: 0, problem: .notAStoreFile)
            ) {
                try DurableFixture.open(directory)
            }
        }
    }

    @Test func aDamagedSnapshotIsAnError() throws {
        let operations = try DurableFixture.workload(seed: 8, snapshots: true)
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            for operation in operations { DurableFixture.perform(operation, on: store) }
            store.close()
            let name = StoreLayout.snapshotName(2)
            let path = directory.appendingPathComponent(name).path
            let snapshot = try Self.bytes(path)
            for position in stride(from: 0, to: snapshot.count, by: 7) {
                var copy = snapshot
                copy[position] ^= 0x04
                try Self.write(copy, to: path)
                do throws(FileStoreError) {
                    _ = try DurableFixture.open(directory)
                    Issue.record("a damaged byte at \(position) went unnoticed")
                } catch {
                    guard case .corruptFile(name, _, _) = error else {
                        Issue.record("unexpected \(error)")
                        continue
                    }
                }
            }
            // A snapshot cut short (only a complete one is ever renamed into place) is damage too.
            try Self.write(Array(snapshot.dropLast(5)), to: path)
            #expect(throws: FileStoreError.self) { try DurableFixture.open(directory) }
        }
    }

    // MARK: Snapshot steps

    @Test func aCrashBetweenTheSnapshotRenameAndTheRemovalOfOlderFilesLosesNothing() throws {
        let operations = try DurableFixture.workload(seed: 9, snapshots: false)
        let expected = Self.referenceDump(operations)
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            for operation in operations { DurableFixture.perform(operation, on: store) }
            let oldJournal = try Self.bytes(Self.journalPath(directory, 0))
            try store.snapshot()
            store.close()
            // Put back what the snapshot covers, as if the process died before removing it.
            try Self.write(oldJournal, to: Self.journalPath(directory, 0))
            let reopened = try DurableFixture.open(directory)
            #expect(StateDump(reopened.image) == expected)
            #expect(reopened.recovery.snapshotGeneration == 1)
            #expect(reopened.recovery.journalGenerations == [1])
            #expect(reopened.recovery.removedFiles == [StoreLayout.journalName(0)])
        }
    }

    @Test func aSnapshotWhoseJournalIsGoneIsAMissingJournalUntilARepairRecreatesIt() throws {
        // A snapshot's journal is created and flushed before the snapshot is written, so no crash leaves a
        // snapshot without it: its absence means changes made after the snapshot may be gone.
        let operations = try DurableFixture.workload(seed: 10, snapshots: false)
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            for operation in operations { DurableFixture.perform(operation, on: store) }
            try store.snapshot()
            store.close()
            try FileManager.default.removeItem(atPath: Self.journalPath(directory, 1))
            #expect(throws: FileStoreError.missingJournal(generation: 1)) { try DurableFixture.open(directory) }

            let repaired = try DurableFixture.open(directory, recovery: .repair)
            #expect(StateDump(repaired.image) == Self.referenceDump(operations))
            #expect(
                repaired.recovery.repairs == [
                    FileStoreRepair(
                        file: StoreLayout.journalName(1), offset: 0, skippedBytes: 0, problem: .missingFile,
                        changesLost: 0, samplesLost: 0)
                ])
            repaired.close()
            let reopened = try DurableFixture.open(directory)
            #expect(StateDump(reopened.image) == Self.referenceDump(operations))
            #expect(reopened.recovery.repairs.isEmpty)
            reopened.close()
        }
    }

    @Test func aMissingJournalIsAnError() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            for operation in try DurableFixture.workload(seed: 12, snapshots: false) {
                DurableFixture.perform(operation, on: store)
            }
            try store.snapshot()
            #expect(DurableFixture.perform(.save([try StoreFixture.sample()]), on: store))
            store.close()
            try FileManager.default.moveItem(
                atPath: Self.journalPath(directory, 1), toPath: Self.journalPath(directory, 2))
            #expect(throws: FileStoreError.missingJournal(generation: 1)) { try DurableFixture.open(directory) }
        }
    }

    // MARK: Failures without a crash

    @Test func aFailedWriteIsReportedAndTheStoreGoesOn() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            // Steps: opening takes 5 (create, write, sync, rename, directory sync), the authorization 2; the
            // first save's write is step 8. Half of it lands, then the disk is full.
            let faulty = FaultyFileSystem(.fail(at: 8, keeping: 20))
            let store = try DurableFixture.open(directory, fileSystem: faulty)
            let authorize = Operation.authorize(share: [.stepCount], read: [.stepCount])
            #expect(DurableFixture.perform(authorize, on: store))
            let lost = try StoreFixture.sample()
            let error = DurableFixture.failure { store.save([lost], withCompletion: $0) }
            guard case .io("write", _, _)? = error as? FileStoreError else {
                Issue.record("expected the write's error, got \(String(describing: error))")
                return
            }
            let kept = Operation.save([try StoreFixture.sample(start: Fixture.oneHourLater)])
            #expect(DurableFixture.perform(kept, on: store))
            store.close()
            let reopened = try DurableFixture.open(directory)
            #expect(reopened.recovery.tornTail == nil)
            #expect(StateDump(reopened.image) == Self.referenceDump([authorize, kept]))
        }
    }

    @Test func aFailedFlushMakesTheStoreRefuseChangesUntilReopened() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let faulty = FaultyFileSystem(.fail(at: 9, keeping: nil))  // the first save's fsync
            let store = try DurableFixture.open(directory, fileSystem: faulty)
            let authorize = Operation.authorize(share: [.stepCount], read: [.stepCount])
            #expect(DurableFixture.perform(authorize, on: store))
            let inDoubt = Operation.save([try StoreFixture.sample()])
            #expect(!DurableFixture.perform(inDoubt, on: store))
            let another = try StoreFixture.sample()
            let refused = DurableFixture.failure { store.save([another], withCompletion: $0) }
            guard case .unusable(after: .io("fsync", _, _))? = refused as? FileStoreError else {
                Issue.record("expected unusable after a failed fsync, got \(String(describing: refused))")
                return
            }
            #expect(store.authorizationStatus(for: .stepCount) == .sharingAuthorized, "reads still work")
            store.close()
            // The record did reach the file before the flush failed: reopening finds it.
            let reopened = try DurableFixture.open(directory)
            #expect(StateDump(reopened.image) == Self.referenceDump([authorize, inDoubt]))
        }
    }

    // MARK: Recovery itself

    @Test func aCrashWhileRecoveringIsRecoveredFromNextTime() throws {
        let operations = try DurableFixture.workload(seed: 14, snapshots: false)
        let expected = Self.referenceDump(operations)
        try DurableFixture.withTemporaryDirectory { directory in
            // A snapshot, the journal it covers put back, a stray temporary file, and a torn last record.
            let store = try DurableFixture.open(directory)
            for operation in operations { DurableFixture.perform(operation, on: store) }
            let covered = try Self.bytes(Self.journalPath(directory, 0))
            try store.snapshot()
            store.close()
            try Self.write(covered, to: Self.journalPath(directory, 0))
            try Self.write(
                [1, 2, 3], to: directory.appendingPathComponent(".healthflow-snapshot-0000000000000002.hfs.tmp").path)
            let current = try Self.bytes(Self.journalPath(directory, 1))
            var torn: [UInt8] = []
            RecordFrame.append(kind: .delete, payload: [UInt8](repeating: 9, count: 17), to: &torn)
            let damaged = current + torn.prefix(20)
            let setUp = try FileManager.default.contentsOfDirectory(atPath: directory.path)

            let counting = FaultyFileSystem()
            try Self.write(damaged, to: Self.journalPath(directory, 1))
            try DurableFixture.open(directory, fileSystem: counting).close()
            let steps = counting.steps
            #expect(
                steps.map(\.operation) == [
                    "remove", "remove", "syncDirectory",
                    // The torn bytes copied into damaged/ before the journal is cut.
                    "create", "write", "fsync", "syncDirectory", "syncDirectory",
                    "truncate", "fsync",
                ])

            let damagedFolder = directory.appendingPathComponent(StoreLayout.damagedFolder)
            for step in 1...steps.count {
                // Restore the damaged directory, crash recovery at `step`, then open for real.
                try FileManager.default.removeItem(at: damagedFolder)
                try Self.write(damaged, to: Self.journalPath(directory, 1))
                try Self.write(covered, to: Self.journalPath(directory, 0))
                try Self.write(
                    [1, 2, 3],
                    to: directory.appendingPathComponent(".healthflow-snapshot-0000000000000002.hfs.tmp").path)
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == setUp.sorted())
                #expect(throws: FileStoreError.self) {
                    try DurableFixture.open(directory, fileSystem: FaultyFileSystem(.crash(at: step, keeping: nil)))
                }
                let reopened = try DurableFixture.open(directory)
                #expect(StateDump(reopened.image) == expected, "crash at recovery step \(step)")
                // Whether the crashed open or this one cut the journal, the torn bytes were copied first.
                let copies = try FileManager.default.contentsOfDirectory(atPath: damagedFolder.path).map {
                    try Self.bytes(damagedFolder.appendingPathComponent($0).path)
                }
                #expect(copies.contains(Array(torn.prefix(20))), "crash at recovery step \(step)")
                reopened.close()
            }
        }
    }

    @Test func aTornTailBeforeALaterJournalIsCorruption() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            for operation in try DurableFixture.workload(seed: 15, snapshots: false) {
                DurableFixture.perform(operation, on: store)
            }
            store.close()
            let journal = try Self.bytes(Self.journalPath(directory, 0))
            try Self.write(journal + [0x11, 0x00], to: Self.journalPath(directory, 0))
            // Journal 1 exists, so journal 0 was complete when it began: its tail cannot be a torn write.
            let creator = JournalCreator(
                fileSystem: PosixFileSystem(), directory: FileSystemPath(directory),
                appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: store.storeID)
            try creator.create(generation: 1, startSequence: store.lastChangeSequence).file.close()
            #expect(
                throws: FileStoreError.corruptFile(
                    name: StoreLayout.journalName(0), offset: journal.count, problem: .truncated)
            ) {
                try DurableFixture.open(directory)
            }
        }
    }
}
