import Foundation
import Testing

@testable import HealthFlow

/// A type's storage of memtable plus segments answers as a plain in-memory model does, through flushes,
/// compactions, reopenings, failures and crashes, and keeps only indexes and Bloom filters in memory.
@Suite struct SegmentedTypeStorageTests {
    @Test func randomChangesFlushesCompactionsAndReopeningsAnswerEveryQueryAsTheReferenceDoes() throws {
        try withDirectory { directory in
            let harness = try SegmentStorageHarness(
                directory: directory, limit: SegmentMemtableLimit(rows: 60, bytes: 1 << 20), seed: 42)
            var compactions = 0
            var laterRuns = 0
            var reopenings = 0
            try harness.runSteps(
                900,
                [
                    (45, { try harness.insert(Int.random(in: 1...8, using: &harness.generator)) }),
                    (7, { try harness.insert(0, reinserting: harness.uuids.randomElement(using: &harness.generator)) }),
                    (30, { try harness.deleteOne() }),
                    (9, { try harness.flush() }),
                    (
                        3,
                        {
                            let floor = UInt64.random(in: 0...harness.sequence, using: &harness.generator)
                            // Every segment, or a run of them: from the oldest, or a later one (which keeps
                            // deletions).
                            let count = harness.storage.segments.count
                            let kind = Int.random(in: 0..<3, using: &harness.generator)
                            var run: Range<Int>?
                            if kind > 0, count > 1 {
                                let lower = kind == 1 ? 0 : Int.random(in: 1..<count, using: &harness.generator)
                                run = lower..<Int.random(in: (lower + 1)...count, using: &harness.generator)
                            }
                            try harness.compact(run, keepingDeletionsAfter: floor)
                            compactions += 1
                            if let run, run.lowerBound > 0, floor > 0 { laterRuns += 1 }
                        }
                    ),
                    (
                        3,
                        {
                            try harness.reopen()
                            reopenings += 1
                        }
                    ),
                ])
            try harness.flush()
            try harness.expectSameAnswers("the end", queries: 12)
            try harness.reopen()
            try harness.expectSameAnswers("reopened at the end", queries: 12)
            #expect(compactions > 10)
            #expect(reopenings > 8)
            #expect(laterRuns > 2)
            #expect(harness.reference.liveCount > 100)
        }
    }

