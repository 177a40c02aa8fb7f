import Foundation

/// Writes one segment (``SegmentFormat``) from rows handed over in `(start, sequence)` order, a block at a time.
///
/// Memory is bounded whatever the row count: the writer holds one row block, the index of the blocks written, the
/// Bloom filter, and at most `runLength` entries of each look-up column (24 and 16 bytes a row in memory). When a
/// column passes `runLength` entries, both are sorted and spilled as a run to the scratch file; ``finish()`` then
/// merges the runs (``SegmentRunMerge``: at most ``mergeFanIn`` runs at once, a chunk of ``mergeChunkEntries``
/// entries each in memory; more runs take more passes over the scratch file) into the segment's UUID and
/// sequence blocks. Peak column memory is O(runLength + fan-in · chunk) — about 2.6 MB by default — and the
/// scratch file's size O(n · passes) for n rows. Without a scratch file every entry stays in memory (about 40
/// bytes a row).
///
/// The writer writes and flushes the file; naming it, renaming it into place, flushing the directory and removing
/// the scratch file are the caller's (a segment is made under a temporary name and becomes part of the store only
/// once complete).
struct SegmentWriter {
    /// Look-up column entries held before a spill when none is given: 65,536 (about 2.6 MB).
    static let standardRunLength = 65_536
    /// Entries of a spilled run read at a time while merging.
    static let mergeChunkEntries = 64
    /// Runs merged at once; more are merged in passes, so merging holds at most this many chunks.
    static let mergeFanIn = 32

    private let file: any StoreFile
    private let type: HealthObjectType
    private var offset: Int
    /// The keys of the rows of the row block being gathered.
    private var pending: [SegmentRowKeys] = []
    /// Where the series of each pending row was written, if it keeps one.
    private var pendingSeries: [SegmentBlockExtent?] = []
    /// The pending rows' samples, encoded as each row is appended (one string table for the block).
    private var pendingSamples = BinaryWriter(capacity: 64 * 1024)
    /// The kind of series the segment's rows may keep.
    private let seriesKind: SeriesKind?
    private var rowBlocks: [SegmentRowBlock] = []
    private var uuids: [(uuid: UUIDKey, row: UInt32)] = []
    private var sequences: [(sequence: UInt64, row: UInt32)] = []
    private let runLength: Int
    private let scratch: SegmentScratch?
    private var scratchFile: (any StoreFile)?
    private var scratchOffset = 0
    private var uuidRuns: [SegmentSpilledRun] = []
    private var sequenceRuns: [SegmentSpilledRun] = []
    private var bloom: BloomFilter
    private var rowCount = 0
    private var last: (start: Double, sequence: UInt64)?
    private var minimumSequence = UInt64.max
    private var maximumSequence: UInt64 = 0
    private var longestDuration = 0.0
    /// The most bytes of look-up column entries (held or being merged) at any time, as the writer counts them.
    private(set) var peakColumnBytes = 0

    /// Why rows cannot be written.
    enum Refusal: Error, Equatable {
        /// A row is not of the segment's type.
        case wrongType
        /// A row does not come after the one before in `(start, sequence)` order.
        case outOfOrder
        /// A segment holds at most `UInt32.max` rows.
        case tooManyRows
        /// A row keeps a series of another kind than its type's (or its type keeps none).
        case wrongSeries
    }

    /// A writer of a segment of `type` into `file` (empty, open for writing), sized for about `expectedRows`,
    /// spilling its look-up columns to `scratch` every `runLength` rows (at least 1) when one is given.
    init(
        file: any StoreFile, type: HealthObjectType, expectedRows: Int, scratch: SegmentScratch? = nil,
        runLength: Int = standardRunLength
    ) throws(FileStoreError) {
        self.file = file
        self.type = type
        self.scratch = scratch
        self.runLength = max(1, runLength)
        seriesKind = SeriesKind(sampleType: type)
        bloom = BloomFilter(expectedKeys: max(1, expectedRows))
        let held = scratch == nil ? max(0, expectedRows) : min(max(0, expectedRows), self.runLength)
        uuids.reserveCapacity(held)
        sequences.reserveCapacity(held)
        try file.write(SegmentFormat.magic, at: 0)
        offset = SegmentFormat.magic.count
    }

