import Foundation

/// Reads a segment (``SegmentFormat``) with `pread`: opening reads the footer and the index (the blocks' places,
/// the Bloom filter — about 2.5 bytes a row in all); every other read fetches one block and checks its CRC-32.
///
/// Damage is a `FileStoreError.corruptFile` naming the segment and the offset of what is damaged, whether found
/// on opening or on a later read; nothing is decoded from bytes whose checksum does not match. Not thread-safe:
/// the store reads a segment under its lock.
final class SegmentReader {
    let name: String
    let type: HealthObjectType
    let rowCount: Int
    /// The smallest and largest sequence of the segment's rows (both 0 when it has none).
    let sequences: ClosedRange<UInt64>
    /// The longest `end − start` of the segment's rows.
    let longestDuration: Double
    let rowBlocks: [SegmentRowBlock]
    private let uuidBlocks: [SegmentLookupBlock<UUIDKey>]
    private let sequenceBlocks: [SegmentLookupBlock<UInt64>]
    private let bloom: BloomFilter
    private let file: any ReadableStoreFile
    /// Where the blocks end (the index's offset): a series block named by a row lies before it.
    private let dataEnd: Int
    /// The kind of series the segment's rows may keep, `nil` for a type that keeps none.
    private let seriesKind: SeriesKind?

    /// The keys of a row block's rows, without their samples.
    struct BlockKeys {
        let starts: [Double]
        let ends: [Double]
        let sequences: [UInt64]
        let flags: [UInt8]
    }