    @Test func aCompactionOfLaterSegmentsKeepsTheirDeletionsAndOneFromTheOldestDropsThem() throws {
        try withDirectory { directory in
            let harness = try SegmentStorageHarness(
                directory: directory, limit: SegmentMemtableLimit(rows: 1_000, bytes: 16 << 20), seed: 5)
            try harness.insert(20)
            try harness.flush()
            let deleted = harness.uuids[3]
            harness.sequence += 1
            #expect(try harness.storage.delete(deleted, sequence: harness.sequence) != nil)
            try harness.flush()
            try harness.insert(5)
            try harness.flush()
            #expect(harness.storage.segments.count == 3)

            // The deletion's segment and the next, merged: the deletion hides the sample in the oldest segment.
            let later = try harness.storage.compact(1..<3, keepingDeletionsAfter: .max)
            #expect(later.rowsWritten == 6)
            #expect(harness.storage.segments.map(\.name.first) == [1, 2])
            #expect(try harness.storage.row(withUUID: deleted) == nil)
            let changes = try harness.storage.changes(after: 0, limit: .max).changes
            #expect(
                changes.contains {
                    if case .deleted(let tombstone) = $0 { tombstone.object.uuid == deleted } else { false }
                })

            // Every segment, from the oldest: the deletion and the sample go.
            let all = try #require(try harness.storage.compact(keepingDeletionsAfter: .max))
            #expect(all.rowsRead == 26)
            #expect(all.rowsWritten == 24)
            #expect(try harness.storage.row(withUUID: deleted) == nil)
            #expect(try harness.storage.changes(after: 0, limit: .max).changes.count == 24)
            try harness.reopen()
            #expect(try harness.storage.row(withUUID: deleted) == nil)
        }
    }

    @Test func afterAFlushMemoryHoldsIndexesAndBloomFiltersNotSamples() throws {
        try withDirectory { directory in
            let harness = try SegmentStorageHarness(
                directory: directory, limit: SegmentMemtableLimit(rows: 1_000, bytes: 16 << 20), seed: 7)
            for _ in 0..<20 { try harness.insert(500) }
            try harness.flush()
            let storage = harness.storage
            #expect(storage.memtable.isEmpty)
            #expect(storage.segments.count == 10)
            let fileBytes = try storage.segments.reduce(0) { total, segment in
                total + (try directory.appending(segment.name.fileName).readContents().count)
            }
            // 10,000 rows: about 2 bytes a row of index and Bloom filter, against more than 40 on disk.
            #expect(storage.residentBytes < 10_000 * 3 + 10 * 1_024)
            #expect(storage.residentBytes * 15 < fileBytes)
            // Opening reads indexes and Bloom filters only.
            try harness.reopen()
            #expect(harness.storage.memtable.isEmpty)
            #expect(harness.storage.residentBytes == storage.residentBytes)
            try harness.compact(keepingDeletionsAfter: 0)
            #expect(harness.storage.segments.count == 1)
            #expect(harness.storage.residentBytes < 10_000 * 3 + 1_024)
            try harness.expectSameAnswers("compacted", queries: 2)
        }
    }

    @Test func aCompactionHoldsTheSameBoundedColumnMemoryAt10kAnd40kRows() throws {
        var peaks: [Int] = []
        for total in [10_000, 40_000] {
            try withDirectory { directory in
                let storage = try SegmentedTypeStorage(
                    type: .heartRate, directory: directory, fileSystem: PosixFileSystem(),
                    memtableLimit: SegmentMemtableLimit(rows: 5_000, bytes: 64 << 20), writerRunLength: 256)
                var uuids: [UUID] = []
                var generator = SeededGenerator(seed: UInt64(total))
                for chunk in 0..<(total / 5_000) {
                    // Starts out of sequence order, so the sequence column is sorted by the writer, not given.
                    let rows = try (0..<5_000).map { position in
                        let uuid = UUID.random(using: &generator)
                        uuids.append(uuid)
                        let start = Fixture.noon.addingTimeInterval(Double((position * 7_919) % 5_000))
                        return SegmentRow(
                            entry: IndexedSample(
                                sample: try StoreFixture.sample(
                                    .heartRate, 70, unit: "count/min", start: start, duration: 60, uuid: uuid),
                                sequence: UInt64(chunk * 5_000 + position + 1), isOwned: true),
                            correlation: nil)
                    }
                    try storage.insert(rows)
                }
                #expect(storage.segments.count == total / 5_000)
                let compaction = try #require(try storage.compact(keepingDeletionsAfter: 0))
                #expect(compaction.rowsWritten == total)
                peaks.append(compaction.peakColumnBytes)
                // The merged columns answer: UUIDs found, sequences in order.
                for uuid in uuids.enumerated() where uuid.offset % 97 == 0 {
                    #expect(try storage.row(withUUID: uuid.element)?.entry.sample.uuid == uuid.element)
                }
                let sequences = try storage.segments[0].reader.rowsInSequenceOrder(after: 0, limit: .max)
                #expect(sequences.map(\.sequence) == (1...UInt64(total)).map { $0 })
                #expect(try Self.names(in: directory) == [compaction.name.fileName])
            }
        }
        // 256 entries of each column (40 bytes a row) while filling; 40 and 157 runs, merged at most 32 at a time
        // with a chunk of 64 entries each: the same bound at either size, far below 40 bytes a row (400 KB and
        // 1.6 MB).
        #expect(peaks.allSatisfy { $0 <= 64 * 1_024 }, "\(peaks)")
        #expect(peaks[1] <= peaks[0] + 4 * 1_024, "\(peaks)")
    }

    @Test func aNarrowDateRangeReadsOnlyTheBlocksThatMayHoldIt() throws {
        try withDirectory { directory in
            let counting = CountingFileSystem()
            // 10,240 one-minute samples a minute apart, in ten segments of eight blocks.
            let storage = try Self.minuteSamples(in: directory, fileSystem: counting)
            #expect(storage.segments.count == 10)
            counting.reads = 0
            let lower = Fixture.noon.timeIntervalSinceReferenceDate + 5_000 * 60
            let found = try storage.rows(startingFrom: nil, below: lower + 3_600, endingAtOrAfter: lower)
            #expect(found.count == 61)  // starts from minute 4,999 (ending at 5,000) through 5,059
            // Of 80 row blocks: at most one key read per segment before the range, the two blocks holding it
            // (keys and rows), and the rare UUID block a Bloom filter's false positive costs.
            #expect(counting.reads <= 10 + 4 + 6, "\(counting.reads) reads")
        }
    }

    @Test func aBatchOfUUIDsGetsTheAnswersOfSingleLookUpsReadingEachBlockOnce() throws {
        try withDirectory { directory in
            let counting = CountingFileSystem()
            let storage = try Self.minuteSamples(in: directory, fileSystem: counting)
            let all = try storage.rows(startingFrom: nil, below: nil, endingAtOrAfter: nil)
            // The fourth segment's 1,024 samples (8 row blocks), 100 of them deleted (tombstones in the memtable),
            // one inserted again since, one from the last segment, and 50 UUIDs the storage never held.
            let chunk = all[3_072..<4_096].map(\.entry.sample.uuid)
            var sequence: UInt64 = 10_240
            for uuid in chunk.prefix(100) {
                sequence += 1
                #expect(try storage.delete(uuid, sequence: sequence) != nil)
            }
            sequence += 1
            let again = SegmentRow(
                entry: IndexedSample(sample: all[3_072].entry.sample, sequence: sequence, isOwned: true),
                correlation: nil)
            try storage.insert([again])
            let asked = chunk + [all[10_000].entry.sample.uuid] + (0..<50).map { _ in UUID() }

            counting.reads = 0
            let batch = try storage.rows(withUUIDs: asked)
            let batchReads = counting.reads
            let single = try asked.compactMap { try storage.row(withUUID: $0) }
            #expect(batch.count == 1_024 - 100 + 1 + 1)
            func versions(_ rows: [SegmentRow]) -> [String] {
                rows.map { "\($0.entry.sample.uuid) \($0.entry.sequence)" }.sorted()
            }
            #expect(versions(batch) == versions(single))
            #expect(batch.contains { $0.entry.sequence == sequence })
            // The segment's 8 row blocks and its UUID blocks (4 hold its 1,024 UUIDs), the last segment's two
            // blocks, and the UUID blocks Bloom filters' false positives cost in the other segments; one look-up at
            // a time reads a UUID block and a row block for each of the 925 samples found.
            #expect(batchReads <= 8 + 4 + 2 + 40, "\(batchReads) reads")
        }
    }

    @Test func cursorsReadBlocksOnlyAsTheyAdvance() throws {
        try withDirectory { directory in
            let counting = CountingFileSystem()
            let storage = try Self.minuteSamples(in: directory, fileSystem: counting)
            counting.reads = 0
            // The whole range: the first row costs one block's keys and rows per segment (and the UUID blocks
            // Bloom filter false positives cost the shadowing checks), a small part of what every row costs.
            var range = storage.rangeCursor(startingFrom: nil, below: nil, endingAtOrAfter: nil)
            #expect(try range.next() != nil)
            let firstRowReads = counting.reads
            var count = 1
            while try range.next() != nil { count += 1 }
            #expect(count == 10_240)
            #expect(firstRowReads * 4 < counting.reads, "\(firstRowReads) reads of \(counting.reads)")
            #expect(firstRowReads < 2 * 10 + 64, "\(firstRowReads) reads for the first row")

            // Every change: the first costs a sequence block and a row block per segment, and the shadowing checks
            // of those blocks' rows (a UUID block each that holds a newer version); the walk reads about 3.5 times
            // as much (177 reads against 50 with 14 Bloom bits a key, whose rarer false positives cost little).
            counting.reads = 0
            var changes = storage.changeCursor(after: 0)
            #expect(try changes.next()?.sequence == 1)
            let firstChangeReads = counting.reads
            var last: UInt64 = 1
            while let change = try changes.next() {
                #expect(change.sequence == last + 1)
                last = change.sequence
            }
            #expect(firstChangeReads * 3 < counting.reads, "\(firstChangeReads) reads of \(counting.reads)")
            #expect(firstChangeReads < 2 * 10 + 64, "\(firstChangeReads) reads for the first change")
            #expect(last == 10_240)
        }
    }

    @Test func anAnchoredQueryOverDataOutOfTimeOrderDecodesEachBlockOnce() throws {
        try withDirectory { directory in
            let counting = CountingFileSystem()
            let storage = try SegmentedTypeStorage(
                type: .heartRate, directory: directory, fileSystem: counting,
                memtableLimit: SegmentMemtableLimit(rows: 4_096, bytes: 16 << 20))
            // 4,096 samples whose starts are shuffled within windows of 1,024 (eight blocks): sequence order
            // jumps between the window's blocks at every row.
            var generator = SeededGenerator(seed: 51)
            var sequence: UInt64 = 0
            var rows: [SegmentRow] = []
            for window in 0..<4 {
                for position in (0..<1_024).shuffled(using: &generator) {
                    sequence += 1
                    let start = Fixture.noon.addingTimeInterval(Double(window * 1_024 + position) * 60)
                    rows.append(
                        SegmentRow(
                            entry: IndexedSample(
                                sample: try StoreFixture.sample(
                                    .heartRate, 70, unit: "count/min", start: start, duration: 60),
                                sequence: sequence, isOwned: true),
                            correlation: nil))
                }
            }
            try storage.insert(rows)
            #expect(storage.segments.count == 1 && storage.segments[0].reader.rowBlocks.count == 32)
            counting.reads = 0
            // Batches of 16 changes, as a query with a small limit reads them: 256 sequence column reads (and 8
            // more where a batch ends a sequence block, 1 for the end), and each of the 32 row blocks decoded once
            // (without a cache, about seven blocks a batch).
            var cursor = storage.changeCursor(after: 0, batch: 16)
            var count = 0
            while let change = try cursor.next() {
                count += 1
                #expect(change.sequence == UInt64(count))
            }
            #expect(count == 4_096)
            #expect(counting.reads <= 256 + 8 + 1 + 32, "\(counting.reads) reads")
        }
    }

    @Test func anAnchoredQueryIsExhaustedExactlyWhenItsLimitTakesTheLastChange() throws {
        try withDirectory { directory in
            let harness = try SegmentStorageHarness(
                directory: directory, limit: SegmentMemtableLimit(rows: 1_000, bytes: 16 << 20), seed: 31)
            try harness.insert(6)
            try harness.flush()
            try harness.insert(4)
            for limit in [9, 10, 11] {
                let (changes, exhausted) = try harness.storage.changes(after: 0, limit: limit)
                #expect(changes.count == min(limit, 10))
                #expect(exhausted == (limit >= 10), "limit \(limit)")
            }
            let none = try harness.storage.changes(after: 10, limit: 1)
            #expect(none.changes.isEmpty && none.exhausted)
        }
    }

    /// 10,240 one-minute heart-rate samples a minute apart, in ten segments of eight blocks, with sequences 1….
    static func minuteSamples(in directory: FileSystemPath, fileSystem: any StoreFileSystem) throws
        -> SegmentedTypeStorage
    {
        let storage = try SegmentedTypeStorage(
            type: .heartRate, directory: directory, fileSystem: fileSystem,
            memtableLimit: SegmentMemtableLimit(rows: 1_024, bytes: 16 << 20))
        var sequence: UInt64 = 0
        for chunk in 0..<10 {
            let rows = try (0..<1_024).map { position in
                sequence += 1
                let start = Fixture.noon.addingTimeInterval(Double(chunk * 1_024 + position) * 60)
                return SegmentRow(
                    entry: IndexedSample(
                        sample: try StoreFixture.sample(.heartRate, 70, unit: "count/min", start: start, duration: 60),
                        sequence: sequence, isOwned: true),
                    correlation: nil)
            }
            try storage.insert(rows)
        }
        return storage
    }

    @Test func aDeletedUUIDInsertedAgainReportsTheDeletionAndTheInsertionAsTheInMemoryStoreDoes() throws {
        try withDirectory { directory in
            let harness = try SegmentStorageHarness(
                directory: directory, limit: SegmentMemtableLimit(rows: 1_000, bytes: 16 << 20), seed: 41)
            try harness.insert(3)
            let uuid = harness.uuids[1]
            try harness.deleteOne(uuid)
            let deletion = harness.sequence
            try harness.insert(0, reinserting: uuid)
            let insertion = harness.sequence
            // Deleted again and inserted again: every deletion is reported, and the newest insertion.
            try harness.deleteOne(uuid)
            let secondDeletion = harness.sequence
            try harness.insert(0, reinserting: uuid)
            let secondInsertion = harness.sequence
            func changes(after anchor: UInt64) throws -> [String] {
                try harness.storage.changes(after: anchor, limit: .max).changes.compactMap { change in
                    switch change {
                    case .added(let row) where row.entry.sample.uuid == uuid: "added \(row.entry.sequence)"
                    case .deleted(let tombstone) where tombstone.object.uuid == uuid: "deleted \(tombstone.sequence)"
                    default: nil
                    }
                }
            }
            let expected = ["deleted \(deletion)", "deleted \(secondDeletion)", "added \(secondInsertion)"]
            #expect(try changes(after: 0) == expected, "in the memtable")
            #expect(try changes(after: deletion) == Array(expected.dropFirst()))
            try harness.flush()
            #expect(try changes(after: 0) == expected, "flushed")
            #expect(try harness.storage.row(withUUID: uuid)?.entry.sequence == secondInsertion)
            try harness.insert(2)
            try harness.flush()
            try harness.compact(keepingDeletionsAfter: 0)
            #expect(try changes(after: 0) == expected, "compacted")
            #expect(try harness.storage.row(withUUID: uuid)?.entry.sequence == secondInsertion)
            try harness.reopen()
            #expect(try changes(after: 0) == expected, "reopened")
            // A compaction's floor drops the deletions at or before it, shadowed or not.
            try harness.compact(keepingDeletionsAfter: deletion)
            #expect(try changes(after: 0) == Array(expected.dropFirst()), "compacted after the first deletion")
            #expect(deletion < insertion && insertion < secondDeletion)
            try harness.expectSameAnswers("the end", queries: 6)
        }
    }

    @Test func aFailedFlushAtAnyStepLosesNothingAndTheNextFlushWritesIt() throws {
        var step = 1
        var succeeded = false
        while !succeeded {
            try withDirectory { directory in
                let harness = try SegmentStorageHarness(
                    directory: directory, limit: SegmentMemtableLimit(rows: 10_000, bytes: 16 << 20), seed: 11)
                try harness.insert(150)
                try harness.flush()
                for _ in 0..<20 { try harness.deleteOne() }
                try harness.insert(150)
                let faulty = FaultyFileSystem(.fail(at: step, keeping: 7))
                try harness.reopenKeepingMemtable(fileSystem: faulty)
                do {
                    try harness.flush()
                    succeeded = faulty.steps.count < step
                } catch {
                    // Nothing lost: the memtable is kept unless the segment is in place.
                    try harness.expectSameAnswers("after failing at step \(step)")
                    try harness.flush()
                }
                try harness.expectSameAnswers("flushed after failing at step \(step)")
                #expect(try Self.names(in: directory).allSatisfy { !$0.hasSuffix(".tmp") }, "step \(step)")
                try harness.reopen()
                try harness.expectSameAnswers("reopened after failing at step \(step)")
            }
            step += 1
            #expect(step < 200)
            if step >= 200 { return }
        }
    }

    @Test func aCrashAtAnyStepOfAFlushLeavesEitherTheOldSegmentsOrTheNewOneNeverAHalfFile() throws {
        var step = 1
        var finished = false
        while !finished {
            try withDirectory { directory in
                let harness = try SegmentStorageHarness(
                    directory: directory, limit: SegmentMemtableLimit(rows: 10_000, bytes: 16 << 20), seed: 12)
                try harness.insert(150)
                try harness.flush()
                for _ in 0..<20 { try harness.deleteOne() }
                try harness.insert(150)
                var withoutMemtable = harness.reference
                withoutMemtable.reopened()
                var withMemtable = harness.reference
                withMemtable.flushed(into: 2)
                let faulty = FaultyFileSystem(.crash(at: step, keeping: 7))
                try harness.reopenKeepingMemtable(fileSystem: faulty)
                do {
                    try harness.flush()
                    finished = true
                } catch {}
                // A new process: the files as the crash left them.
                let reopened = try SegmentedTypeStorage(
                    type: .heartRate, directory: directory, fileSystem: PosixFileSystem(), memtableLimit: harness.limit)
                #expect(try Self.names(in: directory).allSatisfy { !$0.hasSuffix(".tmp") }, "step \(step)")
                harness.storage = reopened
                harness.reference = reopened.segments.count == 2 ? withMemtable : withoutMemtable
                #expect(reopened.segments.count == 1 || reopened.segments.count == 2, "step \(step)")
                try harness.expectSameAnswers("reopened after a crash at step \(step)", queries: 6)
            }
            step += 1
            if step >= 200 {
                Issue.record("the flush never finished")
                return
            }
        }
    }

    /// Row by row (deletions and new versions in the run), and by copying row blocks whole (rows in time order).
    @Test(arguments: [false, true])
    func aFailureOrCrashAtAnyStepOfACompactionLosesNothing(copyingBlocks: Bool) throws {
        for crashes in [false, true] {
            var step = 1
            var finished = false
            while !finished {
                try withDirectory { directory in
                    let harness = try SegmentStorageHarness(
                        directory: directory, limit: SegmentMemtableLimit(rows: 80, bytes: 16 << 20), seed: 13)
                    if copyingBlocks { harness.clock = SegmentStorageHarness.base }
                    for _ in 0..<6 {
                        try harness.insert(25)
                        guard !copyingBlocks else { continue }
                        for _ in 0..<8 { try harness.deleteOne() }
                        try harness.insert(0, reinserting: harness.uuids.randomElement(using: &harness.generator))
                    }
                    try harness.flush()
                    let segmentsBefore = harness.storage.segments.count
                    let faulty = FaultyFileSystem(crashes ? .crash(at: step, keeping: 7) : .fail(at: step, keeping: 7))
                    try harness.reopenKeepingMemtable(fileSystem: faulty)
                    do {
                        let compaction = try harness.compact(keepingDeletionsAfter: 0)
                        #expect(compaction?.copiedRowBlocks == copyingBlocks)
                        finished = faulty.steps.count < step
                    } catch {
                        if !crashes {
                            // Nothing lost, and the next compaction goes through.
                            try harness.expectSameAnswers("after a compaction failing at step \(step)")
                            try harness.compact(keepingDeletionsAfter: 0)
                        }
                    }
                    try harness.reopen()
                    let count = harness.storage.segments.count
                    #expect(count == 1 || count == segmentsBefore, "step \(step): \(count) segments")
                    try harness.expectSameAnswers("reopened after step \(step) (crash: \(crashes))", queries: 6)
                    let names = try Self.names(in: directory)
                    #expect(names.count == count && names.allSatisfy { $0.hasSuffix(".hfseg") }, "\(names)")
                }
                step += 1
                if step >= 300 {
                    Issue.record("the compaction never finished")
                    return
                }
            }
        }
    }

    @Test func damageFoundOnOpeningNamesTheFileAndOffsetAndRemovesNothing() throws {
        try withDirectory { directory in
            let harness = try SegmentStorageHarness(
                directory: directory, limit: SegmentMemtableLimit(rows: 500, bytes: 16 << 20), seed: 21)
            for _ in 0..<3 { try harness.insert(400) }
            try harness.flush()
            #expect(harness.storage.segments.count == 2)
            let name = harness.storage.segments[1].name.fileName
            let path = directory.appending(name)
            let original = try path.readContents()
            let before = try Self.names(in: directory)

            // The index (just before the 32-byte footer) damaged: opening fails, naming the file.
            var damaged = original
            damaged[original.count - 40] ^= 0x10
            try path.writeContents(damaged, mode: 0o600)
            #expect {
                _ = try SegmentedTypeStorage(type: .heartRate, directory: directory, fileSystem: PosixFileSystem())
            } throws: { error in
                guard case .corruptFile(name, _, _) = error as? FileStoreError else { return false }
                return true
            }
            #expect(try Self.names(in: directory) == before)
            #expect(try path.readContents() == damaged)

            // Cut short: truncated at its end.
            try path.writeContents(Array(original.dropLast(5)), mode: 0o600)
            #expect(throws: FileStoreError.corruptFile(name: name, offset: original.count - 5, problem: .truncated)) {
                _ = try SegmentedTypeStorage(type: .heartRate, directory: directory, fileSystem: PosixFileSystem())
            }
            #expect(try Self.names(in: directory) == before)

            // A row block damaged: opening reads no block, so it succeeds; the query that needs the block fails
            // with its offset, and the others answer.
            try path.writeContents(original, mode: 0o600)
            let block = harness.storage.segments[1].reader.rowBlocks[2]
            damaged = original
            damaged[block.extent.offset + block.extent.length / 2] ^= 0x01
            try path.writeContents(damaged, mode: 0o600)
            let storage = try SegmentedTypeStorage(
                type: .heartRate, directory: directory, fileSystem: PosixFileSystem())
            #expect(
                throws: FileStoreError.corruptFile(
                    name: name, offset: block.extent.offset, problem: .payloadChecksumMismatch)
            ) {
                _ = try storage.rows(startingFrom: nil, below: nil, endingAtOrAfter: nil)
            }
            #expect(try storage.row(withUUID: UUID()) == nil)
            #expect(throws: FileStoreError.self) { try storage.compact(keepingDeletionsAfter: 0) }
            #expect(try Self.names(in: directory) == before)
        }
    }

    @Test func openingTouchesOnlyNamesItGeneratesAndRefusesOverlappingSegments() throws {
        try withDirectory { directory in
            let harness = try SegmentStorageHarness(
                directory: directory, limit: SegmentMemtableLimit(rows: 100, bytes: 16 << 20), seed: 22)
            try harness.insert(250)
            try harness.flush()
            let segment = harness.storage.segments[0].name
            let contents = try directory.appending(segment.fileName).readContents()
            let strangers = [
                segment.fileName.uppercased(), segment.fileName + ".bak", "x" + segment.fileName,
                segment.fileName.replacingOccurrences(of: "-0000000000000001", with: "-+000000000000001"),
                SegmentName(type: .stepCount, first: 1, last: 1).fileName,
                SegmentName(type: .stepCount, first: 1, last: 1).temporaryFileName,
                ".healthflow-something.tmp", "segment-.hfseg",
            ]
            for stranger in strangers { try directory.appending(stranger).writeContents([1, 2, 3], mode: 0o600) }
            let leftover = SegmentName(type: .heartRate, first: 9, last: 9).temporaryFileName
            try directory.appending(leftover).writeContents(Array(contents.prefix(100)), mode: 0o600)
            let scratch = SegmentName(type: .heartRate, first: 9, last: 9).scratchFileName
            try directory.appending(scratch).writeContents([1, 2, 3], mode: 0o600)
            let reopened = try SegmentedTypeStorage(
                type: .heartRate, directory: directory, fileSystem: PosixFileSystem())
            #expect(reopened.removedOnOpening == [leftover, scratch].sorted())
            #expect(reopened.segments.map(\.name) == harness.storage.segments.map(\.name))
            for stranger in strangers { #expect(try directory.appending(stranger).readContents() == [1, 2, 3]) }

            // Names round-trip exactly; every other spelling is not a segment.
            #expect(SegmentName.classify(segment.fileName, for: .heartRate) == .segment(segment))
            #expect(SegmentName.classify(segment.temporaryFileName, for: .heartRate) == .temporary(segment))
            #expect(SegmentName.classify(segment.scratchFileName, for: .heartRate) == .temporary(segment))
            for stranger in strangers { #expect(SegmentName.classify(stranger, for: .heartRate) == .other) }
            for type in HealthObjectType.allTypes {
                let name = SegmentName(type: type, first: 5, last: 0x1_0000_0000)
                #expect(SegmentName.classify(name.fileName, for: type) == .segment(name))
            }

            // A segment whose numbers overlap another's without covering them is refused, naming it; nothing is
            // removed, not even the segment both would supersede.
            try directory.appending(SegmentName(type: .heartRate, first: 1, last: 2).fileName)
                .writeContents(contents, mode: 0o600)
            let overlapping = SegmentName(type: .heartRate, first: 2, last: 3)
            try directory.appending(overlapping.fileName).writeContents(contents, mode: 0o600)
            let before = try Self.names(in: directory)
            #expect(
                throws: FileStoreError.corruptFile(
                    name: overlapping.fileName, offset: 0,
                    problem: .inconsistent(
                        "its segment numbers overlap those of \(SegmentName(type: .heartRate, first: 1, last: 2).fileName)"
                    ))
            ) {
                _ = try SegmentedTypeStorage(type: .heartRate, directory: directory, fileSystem: PosixFileSystem())
            }
            #expect(try Self.names(in: directory) == before)
        }
    }

    static func names(in directory: FileSystemPath) throws -> [String] {
        try PosixFileSystem().contentsOfDirectory(at: directory).sorted()
    }

    private func withDirectory(_ body: (FileSystemPath) throws -> Void) throws {
        try DurableFixture.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try body(FileSystemPath(directory))
        }
    }
}