    /// Adds the next row; with `indexed` `false` (a deletion a later row of its UUID in this segment supersedes)
    /// it gets no UUID column entry and no Bloom filter key, so look-ups by UUID find the segment's newest row of
    /// the UUID only. A row's series is written at once, as a block of its own (a stored one copied as it is,
    /// checked but not decoded): the writer holds one series at a time.
    /// - Throws: ``Refusal`` for a row of another type, out of order or with a series its type does not keep
    ///   (nothing is added), `FileStoreError` when a block cannot be written or a stored series read.
    mutating func append(_ row: SegmentRow, indexed: Bool = true) throws(SegmentWriterFailure) {
        guard row.entry.sample.type == type else { throw .refused(.wrongType) }
        if let series = row.series {
            guard seriesKind != nil else { throw .refused(.wrongSeries) }
            if case .held(let held) = series, held.kind != seriesKind { throw .refused(.wrongSeries) }
        }
        let keys = SegmentRowKeys(row)
        // The sample is encoded here, not in a closure: a closure's context would hold a copy of the row.
        let seriesExtent = try startRow(keys, series: row.series)
        SampleCodec.encode(row.entry.sample, into: &pendingSamples)
        try finishRow(keys, uuid: UUIDKey(row.entry.sample.uuid), seriesExtent: seriesExtent, indexed: indexed)
    }

    /// Adds the next row, whose sample `encode` writes (in ``SampleCodec``'s form, into the block's payload): a
    /// merge copies a row's sample from the segment it reads without decoding it (``SampleTranscoder``). The row
    /// must be of the segment's type, as `encode` writes it; otherwise as ``append(_:indexed:)``.
    /// - Throws: ``Refusal`` for a row out of order, or with a series its type does not keep or a deletion with
    ///   one (nothing is added); what `encode` throws, or `FileStoreError` when a block cannot be written or a
    ///   stored series read — the segment being written is then abandoned (``SegmentFileMaker`` removes it).
    mutating func append(
        _ keys: SegmentRowKeys, uuid: UUIDKey, series: SegmentRowSeries?, indexed: Bool,
        encode: (inout BinaryWriter) throws(FileStoreError) -> Void
    ) throws(SegmentWriterFailure) {
        let seriesExtent = try startRow(keys, series: series)
        do {
            try encode(&pendingSamples)
        } catch {
            throw .file(error)
        }
        try finishRow(keys, uuid: uuid, seriesExtent: seriesExtent, indexed: indexed)
    }

    /// A row's first half: refuses a row the segment cannot take next (nothing is added then) and writes its
    /// series' block, if it keeps one; its sample is encoded next, then ``finishRow(_:uuid:seriesExtent:indexed:)``.
    private mutating func startRow(
        _ keys: SegmentRowKeys, series: SegmentRowSeries?
    ) throws(SegmentWriterFailure) -> SegmentBlockExtent? {
        if let last, (last.start, last.sequence) >= (keys.start, keys.sequence) { throw .refused(.outOfOrder) }
        guard rowCount < Int(UInt32.max) else { throw .refused(.tooManyRows) }
        guard series == nil || (seriesKind != nil && !keys.isDeletion) else { throw .refused(.wrongSeries) }
        guard let series else { return nil }
        do {
            return try writeBlock(try series.encoded())
        } catch {
            throw .file(error)
        }
    }

