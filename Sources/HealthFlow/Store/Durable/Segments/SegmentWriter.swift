import Foundation

/// Writes one segment (``SegmentFormat``) from rows handed over in `(start, sequence)` order, a block at a time:
/// it holds one row block, the index of the blocks written, the Bloom filter and the two look-up columns (24 and
/// 16 bytes a row in memory, 20 and 12 on disk) until ``finish()`` sorts and writes them: a segment of n rows costs
/// about 41·n bytes while it is written.
///
/// The writer writes and flushes the file; naming it, renaming it into place and flushing the directory are
/// the caller's (a segment is made under a temporary name and becomes part of the store only once complete).
struct SegmentWriter {
    private let file: any StoreFile
    private let type: HealthObjectType
    private var offset: Int
    private var pending: [SegmentRow] = []
    private var rowBlocks: [SegmentRowBlock] = []
    private var uuids: [(uuid: UUIDKey, row: UInt32)] = []
    private var sequences: [(sequence: UInt64, row: UInt32)] = []
    private var bloom: BloomFilter
    private var rowCount = 0
    private var last: (start: Double, sequence: UInt64)?
    private var minimumSequence = UInt64.max
    private var maximumSequence: UInt64 = 0
    private var longestDuration = 0.0

    /// Why rows cannot be written.
    enum Refusal: Error, Equatable {
        /// A row is not of the segment's type.
        case wrongType
        /// A row does not come after the one before in `(start, sequence)` order.
        case outOfOrder
        /// A segment holds at most `UInt32.max` rows.
        case tooManyRows
    }

    /// A writer of a segment of `type` into `file` (empty, open for writing), sized for about `expectedRows`.
    init(file: any StoreFile, type: HealthObjectType, expectedRows: Int) throws(FileStoreError) {
        self.file = file
        self.type = type
        bloom = BloomFilter(expectedKeys: max(1, expectedRows))
        uuids.reserveCapacity(max(0, expectedRows))
        sequences.reserveCapacity(max(0, expectedRows))
        try file.write(SegmentFormat.magic, at: 0)
        offset = SegmentFormat.magic.count
    }

    /// Adds the next row.
    /// - Throws: ``Refusal`` for a row of another type or out of order (nothing is added), `FileStoreError`
    ///   when a block cannot be written.
    mutating func append(_ row: SegmentRow) throws(SegmentWriterFailure) {
        guard row.entry.sample.type == type else { throw .refused(.wrongType) }
        if let last, (last.start, last.sequence) >= (row.entry.start, row.entry.sequence) {
            throw .refused(.outOfOrder)
        }
        guard rowCount < Int(UInt32.max) else { throw .refused(.tooManyRows) }
        last = (row.entry.start, row.entry.sequence)
        let key = UUIDKey(row.entry.sample.uuid)
        uuids.append((key, UInt32(rowCount)))
        sequences.append((row.entry.sequence, UInt32(rowCount)))
        bloom.insert(key)
        minimumSequence = min(minimumSequence, row.entry.sequence)
        maximumSequence = max(maximumSequence, row.entry.sequence)
        longestDuration = max(longestDuration, row.entry.end - row.entry.start)
        rowCount += 1
        pending.append(row)
        if pending.count == SegmentFormat.rowsPerBlock {
            do { try writeRowBlock() } catch { throw .file(error) }
        }
    }