    /// Opens the segment in `file`, whose name `name` errors report; the reader keeps the file open.
    init(file: any ReadableStoreFile, name: String) throws(FileStoreError) {
        self.file = file
        self.name = name
        let size = try file.size()
        let magic = SegmentFormat.magic
        guard size >= magic.count else {
            throw .corruptFile(name: name, offset: 0, problem: size == 0 ? .notAStoreFile : .truncated)
        }
        guard try file.read(count: magic.count, at: 0) == magic else {
            throw .corruptFile(name: name, offset: 0, problem: .notAStoreFile)
        }
        let footerOffset = size - SegmentFormat.footerSize
        guard footerOffset >= magic.count else { throw .corruptFile(name: name, offset: size, problem: .truncated) }
        let footer = try file.read(count: SegmentFormat.footerSize, at: footerOffset)
        guard Array(footer[24..<32]) == magic, footer[20..<24].allSatisfy({ $0 == 0 }) else {
            // A segment is complete only with its footer: the file ends where writing stopped.
            throw .corruptFile(name: name, offset: size, problem: .truncated)
        }
        let (indexOffset, indexLength, indexChecksum) = footer.withUnsafeBytes { bytes in
            (
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            )
        }
        guard indexOffset >= UInt64(magic.count), indexLength <= UInt64(footerOffset),
            indexOffset <= UInt64(footerOffset) - indexLength
        else {
            throw .corruptFile(
                name: name, offset: footerOffset, problem: .undecodable("the index lies outside the file"))
        }
        let index = try Self.block(
            SegmentBlockExtent(offset: Int(indexOffset), length: Int(indexLength), checksum: indexChecksum),
            of: file, name: name)
        do throws(BinaryReader.Failure) {
            var reader = BinaryReader(index, range: 0..<index.count)
            let version = try reader.varint()
            guard SegmentFormat.readableVersions.contains(version) else {
                throw BinaryReader.Failure(
                    reason: "the segment's format version \(version) is not one of \(SegmentFormat.readableVersions)")
            }
            let identifier = try reader.string()
            guard let type = HealthObjectType(identifier: identifier) else {
                throw BinaryReader.Failure(reason: "unknown type \"\(identifier)\"")
            }
            self.type = type
            seriesKind = SeriesKind(sampleType: type)
            rowCount = try reader.integer()
            let minimumSequence = try reader.uint64()
            let maximumSequence = try reader.uint64()
            guard minimumSequence <= maximumSequence else {
                throw BinaryReader.Failure(reason: "the sequence range is reversed")
            }
            sequences = minimumSequence...maximumSequence
            longestDuration = try reader.double()
            let dataEnd = Int(indexOffset)
            self.dataEnd = dataEnd
            var blocks: [SegmentRowBlock] = []
            for _ in 0..<(try reader.count(minimumSize: 20)) {
                let extent = try Self.extent(from: &reader, within: magic.count..<dataEnd)
                let firstRow = try reader.integer()
                let rows = try reader.integer()
                guard firstRow == (blocks.last.map { $0.firstRow + $0.rowCount } ?? 0), rows > 0 else {
                    throw BinaryReader.Failure(reason: "the row blocks do not follow each other")
                }
                blocks.append(
                    SegmentRowBlock(
                        extent: extent, firstRow: firstRow, rowCount: rows, firstStart: try reader.double(),
                        firstSequence: try reader.uint64()))
            }
            guard (blocks.last.map { $0.firstRow + $0.rowCount } ?? 0) == rowCount else {
                throw BinaryReader.Failure(reason: "the row blocks do not hold the segment's rows")
            }
            rowBlocks = blocks
            var uuidBlocks: [SegmentLookupBlock<UUIDKey>] = []
            var uuidEntries = 0
            for _ in 0..<(try reader.count(minimumSize: 20)) {
                let extent = try Self.extent(from: &reader, within: magic.count..<dataEnd)
                let first = UUIDKey(try reader.uuid())
                let entries = try reader.integer()
                guard entries > 0, extent.length == entries * SegmentFormat.uuidEntrySize else {
                    throw BinaryReader.Failure(reason: "a UUID block's length does not match its entries")
                }
                uuidEntries += entries
                uuidBlocks.append(SegmentLookupBlock(extent: extent, firstKey: first, entryCount: entries))
            }
            var sequenceBlocks: [SegmentLookupBlock<UInt64>] = []
            var sequenceEntries = 0
            for _ in 0..<(try reader.count(minimumSize: 12)) {
                let extent = try Self.extent(from: &reader, within: magic.count..<dataEnd)
                let first = try reader.uint64()
                let entries = try reader.integer()
                guard entries > 0, extent.length == entries * SegmentFormat.sequenceEntrySize else {
                    throw BinaryReader.Failure(reason: "a sequence block's length does not match its entries")
                }
                sequenceEntries += entries
                sequenceBlocks.append(SegmentLookupBlock(extent: extent, firstKey: first, entryCount: entries))
            }
            guard uuidEntries <= rowCount, sequenceEntries == rowCount else {
                throw BinaryReader.Failure(
                    reason: "the sequence column does not hold one entry a row, or the UUID column holds more")
            }
            self.uuidBlocks = uuidBlocks
            self.sequenceBlocks = sequenceBlocks
            let probes = try reader.integer()
            var words: [UInt64] = []
            let wordCount = try reader.count(minimumSize: 8)
            words.reserveCapacity(wordCount)
            for _ in 0..<wordCount { words.append(try reader.uint64()) }
            guard let bloom = BloomFilter(words: words, probes: probes) else {
                throw BinaryReader.Failure(reason: "the Bloom filter is malformed")
            }
            self.bloom = bloom
            try reader.expectEnd()
        } catch {
            throw .corruptFile(name: name, offset: Int(indexOffset), problem: .undecodable(error.reason))
        }
    }

    deinit { file.close() }

    /// The bytes this reader keeps in memory: its block index and Bloom filter, about 2.5 bytes a row in all (no
    /// sample is kept).
    var residentBytes: Int {
        rowBlocks.count * MemoryLayout<SegmentRowBlock>.stride
            + uuidBlocks.count * MemoryLayout<SegmentLookupBlock<UUIDKey>>.stride
            + sequenceBlocks.count * MemoryLayout<SegmentLookupBlock<UInt64>>.stride
            + bloom.words.count * MemoryLayout<UInt64>.stride
    }

    /// The number of the row holding the sample with `uuid`, or `nil` when the segment has none.
    /// - Complexity: O(1) for most absent UUIDs (the Bloom filter); otherwise one block read and two binary
    ///   searches.
    func row(of uuid: UUID) throws(FileStoreError) -> Int? {
        let key = UUIDKey(uuid)
        guard bloom.mayContain(key), let blockNumber = uuidBlockNumber(of: key) else { return nil }
        let block = uuidBlocks[blockNumber]
        return try row(of: key, in: block, bytes: try Self.block(block.extent, of: file, name: name))
    }

