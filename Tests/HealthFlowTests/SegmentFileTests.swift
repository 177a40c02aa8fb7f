import Foundation
import Testing

@testable import HealthFlow

/// Segment files: every row, key and look-up read back as written, and every damage found where it is.
@Suite struct SegmentFileTests {
    /// `count` heart-rate rows, one a minute from noon, with metadata on every third; sequences are not in start
    /// order (every row's sequence is a fixed shuffle), and every fifth row is held by a correlation.
    static func rows(_ count: Int) throws -> [SegmentRow] {
        var generator = SeededGenerator(seed: 17)
        let sequences = (1...UInt64(count)).map { $0 * 3 }.shuffled(using: &generator)
        return try (0..<count).map { position in
            let start = Fixture.noon.addingTimeInterval(Double(position) * 60)
            let metadata: [MetadataKey: MetadataValue] =
                position % 3 == 0
                ? [MetadataKey(rawValue: "Zoë’s note"): .string("row \(position)"), .syncVersion: .number(1)] : [:]
            let sample = try StoreFixture.sample(
                .heartRate, Double(60 + position % 40), unit: "count/min", start: start,
                duration: Double(position % 7) * 10, metadata: metadata)
            return SegmentRow(
                entry: IndexedSample(sample: sample, sequence: sequences[position], isOwned: position % 2 == 0),
                correlation: position % 5 == 0 ? UUID() : nil)
        }
    }

    static func write(_ rows: [SegmentRow], type: HealthObjectType = .heartRate, to path: FileSystemPath) throws {
        let file = try PosixFileSystem().createFile(at: path)
        defer { file.close() }
        var writer = try SegmentWriter(file: file, type: type, expectedRows: rows.count)
        for row in rows { try writer.append(row) }
        _ = try writer.finish()
    }

    static func open(_ path: FileSystemPath) throws(FileStoreError) -> SegmentReader {
        try SegmentReader(file: try PosixFileSystem().openFileForReading(at: path), name: "segment-1")
    }

    /// Every row of every block, and every row looked up by UUID and by sequence: what a damaged file must fail.
    static func readEverything(_ reader: SegmentReader) throws(FileStoreError) -> [SegmentRow] {
        var all: [SegmentRow] = []
        for block in reader.rowBlocks.indices {
            _ = try reader.keys(ofBlock: block)
            all += try reader.rows(ofBlock: block)
        }
        for row in all {
            _ = try reader.row(of: row.entry.sample.uuid)
            if let series = row.series, let kind = SeriesKind(sampleType: reader.type) {
                _ = try series.series(of: kind)
            }
        }
        _ = try reader.rowsInSequenceOrder(after: 0, limit: .max)
        return all
    }

    /// `count` ECG rows, one a minute from noon, each with its voltages (every third without).
    static func electrocardiogramRows(_ count: Int) throws -> [SegmentRow] {
        try (0..<count).map { position in
            let recording = try SeriesKind.voltages.recording(hours: Double(position) / 60)
            return SegmentRow(
                entry: IndexedSample(sample: recording.sample, sequence: UInt64(position + 1), isOwned: false),
                correlation: nil, series: position % 3 == 2 ? nil : .held(recording.series))
        }
    }

