import Foundation
import Testing

@testable import HealthFlow

/// Bounded records and the repairing open: a large change is several records, still all or nothing after a
/// crash; damage stops a normal open with the file and offset; a repairing open keeps every readable change,
/// reports what it skipped, moves the damaged file into `damaged/` and leaves a store that opens normally.
struct FileHealthStoreRepairTests {
    typealias Crash = FileHealthStoreCrashTests

    /// The journal's records after its header: offset, kind, the decoded change, and the "more follows" flag.
    static func records(_ bytes: [UInt8]) throws -> [(offset: Int, next: Int, mutation: StoreMutation, continues: Bool)]
    {
        let scanner = FrameScanner(bytes: bytes)
        var offset = StoreLayout.journalMagic.count
        var decoder = SampleDecoder()
        var found: [(offset: Int, next: Int, mutation: StoreMutation, continues: Bool)] = []
        var first = true
        while case .record(let kind, let payload, let next, let continues) = scanner.scan(at: offset) {
            if !first {
                var reader = BinaryReader(bytes, range: payload)
                found.append(
                    (offset, next, try MutationCodec.decode(kind: kind, from: &reader, samples: &decoder), continues))
            }
            first = false
            offset = next
        }
        #expect(offset == bytes.count, "the journal reads to its end")
        return found
    }

    /// What replaying `mutations` (each applied when it still applies) gives: the state a repair must reach.
    static func dump(replaying mutations: [StoreMutation], storeID: UUID) -> StateDump {
        var state = StoreState(appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: storeID)
        for mutation in mutations where state.replayProblem(mutation) == nil { _ = state.apply(mutation) }
        return StateDump(StoreImage(state))
    }