    /// The numbers of the rows holding the samples with `uuids` that the segment has, with their UUIDs, in UUID
    /// order.
    /// - Complexity: O(k log k) for k UUIDs the Bloom filter lets through; each UUID block that may hold one of
    ///   them is read once.
    func rows(of uuids: some Sequence<UUID>) throws(FileStoreError) -> [(uuid: UUID, row: Int)] {
        try rows(ofKeys: uuids.map(UUIDKey.init)).map { ($0.key.uuid, $0.row) }
    }

    /// ``rows(of:)`` for UUIDs as the store's indexes key them.
    func rows(ofKeys keys: [UUIDKey]) throws(FileStoreError) -> [(key: UUIDKey, row: Int)] {
        try rows(ofProbes: keys.map(BloomFilter.Probe.init))
    }

    /// ``rows(of:)`` for keys whose Bloom filter hashes are computed already (``BloomFilter/Probe``).
    func rows(ofProbes probes: [BloomFilter.Probe]) throws(FileStoreError) -> [(key: UUIDKey, row: Int)] {
        let candidates = probes.lazy.filter { self.bloom.mayContain($0) }.map(\.key)
            .sorted { SegmentUUIDOrder($0) < SegmentUUIDOrder($1) }
        var found: [(key: UUIDKey, row: Int)] = []
        var loaded: (number: Int, bytes: [UInt8])?
        for key in candidates {
            guard let blockNumber = uuidBlockNumber(of: key) else { continue }
            let block = uuidBlocks[blockNumber]
            if loaded?.number != blockNumber {
                loaded = (blockNumber, try Self.block(block.extent, of: file, name: name))
            }
            if let row = try row(of: key, in: block, bytes: loaded!.bytes) { found.append((key, row)) }
        }
        return found
    }

    /// The UUID block whose keys may include `key`.
    private func uuidBlockNumber(of key: UUIDKey) -> Int? {
        let order = SegmentUUIDOrder(key)
        let blockNumber = uuidBlocks.partitioningIndex { SegmentUUIDOrder($0.firstKey) > order } - 1
        return blockNumber >= 0 ? blockNumber : nil
    }

    /// The row `bytes`, UUID block `block`'s contents, name for `key`.
    private func row(
        of key: UUIDKey, in block: SegmentLookupBlock<UUIDKey>, bytes: [UInt8]
    ) throws(FileStoreError) -> Int? {
        let order = SegmentUUIDOrder(key)
        let found = bytes.withUnsafeBytes { buffer -> Int? in
            var low = 0
            var high = block.entryCount
            while low < high {
                let middle = (low + high) / 2
                let candidate = SegmentFormat.uuidEntry(in: buffer, at: middle * SegmentFormat.uuidEntrySize)
                if candidate.uuid == key { return Int(candidate.row) }
                if SegmentUUIDOrder(candidate.uuid) < order { low = middle + 1 } else { high = middle }
            }
            return nil
        }
        guard let found else { return nil }
        guard found < rowCount else {
            throw .corruptFile(
                name: name, offset: block.extent.offset,
                problem: .inconsistent("a UUID names a row the segment does not have"))
        }
        return found
    }

    /// The row holding the sample with `uuid`, or `nil` when the segment has none.
    func row(withUUID uuid: UUID) throws(FileStoreError) -> SegmentRow? {
        guard let number = try row(of: uuid) else { return nil }
        return try rows(holding: [(uuid, number)]).first
    }

    /// The rows `located` names, each checked to hold its UUID, in the order of their row numbers.
    /// - Parameter located: UUIDs with the numbers of their rows (``row(of:)``), in any order.
    /// - Complexity: each row block holding one of the rows is read and decoded once.
    func rows(holding located: [(uuid: UUID, row: Int)]) throws(FileStoreError) -> [SegmentRow] {
        var found: [SegmentRow] = []
        found.reserveCapacity(located.count)
        var decoded: (block: Int, rows: [SegmentRow])?
        for (uuid, number) in located.sorted(by: { $0.row < $1.row }) {
            precondition(number >= 0 && number < rowCount, "row \(number) is not in a segment of \(rowCount) rows")
            let block = rowBlocks.partitioningIndex { $0.firstRow > number } - 1
            if decoded?.block != block { decoded = (block, try rows(ofBlock: block)) }
            let row = decoded!.rows[number - rowBlocks[block].firstRow]
            guard row.entry.sample.uuid == uuid else {
                throw .corruptFile(
                    name: name, offset: rowBlocks[block].extent.offset,
                    problem: .inconsistent("the UUID column names a row holding another sample"))
            }
            found.append(row)
        }
        return found
    }