    /// A row's second half, once its sample is encoded: its keys and look-up entries, and the block when full.
    private mutating func finishRow(
        _ keys: SegmentRowKeys, uuid: UUIDKey, seriesExtent: SegmentBlockExtent?, indexed: Bool
    ) throws(SegmentWriterFailure) {
        last = (keys.start, keys.sequence)
        if indexed {
            uuids.append((uuid, UInt32(rowCount)))
            bloom.insert(uuid)
        }
        sequences.append((keys.sequence, UInt32(rowCount)))
        minimumSequence = min(minimumSequence, keys.sequence)
        maximumSequence = max(maximumSequence, keys.sequence)
        longestDuration = max(longestDuration, keys.end - keys.start)
        rowCount += 1
        pending.append(keys.keepingSeries(seriesExtent != nil))
        pendingSeries.append(seriesExtent)
        noteColumnBytes()
        do {
            if pending.count == SegmentFormat.rowsPerBlock { try writeRowBlock() }
            try spillIfDue()
        } catch {
            throw .file(error)
        }
    }

    /// Adds a row block copied whole from a segment of the type (``SegmentStoredRowBlock``), after the rows before
    /// it: its bytes are written unchanged, with their checksum, and its rows get their sequence column entries. Their
    /// UUID column entries are the caller's (``appendUUIDEntry(_:row:)``), who knows which rows a UUID look-up must
    /// find. A merge that keeps every row, in the order its segments hold them, makes its segment so without
    /// decoding a sample.
    /// - Throws: ``Refusal`` for a block whose rows are not in `(start, sequence)` order after the rows before
    ///   (`outOfOrder`), that names a series (`wrongSeries`: a series block's offset is its own file's) or that
    ///   would pass the row limit (nothing is added then); `FileStoreError` when the block cannot be written.
    mutating func appendStored(_ block: SegmentStoredRowBlock) throws(SegmentWriterFailure) {
        let keys = block.keys
        let count = keys.starts.count
        guard count > 0 else { return }
        var previous = last
        for row in 0..<count {
            let current = (keys.starts[row], keys.sequences[row])
            if let previous, previous >= current { throw .refused(.outOfOrder) }
            previous = current
        }
        guard !keys.flags.contains(where: { $0 & SegmentFormat.seriesFlag != 0 }) else {
            throw .refused(.wrongSeries)
        }
        guard rowCount + count <= Int(UInt32.max) else { throw .refused(.tooManyRows) }
        do {
            if !pending.isEmpty { try writeRowBlock() }
            let extent = try writeBlock(block.bytes, checksum: block.checksum)
            rowBlocks.append(
                SegmentRowBlock(
                    extent: extent, firstRow: rowCount, rowCount: count, firstStart: keys.starts[0],
                    firstSequence: keys.sequences[0]))
            for row in 0..<count {
                let sequence = keys.sequences[row]
                sequences.append((sequence, UInt32(rowCount + row)))
                minimumSequence = min(minimumSequence, sequence)
                maximumSequence = max(maximumSequence, sequence)
                longestDuration = max(longestDuration, keys.ends[row] - keys.starts[row])
            }
            rowCount += count
            last = previous
            noteColumnBytes()
            try spillIfDue()
        } catch {
            throw .file(error)
        }
    }

    /// Adds the UUID column entry of row `row`, one of the rows appended so far: look-ups of `uuid` find that row.
    /// Each UUID may have one entry (the column sorts by UUID; the caller gives each once).
    /// - Throws: The scratch file's error when the entries held are spilled.
    /// - Precondition: `row` is a row of the segment.
    mutating func appendUUIDEntry(_ uuid: UUIDKey, row: Int) throws(FileStoreError) {
        precondition(row >= 0 && row < rowCount, "row \(row) is not one of the \(rowCount) rows appended")
        uuids.append((uuid, UInt32(row)))
        bloom.insert(uuid)
        noteColumnBytes()
        try spillIfDue()
    }

    /// Closes the scratch file if one is open (after a failure: ``finish()`` closes it otherwise).
    mutating func closeScratch() {
        scratchFile?.close()
        scratchFile = nil
    }

    private mutating func noteColumnBytes() {
        peakColumnBytes = max(
            peakColumnBytes,
            uuids.capacity * MemoryLayout<(uuid: UUIDKey, row: UInt32)>.stride
                + sequences.capacity * MemoryLayout<(sequence: UInt64, row: UInt32)>.stride)
    }