    /// Writes what is left, the look-up columns, the index and the footer, and flushes the file.
    /// - Returns: The number of bytes written.
    mutating func finish() throws(FileStoreError) -> Int {
        if !pending.isEmpty { try writeRowBlock() }
        uuids.sort { SegmentUUIDOrder($0.uuid) < SegmentUUIDOrder($1.uuid) }
        var uuidBlocks: [SegmentLookupBlock<UUIDKey>] = []
        for chunk in stride(from: 0, to: uuids.count, by: SegmentFormat.uuidEntriesPerBlock) {
            let entries = uuids[chunk..<min(uuids.count, chunk + SegmentFormat.uuidEntriesPerBlock)]
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entries.count * SegmentFormat.uuidEntrySize)
            for entry in entries {
                withUnsafeBytes(of: entry.uuid.uuid.uuid) { bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: entry.row.littleEndian) { bytes.append(contentsOf: $0) }
            }
            let extent = try writeBlock(bytes)
            uuidBlocks.append(
                SegmentLookupBlock(
                    extent: extent, firstKey: entries[entries.startIndex].uuid, entryCount: entries.count))
        }
        sequences.sort { $0.sequence < $1.sequence }
        var sequenceBlocks: [SegmentLookupBlock<UInt64>] = []
        for chunk in stride(from: 0, to: sequences.count, by: SegmentFormat.sequenceEntriesPerBlock) {
            let entries = sequences[chunk..<min(sequences.count, chunk + SegmentFormat.sequenceEntriesPerBlock)]
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entries.count * SegmentFormat.sequenceEntrySize)
            for entry in entries {
                withUnsafeBytes(of: entry.sequence.littleEndian) { bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: entry.row.littleEndian) { bytes.append(contentsOf: $0) }
            }
            let extent = try writeBlock(bytes)
            sequenceBlocks.append(
                SegmentLookupBlock(
                    extent: extent, firstKey: entries[entries.startIndex].sequence, entryCount: entries.count))
        }
        var index = BinaryWriter(capacity: 256 + 48 * (rowBlocks.count + uuidBlocks.count + sequenceBlocks.count))
        index.varint(SegmentFormat.version)
        index.string(type.identifier)
        index.count(rowCount)
        index.uint64(rowCount == 0 ? 0 : minimumSequence)
        index.uint64(maximumSequence)
        index.double(longestDuration)
        index.count(rowBlocks.count)
        for block in rowBlocks {
            Self.write(block.extent, into: &index)
            index.count(block.firstRow)
            index.count(block.rowCount)
            index.double(block.firstStart)
            index.uint64(block.firstSequence)
        }
        index.count(uuidBlocks.count)
        for block in uuidBlocks {
            Self.write(block.extent, into: &index)
            index.uuid(block.firstKey.uuid)
            index.count(block.entryCount)
        }
        index.count(sequenceBlocks.count)
        for block in sequenceBlocks {
            Self.write(block.extent, into: &index)
            index.uint64(block.firstKey)
            index.count(block.entryCount)
        }
        index.count(bloom.probes)
        index.count(bloom.words.count)
        for word in bloom.words { index.uint64(word) }
        let indexBytes = index.takeBytes()
        let indexExtent = try writeBlock(indexBytes)
        var footer: [UInt8] = []
        footer.reserveCapacity(SegmentFormat.footerSize)
        withUnsafeBytes(of: UInt64(indexExtent.offset).littleEndian) { footer.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(indexExtent.length).littleEndian) { footer.append(contentsOf: $0) }
        withUnsafeBytes(of: indexExtent.checksum.littleEndian) { footer.append(contentsOf: $0) }
        footer.append(contentsOf: [0, 0, 0, 0])
        footer.append(contentsOf: SegmentFormat.magic)
        try file.write(footer, at: offset)
        offset += footer.count
        try file.sync()
        return offset
    }

    private static func write(_ extent: SegmentBlockExtent, into writer: inout BinaryWriter) {
        writer.count(extent.offset)
        writer.count(extent.length)
        writer.varint(UInt64(extent.checksum))
    }

    private mutating func writeRowBlock() throws(FileStoreError) {
        var writer = BinaryWriter(capacity: 64 * 1024)
        writer.count(pending.count)
        for row in pending { writer.double(row.entry.start) }
        for row in pending { writer.double(row.entry.end) }
        for row in pending { writer.uint64(row.entry.sequence) }
        for row in pending {
            writer.byte(
                (row.entry.isOwned ? SegmentFormat.ownedFlag : 0)
                    | (row.correlation == nil ? 0 : SegmentFormat.correlatedFlag)
                    | (row.isDeletion ? SegmentFormat.deletionFlag : 0))
        }
        for row in pending { if let correlation = row.correlation { writer.uuid(correlation) } }
        for row in pending { SampleCodec.encode(row.entry.sample, into: &writer) }
        let extent = try writeBlock(writer.takeBytes())
        rowBlocks.append(
            SegmentRowBlock(
                extent: extent, firstRow: rowCount - pending.count, rowCount: pending.count,
                firstStart: pending[0].entry.start, firstSequence: pending[0].entry.sequence))
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func writeBlock(_ bytes: [UInt8]) throws(FileStoreError) -> SegmentBlockExtent {
        let extent = SegmentBlockExtent(offset: offset, length: bytes.count, checksum: CRC32.checksum(bytes))
        try file.write(bytes, at: offset)
        offset += bytes.count
        return extent
    }
}

/// Why ``SegmentWriter/append(_:)`` failed: a row it refuses, or a block it could not write.
enum SegmentWriterFailure: Error, Equatable {
    case refused(SegmentWriter.Refusal)
    case file(FileStoreError)
}