    /// Whether each of the rows `numbers` is a deletion, in the order given, read from the row blocks' keys
    /// (their samples are not decoded).
    /// - Complexity: each row block holding one of the rows is read once.
    func deletionFlags(ofRows numbers: [Int]) throws(FileStoreError) -> [Bool] {
        var flags = [Bool](repeating: false, count: numbers.count)
        var loaded: (block: Int, keys: BlockKeys)?
        for position in numbers.indices.sorted(by: { numbers[$0] < numbers[$1] }) {
            let number = numbers[position]
            precondition(number >= 0 && number < rowCount, "row \(number) is not in a segment of \(rowCount) rows")
            let block = rowBlocks.partitioningIndex { $0.firstRow > number } - 1
            if loaded?.block != block { loaded = (block, try keys(ofBlock: block)) }
            flags[position] = loaded!.keys.flags[number - rowBlocks[block].firstRow] & SegmentFormat.deletionFlag != 0
        }
        return flags
    }

    /// The row blocks that may hold rows starting in `lowerStart..<upperStart` (either bound may be absent).
    /// - Complexity: O(log b) for b blocks.
    func rowBlocks(startingFrom lowerStart: Double?, below upperStart: Double?) -> Range<Int> {
        // A block holds starts from its first start up to the next block's first start.
        let lower = lowerStart.map { bound in max(0, rowBlocks.partitioningIndex { $0.firstStart >= bound } - 1) } ?? 0
        let upper =
            upperStart.map { bound in rowBlocks.partitioningIndex { $0.firstStart >= bound } } ?? rowBlocks.count
        return lower..<max(lower, upper)
    }

    /// The keys of row block `number`'s rows.
    func keys(ofBlock number: Int) throws(FileStoreError) -> BlockKeys {
        try storedRowBlock(number).keys
    }

    /// Row block `number` as stored, its bytes checked against their checksum, with its rows' keys: a merge that
    /// keeps every row in order writes it unchanged (``SegmentWriter/appendStored(_:)``).
    func storedRowBlock(_ number: Int) throws(FileStoreError) -> SegmentStoredRowBlock {
        let block = rowBlocks[number]
        let bytes = try Self.block(block.extent, of: file, name: name)
        var reader = BinaryReader(bytes, range: 0..<bytes.count)
        let keys = try decoding(block) { () throws(BinaryReader.Failure) in try Self.keys(of: block, from: &reader) }
        return SegmentStoredRowBlock(bytes: bytes, checksum: block.extent.checksum, keys: keys)
    }

    /// Row block `number`'s rows with their samples.
    func rows(ofBlock number: Int) throws(FileStoreError) -> [SegmentRow] {
        var encoded = try encodedRows(ofBlock: number)
        return try decoding(rowBlocks[number]) { () throws(BinaryReader.Failure) in
            var decoder = SampleDecoder(trustsKnownQuantitySamples: true)
            var rows: [SegmentRow] = []
            rows.reserveCapacity(encoded.keys.count)
            for (keys, series) in zip(encoded.keys, encoded.series) {
                let sample = try decoder.sample(from: &encoded.samples)
                guard sample.type == type else {
                    throw BinaryReader.Failure(reason: "a row is not of the segment's type")
                }
                guard sample.startDate.timeIntervalSinceReferenceDate == keys.start,
                    sample.endDate.timeIntervalSinceReferenceDate == keys.end
                else { throw BinaryReader.Failure(reason: "a row's keys do not match its sample") }
                rows.append(
                    SegmentRow(
                        entry: IndexedSample(
                            sample: sample, start: keys.start, end: keys.end, sequence: keys.sequence,
                            isOwned: keys.flags & SegmentFormat.ownedFlag != 0),
                        correlation: keys.correlation, isDeletion: keys.isDeletion, series: series))
            }
            try encoded.samples.expectEnd()
            return rows
        }
    }

