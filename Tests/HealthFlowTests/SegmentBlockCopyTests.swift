import Foundation
import Testing

@testable import HealthFlow

/// A merge that keeps every row in the order its segments hold them copies their row blocks whole and answers
/// every query as a row-by-row merge does; a run that needs more than that is merged row by row.
@Suite struct SegmentBlockCopyTests {
    @Test func segmentsWrittenInTimeOrderAreMergedByCopyingTheirBlocksAndAnswerAsBefore() throws {
        try withHarness(seed: 3) { harness, directory in
            // Row counts that leave part-filled blocks in the middle of the merged segment.
            for count in [150, 90, 200, 131] {
                try harness.insert(count)
                try harness.flush()
            }
            let blocks = harness.storage.segments.reduce(0) { $0 + $1.reader.rowBlocks.count }
            let compaction = try #require(try harness.compact(keepingDeletionsAfter: 0))
            #expect(compaction.copiedRowBlocks)
            #expect(compaction.rowsRead == 571 && compaction.rowsWritten == 571)
            #expect(harness.storage.segments.count == 1)
            // Copied, not cut again into blocks of 128: 2 + 1 + 2 + 2 blocks, where 571 rows cut anew make 5.
            #expect(harness.storage.segments[0].reader.rowBlocks.count == blocks && blocks == 7)
            try harness.expectSameAnswers("merged", queries: 12)
            try harness.reopen()
            try harness.expectSameAnswers("reopened", queries: 12)
            #expect(try SegmentedTypeStorageTests.names(in: directory).allSatisfy { $0.hasSuffix(".hfseg") })
        }
    }

    /// Each way a run can need a row-by-row merge: found before anything is written, or while the blocks are copied.
    enum RowByRowCase: CaseIterable {
        case deletion, newVersionOfAUUID, overlappingSegments, segmentEndingAfterTheNextStarts, notTheNewestSegments
    }

    @Test(arguments: RowByRowCase.allCases)
    func aRunThatAMergeWouldChangeIsMergedRowByRow(_ kind: RowByRowCase) throws {
        try withHarness(seed: 8) { harness, directory in
            try harness.insert(150)
            try harness.flush()
            var run: Range<Int>?
            switch kind {
            case .deletion:
                try harness.deleteOne(harness.uuids[7])
            case .newVersionOfAUUID:
                try harness.insert(0, reinserting: harness.uuids[7])
            case .overlappingSegments:
                harness.clock = SegmentStorageHarness.base + 30
            case .segmentEndingAfterTheNextStarts:
                // After the first row of the last block (row 128) and before the last row (149).
                harness.clock = SegmentStorageHarness.base + 140 * 60 + 30
            case .notTheNewestSegments:
                run = 0..<2
            }
            try harness.insert(60)
            try harness.flush()
            if kind == .notTheNewestSegments {
                try harness.insert(40)
                try harness.flush()
            }
            let compaction = try #require(try harness.compact(run, keepingDeletionsAfter: 0))
            #expect(!compaction.copiedRowBlocks)
            try harness.expectSameAnswers("merged row by row", queries: 12)
            #expect(try SegmentedTypeStorageTests.names(in: directory).allSatisfy { $0.hasSuffix(".hfseg") })
            try harness.reopen()
            try harness.expectSameAnswers("reopened", queries: 12)
        }
    }