    static func damagedFiles(in directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("damaged").path)) ?? []
    }

    @Test func eachDamagedRecordCostsOnlyItsChangeWhenRepairing() throws {
        var cases = 0
        try DurableFixture.withTemporaryDirectory { directory in
            let (path, journal) = try FileHealthStoreDamageTests.journal(in: directory, seed: 31)
            let records = try Self.records(journal)
            #expect(records.count > 8)
            for (index, record) in records.enumerated() {
                var copy = journal
                copy[(record.offset + RecordFrame.headerSize + record.next) / 2] ^= 0x40
                try FileManager.default.removeItem(at: directory)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Crash.write(copy, to: path)

                #expect(
                    throws: FileStoreError.corruptFile(
                        name: StoreLayout.journalName(0), offset: record.offset, problem: .payloadChecksumMismatch)
                ) { try DurableFixture.open(directory) }
                #expect(try Crash.bytes(path) == copy, "a normal open changes no byte")

                let repaired = try DurableFixture.open(directory, recovery: .repair)
                let expected = Self.dump(
                    replaying: records.enumerated().filter { $0.offset != index }.map(\.element.mutation),
                    storeID: repaired.storeID)
                #expect(StateDump(repaired.image) == expected, "record \(index)")
                let repair = try #require(repaired.recovery.repairs.first)
                #expect(repair.file == StoreLayout.journalName(0))
                #expect(repair.offset == record.offset)
                #expect(repair.skippedBytes == record.next - record.offset)
                #expect(repair.changesLost == 1, "the damaged record's change is counted lost")
                #expect(repaired.recovery.movedAside.count == 1)
                #expect(Self.damagedFiles(in: directory).count == 1)
                let moved = directory.appendingPathComponent(repaired.recovery.movedAside[0]).path
                #expect(try Crash.bytes(moved) == copy, "the damaged file is kept byte for byte")
                #expect(DurableFixture.perform(.ingest([try StoreFixture.sample(source: Fixture.watch)]), on: repaired))
                let after = StateDump(repaired.image)
                repaired.close()

                let reopened = try DurableFixture.open(directory)
                #expect(StateDump(reopened.image) == after, "a repaired store opens normally, as it was left")
                #expect(reopened.recovery.repairs.isEmpty)
                reopened.close()
                cases += 1
            }
        }
        print("FileHealthStoreRepairTests: \(cases) damaged-record repairs, each losing only its own change")
    }

    @Test func anAssessmentTellsWhatARepairWouldLoseAndChangesNothing() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let (path, journal) = try FileHealthStoreDamageTests.journal(in: directory, seed: 33)
            let records = try Self.records(journal)
            var copy = journal
            copy[(records[3].offset + RecordFrame.headerSize + records[3].next) / 2] ^= 0x02
            try Crash.write(copy, to: path)
            let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()

            let assessment = try FileHealthStore.assessDamage(directory: directory, configuration: StoreFixture.app)
            #expect(assessment.repairs.map(\.offset) == [records[3].offset])
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
            #expect(try Crash.bytes(path) == copy, "an assessment writes nothing")

            let repaired = try DurableFixture.open(directory, recovery: .repair)
            #expect(repaired.recovery.repairs == assessment.repairs, "the repair does what the assessment said")
            #expect(StateDump(repaired.image).locations.count == assessment.keptObjects)
            repaired.close()
        }
    }

    @Test func garbageInTheMiddleOfAJournalIsSkippedExactly() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let (path, journal) = try FileHealthStoreDamageTests.journal(in: directory, seed: 32)
            let records = try Self.records(journal)
            let cut = records[records.count / 2].offset
            var random = SeededGenerator(seed: 7)
            let garbage = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
            try Crash.write(Array(journal[..<cut]) + garbage + Array(journal[cut...]), to: path)
            #expect(throws: FileStoreError.self) { try DurableFixture.open(directory) }

            let repaired = try DurableFixture.open(directory, recovery: .repair)
            #expect(
                StateDump(repaired.image) == Self.dump(replaying: records.map(\.mutation), storeID: repaired.storeID))
            #expect(repaired.recovery.repairs.map(\.offset) == [cut])
            #expect(repaired.recovery.repairs.map(\.skippedBytes) == [garbage.count])
            #expect(repaired.recovery.repairs.map(\.changesLost) == [0], "garbage held no change")
            repaired.close()
        }
    }

    @Test func aLargeSaveIsSeveralBoundedRecordsAndStaysAllOrNothing() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            #expect(DurableFixture.perform(.authorize(share: [.stepCount], read: [.stepCount]), on: store))
            let first = try StoreFixture.sample()
            #expect(DurableFixture.perform(.save([first]), on: store))
            let large = try (0..<40_000).map { index in
                try StoreFixture.sample(start: Fixture.noon.addingTimeInterval(Double(index)))
            }
            #expect(DurableFixture.perform(.save(large), on: store))
            store.close()
            let path = Crash.journalPath(directory)
            let journal = try Crash.bytes(path)
            let records = try Self.records(journal)
            let group = Array(records.dropFirst(2))  // authorization, first save, then the large save
            #expect(group.count >= 2, "a 2 MB save is more than one record")
            #expect(group.dropLast().allSatisfy(\.continues) && group.last?.continues == false)
            for record in group {
                #expect(record.next - record.offset - RecordFrame.headerSize <= RecordFrame.journalRecordSize + 512)
            }
            let start = group[0].offset
            // Cut at every record boundary of the group and inside each record: the save is dropped whole.
            var cuts = group.map(\.offset) + group.map { ($0.offset + $0.next) / 2 }
            cuts.append(journal.count - 1)
            for cut in cuts {
                try Crash.write(Array(journal[..<cut]), to: path)
                let reopened = try DurableFixture.open(directory)
                let live = Set(StateDump(reopened.image).locations.keys)
                #expect(live == [first.uuid], "cut at \(cut)")
                #expect(reopened.recovery.tornTail?.offset == (cut == start ? nil : start), "cut at \(cut)")
                reopened.close()
                #expect(try Crash.bytes(path) == Array(journal[..<start]))
            }
            try Crash.write(journal, to: path)
            let whole = try DurableFixture.open(directory)
            #expect(StateDump(whole.image).locations.count == 40_001)
            whole.close()
        }
    }

    @Test func oneDamagedRecordOfALargeSaveCostsOnlyThatRecordWhenRepairing() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            #expect(DurableFixture.perform(.authorize(share: [.stepCount], read: [.stepCount]), on: store))
            let large = try (0..<60_000).map { index in
                try StoreFixture.sample(start: Fixture.noon.addingTimeInterval(Double(index)))
            }
            #expect(DurableFixture.perform(.save(large), on: store))
            store.close()
            let path = Crash.journalPath(directory)
            var journal = try Crash.bytes(path)
            let group = Array(try Self.records(journal).dropFirst())
            #expect(group.count >= 3)
            let damaged = group[1]
            guard case .insert(let lost) = damaged.mutation else {
                Issue.record("the large save's records are inserts")
                return
            }
            journal[damaged.offset + RecordFrame.headerSize + 100] ^= 0x01
            try Crash.write(journal, to: path)
            #expect(
                throws: FileStoreError.corruptFile(
                    name: StoreLayout.journalName(0), offset: damaged.offset, problem: .payloadChecksumMismatch)
            ) { try DurableFixture.open(directory) }

            let repaired = try DurableFixture.open(directory, recovery: .repair)
            let live = Set(StateDump(repaired.image).locations.keys)
            #expect(live == Set(large.map(\.uuid)).subtracting(lost.map(\.uuid)))
            #expect(lost.count < large.count / 2, "one record of the save is lost, not the save")
            #expect(repaired.recovery.repairs.map(\.offset) == [damaged.offset])
            repaired.close()
        }
    }

    @Test func aDamagedSnapshotIsRepairedRecordByRecord() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            #expect(DurableFixture.perform(.authorize(share: [.stepCount], read: [.stepCount]), on: store))
            let samples = try (0..<20_000).map { index in
                try StoreFixture.sample(start: Fixture.noon.addingTimeInterval(Double(index)))
            }
            #expect(DurableFixture.perform(.save(samples), on: store))
            try store.snapshot()
            store.close()
            let path = directory.appendingPathComponent(StoreLayout.snapshotName(1)).path
            var snapshot = try Crash.bytes(path)
            #expect(snapshot.count > 2 * SnapshotWriter.recordSize, "the additions span several records")
            snapshot[snapshot.count / 2] ^= 0x08
            try Crash.write(snapshot, to: path)
            do throws(FileStoreError) {
                _ = try DurableFixture.open(directory)
                Issue.record("a damaged snapshot opened")
            } catch .corruptFile(let name, _, _) {
                #expect(name == StoreLayout.snapshotName(1))
            } catch {
                Issue.record("unexpected \(error)")
            }

            let repaired = try DurableFixture.open(directory, recovery: .repair)
            let dump = StateDump(repaired.image)
            let byUUID = Dictionary(uniqueKeysWithValues: samples.map { ($0.uuid, $0) })
            let kept = dump.sections.flatMap(\.entries)
            #expect(kept.allSatisfy { byUUID[$0.sample.uuid] == $0.sample }, "no sample is changed")
            let lost = samples.count - kept.count
            #expect(lost > 0 && lost < samples.count / 2, "lost \(lost)")
            #expect(repaired.recovery.repairs.reduce(0) { $0 + $1.samplesLost } == lost, "every lost sample is counted")
            #expect(
                Self.damagedFiles(in: directory) == [
                    repaired.recovery.movedAside[0].replacingOccurrences(of: "damaged/", with: "")
                ])
            repaired.close()
            let reopened = try DurableFixture.open(directory)
            #expect(StateDump(reopened.image) == dump)
            reopened.close()
        }
    }

    /// A snapshot cut short loses the section it cuts and every whole section after the cut; the repair counts them
    /// all (every change up to the header's sequence left one entry), at nine cuts through the file.
    @Test func aSnapshotCutShortCountsTheSamplesOfTheTypesAfterTheCutAsLost() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            let types: [HealthObjectType] = [.stepCount, .activeEnergyBurned, .distanceWalkingRunning]
            #expect(DurableFixture.perform(.authorize(share: Set(types), read: Set(types)), on: store))
            let units = ["count", "kcal", "m"]
            let perType = 600
            for (type, unit) in zip(types, units) {
                let samples = try (0..<perType).map { index in
                    try StoreFixture.sample(type, unit: unit, start: Fixture.noon.addingTimeInterval(Double(index)))
                }
                #expect(DurableFixture.perform(.save(samples), on: store))
            }
            try store.snapshot()
            store.close()
            let path = directory.appendingPathComponent(StoreLayout.snapshotName(1)).path
            let snapshot = try Crash.bytes(path)
            let journal = try Crash.bytes(Crash.journalPath(directory, 1))
            var keptAtSomeCut: Set<Int> = []
            for tenth in 1..<10 {
                // Put the cut file back each time: a repair moves it into damaged/.
                try Crash.write(Array(snapshot[..<(snapshot.count * tenth / 10)]), to: path)
                try Crash.write(journal, to: Crash.journalPath(directory, 1))
                let repaired = try DurableFixture.open(directory, recovery: .repair)
                let kept = StateDump(repaired.image).sections.flatMap(\.entries).count
                keptAtSomeCut.insert(kept)
                #expect(
                    repaired.recovery.repairs.reduce(0) { $0 + $1.samplesLost } == 3 * perType - kept,
                    "cut at \(tenth)/10: \(repaired.recovery.repairs)")
                repaired.close()
                try FileManager.default.removeItem(at: directory.appendingPathComponent(StoreLayout.damagedFolder))
                for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
                where name.hasPrefix("journal-") || name.hasPrefix("snapshot-") {
                    try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
                }
            }
            // A section's samples are one record: the cuts fall before the first, between, and in the last.
            #expect(keptAtSomeCut.isSuperset(of: [0, perType, 2 * perType]), "\(keptAtSomeCut)")
        }
    }

    /// A journal that starts past where the files before it end lost the changes numbered in between: the repair
    /// counts them.
    @Test func aJournalStartingPastTheFilesBeforeItCountsTheMissingChangesAsLost() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            #expect(DurableFixture.perform(.authorize(share: [.stepCount], read: [.stepCount]), on: store))
            let samples = try (0..<10).map {
                try StoreFixture.sample(start: Fixture.noon.addingTimeInterval(Double($0)))
            }
            #expect(DurableFixture.perform(.save(samples), on: store))
            store.close()
            let creator = JournalCreator(
                fileSystem: PosixFileSystem(), directory: FileSystemPath(directory),
                appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: store.storeID)
            try creator.create(generation: 1, startSequence: store.lastChangeSequence + 50).file.close()

            let repaired = try DurableFixture.open(directory, recovery: .repair)
            let gap = try #require(repaired.recovery.repairs.first { $0.file == StoreLayout.journalName(1) })
            #expect(gap.changesLost == 1)
            #expect(gap.samplesLost == 50)
            repaired.close()
        }
    }
}