    /// Spills the entries held once either column holds ``runLength`` of them (with a scratch file to spill to).
    private mutating func spillIfDue() throws(FileStoreError) {
        if scratch != nil, max(uuids.count, sequences.count) >= runLength { try spillRun() }
    }

    /// Sorts the entries held and writes them to the scratch file as one run of each column.
    private mutating func spillRun() throws(FileStoreError) {
        guard let scratch, !(sequences.isEmpty && uuids.isEmpty) else { return }
        let target: any StoreFile
        if let scratchFile {
            target = scratchFile
        } else {
            target = try scratch.create()
            scratchFile = target
        }
        uuids.sort { SegmentUUIDOrder($0.uuid) < SegmentUUIDOrder($1.uuid) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(uuids.count * SegmentFormat.uuidEntrySize)
        for entry in uuids { Self.encode(entry, into: &bytes) }
        try target.write(bytes, at: scratchOffset)
        uuidRuns.append(SegmentSpilledRun(offset: scratchOffset, entryCount: uuids.count))
        scratchOffset += bytes.count
        sequences.sort { $0.sequence < $1.sequence }
        bytes.removeAll(keepingCapacity: true)
        for entry in sequences { Self.encode(entry, into: &bytes) }
        try target.write(bytes, at: scratchOffset)
        sequenceRuns.append(SegmentSpilledRun(offset: scratchOffset, entryCount: sequences.count))
        scratchOffset += bytes.count
        uuids.removeAll(keepingCapacity: true)
        sequences.removeAll(keepingCapacity: true)
    }

    private static func encode(_ entry: (uuid: UUIDKey, row: UInt32), into bytes: inout [UInt8]) {
        withUnsafeBytes(of: entry.uuid.uuid.uuid) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: entry.row.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func encode(_ entry: (sequence: UInt64, row: UInt32), into bytes: inout [UInt8]) {
        withUnsafeBytes(of: entry.sequence.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: entry.row.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A merge of `runs` over at most ``mergeFanIn`` runs: while there are more, the first ``mergeFanIn`` are
    /// merged into one new run at the end of the scratch file (another pass over their entries).
    private mutating func merge<Entry>(
        _ runs: [SegmentSpilledRun], reading: any ReadableStoreFile, writing: any StoreFile, entrySize: Int,
        decode: @escaping (UnsafeRawBufferPointer, Int) -> Entry, precedes: @escaping (Entry, Entry) -> Bool,
        encode: (Entry, inout [UInt8]) -> Void
    ) throws(FileStoreError) -> SegmentRunMerge<Entry> {
        var runs = runs
        while runs.count > Self.mergeFanIn {
            var merge = try SegmentRunMerge(
                file: reading, runs: Array(runs.prefix(Self.mergeFanIn)), entrySize: entrySize,
                chunkEntries: Self.mergeChunkEntries, decode: decode, precedes: precedes)
            peakColumnBytes = max(peakColumnBytes, merge.bufferedBytes)
            let start = scratchOffset
            var count = 0
            var bytes: [UInt8] = []
            let chunkBytes = Self.mergeChunkEntries * entrySize
            bytes.reserveCapacity(chunkBytes)
            while let entry = try merge.next() {
                encode(entry, &bytes)
                count += 1
                if bytes.count >= chunkBytes {
                    try writing.write(bytes, at: scratchOffset)
                    scratchOffset += bytes.count
                    bytes.removeAll(keepingCapacity: true)
                }
            }
            if !bytes.isEmpty {
                try writing.write(bytes, at: scratchOffset)
                scratchOffset += bytes.count
            }
            runs = Array(runs.dropFirst(Self.mergeFanIn)) + [SegmentSpilledRun(offset: start, entryCount: count)]
        }
        let merge = try SegmentRunMerge(
            file: reading, runs: runs, entrySize: entrySize, chunkEntries: Self.mergeChunkEntries, decode: decode,
            precedes: precedes)
        peakColumnBytes = max(peakColumnBytes, merge.bufferedBytes)
        return merge
    }

    /// Writes a sorted column's entries, taken from `next`, as look-up blocks of `perBlock` entries.
    private mutating func writeColumn<Entry, Key>(
        perBlock: Int, entrySize: Int, key: (Entry) -> Key, encode: (Entry, inout [UInt8]) -> Void,
        next: () throws(FileStoreError) -> Entry?
    ) throws(FileStoreError) -> [SegmentLookupBlock<Key>] {
        var blocks: [SegmentLookupBlock<Key>] = []
        var bytes: [UInt8] = []
        bytes.reserveCapacity(perBlock * entrySize)
        var first: Key?
        var count = 0
        while let entry = try next() {
            if first == nil { first = key(entry) }
            encode(entry, &bytes)
            count += 1
            if count == perBlock, let firstKey = first {
                blocks.append(SegmentLookupBlock(extent: try writeBlock(bytes), firstKey: firstKey, entryCount: count))
                bytes.removeAll(keepingCapacity: true)
                first = nil
                count = 0
            }
        }
        if count > 0, let firstKey = first {
            blocks.append(SegmentLookupBlock(extent: try writeBlock(bytes), firstKey: firstKey, entryCount: count))
        }
        return blocks
    }

    /// The two look-up columns' blocks: sorted in memory, or merged from the spilled runs.
    private mutating func writeLookupColumns() throws(FileStoreError) -> (
        uuids: [SegmentLookupBlock<UUIDKey>], sequences: [SegmentLookupBlock<UInt64>]
    ) {
        if scratchFile != nil { try spillRun() }
        guard let scratchFile, let scratch else {
            uuids.sort { SegmentUUIDOrder($0.uuid) < SegmentUUIDOrder($1.uuid) }
            sequences.sort { $0.sequence < $1.sequence }
            let heldUUIDs = uuids
            let heldSequences = sequences
            var uuidPosition = 0
            let uuidBlocks = try writeColumn(
                perBlock: SegmentFormat.uuidEntriesPerBlock, entrySize: SegmentFormat.uuidEntrySize, key: \.uuid,
                encode: Self.encode
            ) { () throws(FileStoreError) in
                defer { uuidPosition += 1 }
                return uuidPosition < heldUUIDs.count ? heldUUIDs[uuidPosition] : nil
            }
            var sequencePosition = 0
            let sequenceBlocks = try writeColumn(
                perBlock: SegmentFormat.sequenceEntriesPerBlock, entrySize: SegmentFormat.sequenceEntrySize,
                key: \.sequence, encode: Self.encode
            ) { () throws(FileStoreError) in
                defer { sequencePosition += 1 }
                return sequencePosition < heldSequences.count ? heldSequences[sequencePosition] : nil
            }
            return (uuidBlocks, sequenceBlocks)
        }
        uuids = []
        sequences = []
        let reading = try scratch.openForReading()
        defer { reading.close() }
        var uuidMerge = try merge(
            uuidRuns, reading: reading, writing: scratchFile, entrySize: SegmentFormat.uuidEntrySize,
            decode: SegmentFormat.uuidEntry,
            precedes: { SegmentUUIDOrder($0.uuid) < SegmentUUIDOrder($1.uuid) }, encode: Self.encode)
        let uuidBlocks = try writeColumn(
            perBlock: SegmentFormat.uuidEntriesPerBlock, entrySize: SegmentFormat.uuidEntrySize, key: \.uuid,
            encode: Self.encode
        ) { () throws(FileStoreError) in try uuidMerge.next() }
        var sequenceMerge = try merge(
            sequenceRuns, reading: reading, writing: scratchFile, entrySize: SegmentFormat.sequenceEntrySize,
            decode: { raw, base in
                (
                    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self)),
                    UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 8, as: UInt32.self))
                )
            },
            precedes: { $0.sequence < $1.sequence }, encode: Self.encode)
        let sequenceBlocks = try writeColumn(
            perBlock: SegmentFormat.sequenceEntriesPerBlock, entrySize: SegmentFormat.sequenceEntrySize,
            key: \.sequence, encode: Self.encode
        ) { () throws(FileStoreError) in try sequenceMerge.next() }
        closeScratch()
        return (uuidBlocks, sequenceBlocks)
    }