    /// Row block `number`'s keys, with a reader at its first sample: a merge copies the samples it keeps from
    /// there (``SampleTranscoder``), in row order, without decoding them; ``rows(ofBlock:)`` decodes them.
    func encodedRows(ofBlock number: Int) throws(FileStoreError) -> SegmentEncodedRows {
        let block = rowBlocks[number]
        let bytes = try Self.block(block.extent, of: file, name: name)
        var reader = BinaryReader(bytes, range: 0..<bytes.count)
        return try decoding(block) { () throws(BinaryReader.Failure) in
            let keys = try Self.keys(of: block, from: &reader)
            var rows: [SegmentRowKeys] = []
            rows.reserveCapacity(block.rowCount)
            for position in 0..<block.rowCount {
                let flags = keys.flags[position]
                rows.append(
                    SegmentRowKeys(
                        start: keys.starts[position], end: keys.ends[position], sequence: keys.sequences[position],
                        flags: flags, correlation: flags & SegmentFormat.correlatedFlag != 0 ? try reader.uuid() : nil))
            }
            var series: [SegmentRowSeries?] = []
            series.reserveCapacity(block.rowCount)
            for flag in keys.flags {
                guard flag & SegmentFormat.seriesFlag != 0 else {
                    series.append(nil)
                    continue
                }
                guard seriesKind != nil, flag & SegmentFormat.deletionFlag == 0 else {
                    throw BinaryReader.Failure(reason: "a row of a type that keeps no series, or a deletion, names one")
                }
                series.append(
                    .stored(self, try Self.extent(from: &reader, within: SegmentFormat.magic.count..<dataEnd)))
            }
            return SegmentEncodedRows(block: number, keys: rows, series: series, samples: reader)
        }
    }

    /// Copies the next sample of `rows` (a block of this segment) into `writer`, checking that it is of the
    /// segment's type and has its row's keys.
    /// - Throws: Damage: a sample whose form, type or dates are not its row's, or bytes after the last row.
    func copySample(of rows: inout SegmentEncodedRows, into writer: inout BinaryWriter) throws(FileStoreError) {
        try nextSample(of: &rows) { (reader: inout BinaryReader) throws(BinaryReader.Failure) in
            try SampleTranscoder.copy(from: &reader, into: &writer)
        }
    }

    /// Reads past the next sample of `rows` as ``copySample(of:into:)`` copies it (the samples after it may refer
    /// to its strings), keeping nothing.
    func passSample(of rows: inout SegmentEncodedRows) throws(FileStoreError) {
        var discarded = BinaryWriter()
        try copySample(of: &rows, into: &discarded)
    }

    private func nextSample(
        of rows: inout SegmentEncodedRows,
        _ copy: (inout BinaryReader) throws(BinaryReader.Failure) -> SampleTranscoder.Copied
    ) throws(FileStoreError) {
        try decoding(rowBlocks[rows.block]) { () throws(BinaryReader.Failure) in
            let keys = rows.keys[rows.next]
            let copied = try copy(&rows.samples)
            guard copied.typeIdentifier.map({ $0 == type.identifier }) ?? (copied.fixedType == type) else {
                throw BinaryReader.Failure(reason: "a row is not of the segment's type")
            }
            guard copied.start == keys.start, copied.end == keys.end else {
                throw BinaryReader.Failure(reason: "a row's keys do not match its sample")
            }
            rows.next += 1
            if rows.next == rows.keys.count { try rows.samples.expectEnd() }
        }
    }

    /// The series in the block at `extent` (named by one of this segment's rows), decoded as `kind`.
    /// - Throws: Damage: a checksum mismatch, or bytes that are not such a series.
    func series(at extent: SegmentBlockExtent, of kind: SeriesKind) throws(FileStoreError) -> HealthSampleSeries {
        let bytes = try seriesBytes(at: extent)
        do throws(BinaryReader.Failure) {
            var reader = BinaryReader(bytes, range: 0..<bytes.count)
            let series = try HealthSampleSeries.decode(kind, from: &reader)
            try reader.expectEnd()
            return series
        } catch {
            throw .corruptFile(name: name, offset: extent.offset, problem: .undecodable(error.reason))
        }
    }