    /// Rewrites the version in the index of the segment at `path` (and the index's checksum in the footer).
    static func setVersion(_ version: UInt8, ofSegmentAt path: FileSystemPath) throws {
        var bytes = try path.readContents()
        let footer = bytes.count - SegmentFormat.footerSize
        let (offset, length) = bytes.withUnsafeBytes {
            (
                Int(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: footer, as: UInt64.self))),
                Int(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: footer + 8, as: UInt64.self)))
            )
        }
        bytes[offset] = version
        let checksum = CRC32.checksum(bytes, in: offset..<(offset + length))
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange((footer + 16)..<(footer + 20), with: $0) }
        try path.writeContents(bytes, mode: 0o600)
    }

    @Test func aSegmentOfVersionOneReadsAsWrittenAndANewerVersionIsRefused() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(300)
            try Self.write(rows, to: path)
            try Self.setVersion(1, ofSegmentAt: path)
            let read = try Self.readEverything(try Self.open(path))
            #expect(read.count == rows.count)
            #expect(zip(read, rows.sorted { $0.entry.start < $1.entry.start }).allSatisfy(Self.same))
            try Self.setVersion(3, ofSegmentAt: path)
            #expect {
                try Self.open(path)
            } throws: { error in
                guard case FileStoreError.corruptFile("segment-1", _, .undecodable(let reason)) = error else {
                    return false
                }
                return reason.contains("version 3")
            }
        }
    }

    @Test func aSegmentGivesBackEachRowsSeriesAndASeriesItsTypeDoesNotKeepIsRefused() throws {
        try withSegmentPath { path in
            let rows = try Self.electrocardiogramRows(300)
            try Self.write(rows, type: .electrocardiogram, to: path)
            let reader = try Self.open(path)
            let read = try Self.readEverything(reader)
            #expect(read.count == rows.count)
            for (got, written) in zip(read, rows) {
                #expect(Self.same(got, written))
                #expect(try got.series?.series(of: .voltages) == written.series?.series(of: .voltages))
            }

            let file = try PosixFileSystem().createFile(at: path)
            defer { file.close() }
            var writer = try SegmentWriter(file: file, type: .heartRate, expectedRows: 1)
            let heartRate = try Self.rows(1)[0]
            let withVoltages = SegmentRow(entry: heartRate.entry, correlation: nil, series: rows[0].series)
            #expect(throws: SegmentWriterFailure.refused(.wrongSeries)) { try writer.append(withVoltages) }
            var ecgWriter = try SegmentWriter(file: file, type: .electrocardiogram, expectedRows: 1)
            let withRoutes = SegmentRow(entry: rows[0].entry, correlation: nil, series: .held(SeriesKind.routes.none))
            #expect(throws: SegmentWriterFailure.refused(.wrongSeries)) { try ecgWriter.append(withRoutes) }
        }
    }

    static func same(_ left: SegmentRow, _ right: SegmentRow) -> Bool {
        left.entry.sample == right.entry.sample && left.entry.start == right.entry.start
            && left.entry.end == right.entry.end && left.entry.sequence == right.entry.sequence
            && left.entry.isOwned == right.entry.isOwned && left.correlation == right.correlation
    }

    @Test func aSegmentGivesBackEveryRowWithItsKeysSampleOwnerAndCorrelation() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(1_000)
            try Self.write(rows, to: path)
            let reader = try Self.open(path)
            #expect(reader.type == .heartRate)
            #expect(reader.rowCount == 1_000)
            #expect(reader.sequences == 3...3_000)
            #expect(reader.longestDuration == 60)
            #expect(reader.rowBlocks.count == 8)  // 1,000 rows in blocks of 128
            let read = try Self.readEverything(reader)
            #expect(read.count == rows.count)
            #expect(zip(read, rows).allSatisfy(Self.same))
            let keys = try reader.keys(ofBlock: 7)
            #expect(keys.starts == rows[896...].map(\.entry.start))
            #expect(keys.sequences == rows[896...].map(\.entry.sequence))
        }
    }

    @Test func everyUUIDIsFoundAtItsRowAndNoOtherUUIDIs() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(3_000)
            try Self.write(rows, to: path)
            let reader = try Self.open(path)
            for (number, row) in rows.enumerated() {
                #expect(try reader.row(of: row.entry.sample.uuid) == number)
            }
            for _ in 0..<3_000 { #expect(try reader.row(of: UUID()) == nil) }
            #expect(try reader.row(withUUID: rows[2_999].entry.sample.uuid).map { Self.same($0, rows[2_999]) } == true)
        }
    }

    @Test func aSegmentWrittenThroughSpilledRunsIsByteForByteTheOneSortedInMemory() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(3_000)
            try Self.write(rows, to: path)
            let inMemory = try path.readContents()
            // Runs of 10 rows: 300 runs, merged 32 at a time in several passes.
            let spilled = FileSystemPath(path.description + "-spilled")
            let scratchPath = FileSystemPath(path.description + "-scratch")
            let fileSystem = PosixFileSystem()
            let file = try fileSystem.createFile(at: spilled)
            defer { file.close() }
            var writer = try SegmentWriter(
                file: file, type: .heartRate, expectedRows: rows.count,
                scratch: SegmentScratch(
                    create: { () throws(FileStoreError) in try fileSystem.createFile(at: scratchPath) },
                    openForReading: { () throws(FileStoreError) in try fileSystem.openFileForReading(at: scratchPath) }
                ),
                runLength: 10)
            for row in rows { try writer.append(row) }
            _ = try writer.finish()
            #expect(try spilled.readContents() == inMemory)
            #expect(writer.peakColumnBytes < 32 * SegmentWriter.mergeChunkEntries * 24 + 4_096)
            // 3,000 entries of each column (20 + 12 bytes) written once as runs, then 9 passes (300 runs, 31 fewer
            // a pass, down to 21) each write 320 entries again.
            #expect(try scratchPath.readContents().count == 3_000 * 32 + 9 * 320 * 32)
        }
    }

    @Test func theBlocksForADateRangeHoldEveryRowStartingInIt() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(1_000)
            try Self.write(rows, to: path)
            let reader = try Self.open(path)
            let base = Fixture.noon.timeIntervalSinceReferenceDate
            var generator = SeededGenerator(seed: 5)
            for _ in 0..<200 {
                let lower = base + Double(Int.random(in: -10...1_010, using: &generator)) * 60 + 30
                let upper = lower + Double(Int.random(in: 0...300, using: &generator)) * 60
                let bounds: (Double?, Double?) = [(lower, upper), (nil, upper), (lower, nil)].randomElement(
                    using: &generator)!
                var found: [UInt64] = []
                for block in reader.rowBlocks(startingFrom: bounds.0, below: bounds.1) {
                    let keys = try reader.keys(ofBlock: block)
                    for (start, sequence) in zip(keys.starts, keys.sequences)
                    where start >= (bounds.0 ?? -.infinity) && start < (bounds.1 ?? .infinity) {
                        found.append(sequence)
                    }
                }
                let expected = rows.filter {
                    $0.entry.start >= (bounds.0 ?? -.infinity) && $0.entry.start < (bounds.1 ?? .infinity)
                }
                #expect(found == expected.map(\.entry.sequence))
            }
        }
    }

    @Test func rowsComeInSequenceOrderAfterAnyAnchorUpToTheLimit() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(1_500)
            try Self.write(rows, to: path)
            let reader = try Self.open(path)
            let bySequence = rows.indices.sorted { rows[$0].entry.sequence < rows[$1].entry.sequence }
            for anchor: UInt64 in [0, 1, 3, 1_536, 1_537, 4_499, 4_500] {
                let expected = bySequence.filter { rows[$0].entry.sequence > anchor }
                let found = try reader.rowsInSequenceOrder(after: anchor, limit: .max)
                #expect(found.map(\.row) == expected)
                #expect(found.map(\.sequence) == expected.map { rows[$0].entry.sequence })
                #expect(
                    try reader.rowsInSequenceOrder(after: anchor, limit: 600).map(\.row) == Array(expected.prefix(600)))
            }
        }
    }

    @Test func anEmptySegmentReadsAsEmpty() throws {
        try withSegmentPath { path in
            try Self.write([], to: path)
            let reader = try Self.open(path)
            #expect(reader.rowCount == 0)
            #expect(reader.rowBlocks.isEmpty)
            #expect(try reader.row(of: UUID()) == nil)
            #expect(try reader.rowsInSequenceOrder(after: 0, limit: .max).isEmpty)
        }
    }

    @Test func aRowOfAnotherTypeOrOutOfOrderIsRefusedAndNotWritten() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(3)
            let file = try PosixFileSystem().createFile(at: path)
            defer { file.close() }
            var writer = try SegmentWriter(file: file, type: .heartRate, expectedRows: 3)
            try writer.append(rows[1])
            #expect(throws: SegmentWriterFailure.refused(.outOfOrder)) { try writer.append(rows[0]) }
            #expect(throws: SegmentWriterFailure.refused(.outOfOrder)) { try writer.append(rows[1]) }
            let steps = SegmentRow(
                entry: IndexedSample(
                    sample: try StoreFixture.sample(.stepCount, start: Fixture.oneHourLater), sequence: 99,
                    isOwned: true),
                correlation: nil)
            #expect(throws: SegmentWriterFailure.refused(.wrongType)) { try writer.append(steps) }
            try writer.append(rows[2])
            _ = try writer.finish()
            let read = try Self.readEverything(try Self.open(path))
            #expect(read.count == 2)
            #expect(Self.same(read[0], rows[1]) && Self.same(read[1], rows[2]))
        }
    }

    /// Every byte of a small segment flipped in turn (a stride through it, bounded) — heart rates, and ECGs whose
    /// voltages lie in series blocks: opening or reading it all (every series included) throws `corruptFile` naming
    /// the segment; none decodes into rows that differ from those written.
    @Test(arguments: [HealthObjectType.heartRate, .electrocardiogram])
    func everyFlippedByteIsFoundAsDamageNeverReadAsOtherRows(_ type: HealthObjectType) throws {
        try withSegmentPath { path in
            let rows = try type == .heartRate ? Self.rows(300) : Self.electrocardiogramRows(60)
            try Self.write(rows, type: type, to: path)
            let original = try path.readContents()
            var detected = 0
            for offset in stride(from: 0, to: original.count, by: 11) {
                var damaged = original
                damaged[offset] ^= 0x5A
                try path.writeContents(damaged, mode: 0o600)
                do {
                    let read = try Self.readEverything(try Self.open(path))
                    Issue.record("byte \(offset) of \(original.count) flipped, yet \(read.count) rows were read")
                } catch {
                    guard let error = error as? FileStoreError, case .corruptFile(let name, let at, _) = error else {
                        Issue.record("byte \(offset): \(error)")
                        continue
                    }
                    #expect(name == "segment-1")
                    #expect(at >= 0 && at <= original.count)
                    detected += 1
                }
            }
            #expect(detected == (original.count + 10) / 11)
        }
    }

    @Test func aSegmentCutShortIsReportedTruncatedOrUnreadableAtEveryLength() throws {
        try withSegmentPath { path in
            try Self.write(try Self.rows(300), to: path)
            let original = try path.readContents()
            for length in stride(from: 0, to: original.count, by: 13) {
                try path.writeContents(Array(original[..<length]), mode: 0o600)
                #expect(throws: FileStoreError.self) { _ = try Self.readEverything(try Self.open(path)) }
            }
            try path.writeContents(Array(original[..<(original.count - 1)]), mode: 0o600)
            #expect(
                throws: FileStoreError.corruptFile(name: "segment-1", offset: original.count - 1, problem: .truncated)
            ) {
                _ = try Self.open(path)
            }
            try path.writeContents([], mode: 0o600)
            #expect(throws: FileStoreError.corruptFile(name: "segment-1", offset: 0, problem: .notAStoreFile)) {
                _ = try Self.open(path)
            }
        }
    }

    @Test func aDamagedRowBlockFailsOnlyTheReadsThatNeedItWithItsOffset() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(1_000)
            try Self.write(rows, to: path)
            let reader0 = try Self.open(path)
            let damagedBlock = reader0.rowBlocks[3]
            var bytes = try path.readContents()
            bytes[damagedBlock.extent.offset + damagedBlock.extent.length / 2] ^= 1
            try path.writeContents(bytes, mode: 0o600)
            let reader = try Self.open(path)
            #expect(try reader.rows(ofBlock: 2).count == 128)
            #expect(
                throws: FileStoreError.corruptFile(
                    name: "segment-1", offset: damagedBlock.extent.offset, problem: .payloadChecksumMismatch)
            ) {
                _ = try reader.rows(ofBlock: 3)
            }
            #expect(throws: FileStoreError.self) { _ = try reader.row(withUUID: rows[3 * 128 + 5].entry.sample.uuid) }
            #expect(try reader.row(withUUID: rows[5].entry.sample.uuid).map { Self.same($0, rows[5]) } == true)
        }
    }

    @Test func aFailedWriteIsReportedAndNoSegmentReadsFromWhatIsLeft() throws {
        try withSegmentPath { path in
            let rows = try Self.rows(500)
            for step in 1...6 {
                let fileSystem = FaultyFileSystem(.fail(at: step + 1, keeping: 10))
                let file = try fileSystem.createFile(at: path)
                var failed = false
                do {
                    var writer = try SegmentWriter(file: file, type: .heartRate, expectedRows: rows.count)
                    for row in rows { try writer.append(row) }
                    _ = try writer.finish()
                } catch {
                    failed = true
                }
                file.close()
                #expect(failed, "step \(step)")
                #expect(throws: FileStoreError.self) { _ = try Self.readEverything(try Self.open(path)) }
            }
        }
    }

    @Test func theBloomFilterNeverMissesAKeyAndRarelyClaimsAnAbsentOne() {
        var filter = BloomFilter(expectedKeys: 10_000)
        var generator = SeededGenerator(seed: 3)
        let keys = (0..<10_000).map { _ in UUIDKey(UUID.random(using: &generator)) }
        for key in keys { filter.insert(key) }
        #expect(keys.allSatisfy(filter.mayContain))
        let falsePositives = (0..<10_000).count { _ in filter.mayContain(UUIDKey(UUID.random(using: &generator))) }
        #expect(falsePositives < 50)  // about 0.12 % expected at 14 bits a key
        // The older segments' 10 bits a key: about 0.8 %.
        var older = BloomFilter(expectedKeys: 10_000, bitsPerKey: 10)
        for key in keys { older.insert(key) }
        #expect(keys.allSatisfy(older.mayContain))
        #expect((0..<10_000).count { _ in older.mayContain(UUIDKey(UUID.random(using: &generator))) } < 300)
        // Sequential UUIDs (a test's, a generator's) spread as well as random ones.
        var sequential = BloomFilter(expectedKeys: 10_000)
        for number in 0..<10_000 { sequential.insert(UUIDKey(high: 0, low: UInt64(number))) }
        let sequentialFalse = (10_000..<20_000).count { sequential.mayContain(UUIDKey(high: 0, low: UInt64($0))) }
        #expect(sequentialFalse < 50)
    }

    private func withSegmentPath(_ body: (FileSystemPath) throws -> Void) throws {
        try DurableFixture.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try body(FileSystemPath(directory.appendingPathComponent("segment-1").path))
        }
    }
}