/// The real file system, counting the reads of files opened for reading.
private final class CountingFileSystem: StoreFileSystem, @unchecked Sendable {
    // Safe: one test uses it from one thread.
    var reads = 0
    private let real = PosixFileSystem()

    func makeDirectory(at path: FileSystemPath) throws(FileStoreError) { try real.makeDirectory(at: path) }
    func contentsOfDirectory(at path: FileSystemPath) throws(FileStoreError) -> [String] {
        try real.contentsOfDirectory(at: path)
    }
    func readFile(at path: FileSystemPath) throws(FileStoreError) -> [UInt8] { try real.readFile(at: path) }
    func createFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile { try real.createFile(at: path) }
    func openFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile { try real.openFile(at: path) }
    func openFileForReading(at path: FileSystemPath) throws(FileStoreError) -> any ReadableStoreFile {
        CountingFile(try real.openFileForReading(at: path), owner: self)
    }
    func rename(_ source: FileSystemPath, to destination: FileSystemPath) throws(FileStoreError) {
        try real.rename(source, to: destination)
    }
    func removeFile(at path: FileSystemPath) throws(FileStoreError) { try real.removeFile(at: path) }
    func syncDirectory(at path: FileSystemPath) throws(FileStoreError) { try real.syncDirectory(at: path) }
    func lockFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile { try real.lockFile(at: path) }
}

private final class CountingFile: ReadableStoreFile {
    private let file: any ReadableStoreFile
    private let owner: CountingFileSystem

    init(_ file: any ReadableStoreFile, owner: CountingFileSystem) {
        self.file = file
        self.owner = owner
    }

    func size() throws(FileStoreError) -> Int { try file.size() }
    func read(count: Int, at offset: Int) throws(FileStoreError) -> [UInt8] {
        owner.reads += 1
        return try file.read(count: count, at: offset)
    }
    func close() { file.close() }
}