    /// The bytes of the series block at `extent`, checked against their checksum.
    func seriesBytes(at extent: SegmentBlockExtent) throws(FileStoreError) -> [UInt8] {
        try Self.block(extent, of: file, name: name)
    }

    /// The segment's rows in sequence order after `sequence`, as `(sequence, row)`, at most `limit` of them.
    /// - Complexity: O(log b + m) for m entries, in blocks of 512.
    func rowsInSequenceOrder(after sequence: UInt64, limit: Int) throws(FileStoreError) -> [(
        sequence: UInt64, row: Int
    )] {
        var found: [(sequence: UInt64, row: Int)] = []
        var blockNumber = max(0, sequenceBlocks.partitioningIndex { $0.firstKey > sequence } - 1)
        while blockNumber < sequenceBlocks.count, found.count < limit {
            let block = sequenceBlocks[blockNumber]
            let bytes = try Self.block(block.extent, of: file, name: name)
            var previous: UInt64?
            for entry in 0..<block.entryCount where found.count < limit {
                let base = entry * SegmentFormat.sequenceEntrySize
                let (value, row) = bytes.withUnsafeBytes { buffer in
                    (
                        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: base, as: UInt64.self)),
                        Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: base + 8, as: UInt32.self)))
                    )
                }
                guard row < rowCount, previous.map({ $0 < value }) ?? true else {
                    throw .corruptFile(
                        name: name, offset: block.extent.offset,
                        problem: .inconsistent("the sequence column is out of order or names a missing row"))
                }
                previous = value
                if value > sequence { found.append((value, row)) }
            }
            blockNumber += 1
        }
        return found
    }

    /// Calls `body` with each UUID the segment's UUID column holds, block by block, each block read and checked
    /// against its checksum once.
    /// - Throws: Damage in a UUID block (`body` has seen the blocks before it), or the file system's error.
    func forEachKey(_ body: (UUIDKey) -> Void) throws(FileStoreError) {
        for block in uuidBlocks {
            // The index checked each block's length against its entries when the segment was opened.
            try Self.block(block.extent, of: file, name: name).withUnsafeBytes { buffer in
                for entry in 0..<block.entryCount {
                    body(SegmentFormat.uuidEntry(in: buffer, at: entry * SegmentFormat.uuidEntrySize).uuid)
                }
            }
        }
    }

    /// How many blocks the UUID column has.
    var uuidBlockCount: Int { uuidBlocks.count }

    /// UUID block `number`'s entries, `(uuid, row)` in the column's order, read and checked against its checksum.
    /// - Throws: Damage: a checksum mismatch, or an entry naming a row the segment does not have.
    func uuidEntries(ofBlock number: Int) throws(FileStoreError) -> [(uuid: UUIDKey, row: UInt32)] {
        let block = uuidBlocks[number]
        let entries = try Self.block(block.extent, of: file, name: name).withUnsafeBytes { buffer in
            (0..<block.entryCount).map { SegmentFormat.uuidEntry(in: buffer, at: $0 * SegmentFormat.uuidEntrySize) }
        }
        guard entries.allSatisfy({ Int($0.row) < rowCount }) else {
            throw .corruptFile(
                name: name, offset: block.extent.offset,
                problem: .inconsistent("a UUID names a row the segment does not have"))
        }
        return entries
    }

    /// Where the UUID blocks are, in index order.
    var uuidBlockExtents: [SegmentBlockExtent] { uuidBlocks.map(\.extent) }

    /// Reads every UUID and sequence block and checks it against its checksum: a repair's full check (queries read
    /// each as they need it).
    /// - Returns: Each damaged block's extent and problem, in index order.
    /// - Throws: The file system's error.
    func lookupBlockDamage() throws(FileStoreError) -> [(extent: SegmentBlockExtent, problem: FileStoreError.Damage)] {
        var damage: [(extent: SegmentBlockExtent, problem: FileStoreError.Damage)] = []
        for extent in uuidBlockExtents + sequenceBlocks.map(\.extent) {
            do {
                _ = try Self.block(extent, of: file, name: name)
            } catch {
                guard case .corruptFile(_, _, let problem) = error else { throw error }
                damage.append((extent, problem))
            }
        }
        return damage
    }

    private func decoding<Result>(
        _ block: SegmentRowBlock, _ body: () throws(BinaryReader.Failure) -> Result
    ) throws(FileStoreError) -> Result {
        do {
            return try body()
        } catch {
            throw .corruptFile(name: name, offset: block.extent.offset, problem: .undecodable(error.reason))
        }
    }

    private static func keys(of block: SegmentRowBlock, from reader: inout BinaryReader) throws(BinaryReader.Failure)
        -> BlockKeys
    {
        guard try reader.integer() == block.rowCount else {
            throw BinaryReader.Failure(reason: "a row block's count does not match the index")
        }
        var starts: [Double] = []
        var ends: [Double] = []
        var sequences: [UInt64] = []
        var flags: [UInt8] = []
        starts.reserveCapacity(block.rowCount)
        ends.reserveCapacity(block.rowCount)
        sequences.reserveCapacity(block.rowCount)
        flags.reserveCapacity(block.rowCount)
        for _ in 0..<block.rowCount { starts.append(try reader.double()) }
        for _ in 0..<block.rowCount { ends.append(try reader.double()) }
        for _ in 0..<block.rowCount { sequences.append(try reader.uint64()) }
        for _ in 0..<block.rowCount {
            let flag = try reader.byte()
            guard flag & ~SegmentFormat.knownFlags == 0 else {
                throw BinaryReader.Failure(reason: "a row has unknown flags")
            }
            flags.append(flag)
        }
        guard starts.first == block.firstStart, sequences.first == block.firstSequence else {
            throw BinaryReader.Failure(reason: "a row block's first row does not match the index")
        }
        return BlockKeys(starts: starts, ends: ends, sequences: sequences, flags: flags)
    }

    private static func extent(from reader: inout BinaryReader, within bounds: Range<Int>) throws(BinaryReader.Failure)
        -> SegmentBlockExtent
    {
        let offset = try reader.integer()
        let length = try reader.integer()
        guard let checksum = UInt32(exactly: try reader.varint()) else {
            throw BinaryReader.Failure(reason: "a checksum is out of range")
        }
        guard offset >= bounds.lowerBound, length <= bounds.upperBound - offset else {
            throw BinaryReader.Failure(reason: "a block lies outside the segment's data")
        }
        return SegmentBlockExtent(offset: offset, length: length, checksum: checksum)
    }

    /// A block's bytes, checked against their checksum.
    private static func block(_ extent: SegmentBlockExtent, of file: any ReadableStoreFile, name: String)
        throws(FileStoreError) -> [UInt8]
    {
        let bytes = try file.read(count: extent.length, at: extent.offset)
        guard CRC32.checksum(bytes) == extent.checksum else {
            throw .corruptFile(name: name, offset: extent.offset, problem: .payloadChecksumMismatch)
        }
        return bytes
    }
}

/// A row block as a segment stores it, with its rows' keys (``SegmentReader/storedRowBlock(_:)``).
struct SegmentStoredRowBlock {
    let bytes: [UInt8]
    /// The CRC-32 of `bytes`, as the segment's index gives it (the bytes were checked against it).
    let checksum: UInt32
    let keys: SegmentReader.BlockKeys
}

/// A row block read for copying: its rows' keys and series, and a reader at the next sample not yet copied
/// (``SegmentReader/copySample(of:into:)``).
struct SegmentEncodedRows {
    /// The block's number in its segment.
    let block: Int
    let keys: [SegmentRowKeys]
    let series: [SegmentRowSeries?]
    fileprivate(set) var samples: BinaryReader
    /// The row whose sample `samples` is at.
    fileprivate(set) var next = 0

    /// The UUID of the next row's sample, read where every kind of sample writes it (after its kind byte).
    /// - Throws: When the block ends there.
    func nextUUID() throws(BinaryReader.Failure) -> UUIDKey {
        var peek = samples
        _ = try peek.byte()
        return UUIDKey(try peek.uuid())
    }
}