    @Test func randomChangesInTimeOrderMergeByCopyingWhenTheyCanAndAnswerAsTheReference() throws {
        try withHarness(seed: 77, limit: SegmentMemtableLimit(rows: 70, bytes: 1 << 20)) { harness, _ in
            var copied = 0
            var rowByRow = 0
            try harness.runSteps(
                400,
                [
                    (50, { try harness.insert(Int.random(in: 1...12, using: &harness.generator)) }),
                    (3, { try harness.insert(0, reinserting: harness.uuids.randomElement(using: &harness.generator)) }),
                    (3, { try harness.deleteOne() }),
                    (16, { try harness.flush() }),
                    (
                        14,
                        {
                            // A run ending at the newest segment, as the store's merges are.
                            let count = harness.storage.segments.count
                            guard count > 1 else { return }
                            let lower = Int.random(in: 0..<(count - 1), using: &harness.generator)
                            if try harness.compact(lower..<count, keepingDeletionsAfter: 0)?.copiedRowBlocks == true {
                                copied += 1
                            } else {
                                rowByRow += 1
                            }
                        }
                    ),
                    (4, { try harness.reopen() }),
                ])
            try harness.flush()
            try harness.expectSameAnswers("the end", queries: 12)
            #expect(copied >= 4, "\(copied) merges copied blocks, \(rowByRow) went row by row")
            #expect(rowByRow >= 4, "\(copied) merges copied blocks, \(rowByRow) went row by row")
        }
    }

    @Test func aDamagedBlockStopsTheMergeNamingItsFileAndOffsetAndChangesNothing() throws {
        try withHarness(seed: 5) { harness, directory in
            for _ in 0..<2 {
                try harness.insert(200)
                try harness.flush()
            }
            let damaged = harness.storage.segments[0]
            let offset = damaged.reader.rowBlocks[1].extent.offset
            let path = directory.appending(damaged.name.fileName)
            let original = try path.readContents()
            var bytes = original
            bytes[offset + 30] ^= 0x40
            try path.writeContents(bytes, mode: 0o600)
            let before = try SegmentedTypeStorageTests.names(in: directory)

            #expect {
                try harness.compact(keepingDeletionsAfter: 0)
            } throws: { error in
                guard case .corruptFile(let name, let at, .payloadChecksumMismatch) = error as? FileStoreError else {
                    return false
                }
                return name == damaged.name.fileName && at == offset
            }
            #expect(try SegmentedTypeStorageTests.names(in: directory) == before)
            #expect(harness.storage.segments.count == 2)

            try path.writeContents(original, mode: 0o600)
            #expect(try harness.compact(keepingDeletionsAfter: 0)?.copiedRowBlocks == true)
            try harness.expectSameAnswers("merged once mended", queries: 8)
        }
    }

    @Test func aCopiedBlockMustFollowTheRowsBeforeItAndNameNoSeries() throws {
        try withHarness(seed: 9) { harness, directory in
            try harness.insert(200)
            try harness.flush()
            let reader = harness.storage.segments[0].reader
            let file = try PosixFileSystem().createFile(at: directory.appending("written"))
            defer { file.close() }
            var writer = try SegmentWriter(file: file, type: .heartRate, expectedRows: 200)
            try writer.appendStored(try reader.storedRowBlock(1))
            #expect(throws: SegmentWriterFailure.refused(.outOfOrder)) {
                try writer.appendStored(try reader.storedRowBlock(0))
            }
            let stored = try reader.storedRowBlock(1)
            let flags = stored.keys.flags.map { $0 | SegmentFormat.seriesFlag }
            let naming = SegmentStoredRowBlock(
                bytes: stored.bytes, checksum: stored.checksum,
                keys: SegmentReader.BlockKeys(
                    starts: stored.keys.starts.map { $0 + 86_400 }, ends: stored.keys.ends.map { $0 + 86_400 },
                    sequences: stored.keys.sequences.map { $0 + 1_000 }, flags: flags))
            #expect(throws: SegmentWriterFailure.refused(.wrongSeries)) { try writer.appendStored(naming) }
        }
    }

    private func withHarness(
        seed: UInt64, limit: SegmentMemtableLimit = SegmentMemtableLimit(rows: 1_000, bytes: 16 << 20),
        _ body: (SegmentStorageHarness, FileSystemPath) throws -> Void
    ) throws {
        try DurableFixture.withTemporaryDirectory { url in
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let directory = FileSystemPath(url)
            let harness = try SegmentStorageHarness(directory: directory, limit: limit, seed: seed)
            harness.clock = SegmentStorageHarness.base
            try body(harness, directory)
        }
    }
}