    /// Writes what is left, the look-up columns, the index and the footer, and flushes the file.
    /// - Returns: The number of bytes written.
    mutating func finish() throws(FileStoreError) -> Int {
        if !pending.isEmpty { try writeRowBlock() }
        let (uuidBlocks, sequenceBlocks) = try writeLookupColumns()
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
        var writer = BinaryWriter(capacity: pendingSamples.count + 40 * pending.count + 16)
        writer.count(pending.count)
        for row in pending { writer.double(row.start) }
        for row in pending { writer.double(row.end) }
        for row in pending { writer.uint64(row.sequence) }
        for row in pending { writer.byte(row.flags) }
        for row in pending { if let correlation = row.correlation { writer.uuid(correlation) } }
        for case let extent? in pendingSeries { Self.write(extent, into: &writer) }
        // The samples' string table starts here: the columns before them hold no strings.
        writer.append(pendingSamples.takeBytes())
        let extent = try writeBlock(writer.takeBytes())
        rowBlocks.append(
            SegmentRowBlock(
                extent: extent, firstRow: rowCount - pending.count, rowCount: pending.count,
                firstStart: pending[0].start, firstSequence: pending[0].sequence))
        pending.removeAll(keepingCapacity: true)
        pendingSeries.removeAll(keepingCapacity: true)
        pendingSamples = BinaryWriter(capacity: 64 * 1024)
    }

    /// Writes `bytes` as the next block; `checksum` is their CRC-32 when the caller has it (a copied block's).
    private mutating func writeBlock(
        _ bytes: [UInt8], checksum: UInt32? = nil
    ) throws(FileStoreError) -> SegmentBlockExtent {
        let extent = SegmentBlockExtent(
            offset: offset, length: bytes.count, checksum: checksum ?? CRC32.checksum(bytes))
        try file.write(bytes, at: offset)
        offset += bytes.count
        return extent
    }
}

/// A row's keys as a row block's columns hold them (``SegmentFormat``).
struct SegmentRowKeys {
    let start: Double
    let end: Double
    let sequence: UInt64
    /// ``SegmentFormat``'s row flags.
    let flags: UInt8
    let correlation: UUID?

    init(start: Double, end: Double, sequence: UInt64, flags: UInt8, correlation: UUID?) {
        self.start = start
        self.end = end
        self.sequence = sequence
        self.flags = flags
        self.correlation = correlation
    }

    /// The keys of `row` (its series flag set when it keeps one).
    init(_ row: borrowing SegmentRow) {
        self.init(
            start: row.entry.start, end: row.entry.end, sequence: row.entry.sequence,
            flags: (row.entry.isOwned ? SegmentFormat.ownedFlag : 0)
                | (row.correlation == nil ? 0 : SegmentFormat.correlatedFlag)
                | (row.isDeletion ? SegmentFormat.deletionFlag : 0)
                | (row.series == nil ? 0 : SegmentFormat.seriesFlag),
            correlation: row.correlation)
    }

    var isDeletion: Bool { flags & SegmentFormat.deletionFlag != 0 }

    /// These keys with the series flag set when `keeps`, clear otherwise: the flag says whether the block names
    /// a series for the row, which is what the writer was given.
    func keepingSeries(_ keeps: Bool) -> Self {
        Self(
            start: start, end: end, sequence: sequence,
            flags: keeps ? flags | SegmentFormat.seriesFlag : flags & ~SegmentFormat.seriesFlag,
            correlation: correlation)
    }
}

/// Why ``SegmentWriter/append(_:)`` failed: a row it refuses, or a block it could not write.
enum SegmentWriterFailure: Error, Equatable {
    case refused(SegmentWriter.Refusal)
    case file(FileStoreError)
}
