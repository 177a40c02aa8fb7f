import Foundation

/// The layout of a segment file: the samples and deletions of one type, immutable once written, read block by
/// block with `pread` so that a reader holds only the small index below and the blocks it asks for.
///
/// ```text
/// segment    = magic:8 (rowBlock | seriesBlock)* uuidBlock* sequenceBlock* index footer
/// rowBlock   = count:varint start:f64×n end:f64×n sequence:u64×n flags:u8×n correlation:uuid×c
///              series:(offset:varint length:varint crc:varint)×s sample×n
///              (flags bit 0: the store's app owns the row; bit 1: a correlation holds it, whose UUID follows
///              in `correlation`, in row order; bit 2: the row is a deletion — its sample is the deleted one,
///              its sequence the deletion's; bit 3: a series is kept beside the row's sample, in the series
///              block `series` names, in row order (version 2); samples as ``SampleCodec``, the block's strings
///              in one table)
/// seriesBlock = the series' encoding (``HealthSampleSeries``), of the kind of the segment's type
/// uuidBlock  = (uuid:16 row:u32)×n        by UUID, bytes compared in order; one entry a UUID, its newest row
///                                           (an older deletion of the UUID in the segment has none)
/// sequenceBlock = (sequence:u64 row:u32)×n    by sequence
/// index      = version:varint type:str rows:varint minSequence:u64 maxSequence:u64 longestDuration:f64
///              rowBlocks:count (offset:varint length:varint crc:varint firstRow:varint rows:varint
///                               firstStart:f64 firstSequence:u64)*
///              uuidBlocks:count (offset:varint length:varint crc:varint firstUUID:16 entries:varint)*
///              sequenceBlocks:count (offset:varint length:varint crc:varint firstSequence:u64 entries:varint)*
///              bloomProbes:varint bloomWords:count word:u64×
/// footer     = indexOffset:u64 indexLength:u64 indexCRC:u32 zero:u32 magic:8     (32 bytes, little-endian)
/// ```
///
/// Rows are in `(start, sequence)` order, the order of a type's index in memory, so a date range is a run of
/// blocks found in the index by their first start. Every block and the index carry a CRC-32; a block is checked
/// whenever it is read, so damage is reported where it is found (`FileStoreError.corruptFile` with the
/// segment's name and the damaged block's offset), never decoded into wrong samples. A series block is read only
/// when its series is asked for (an ECG's is ~240 KB), and a merge copies its bytes without decoding them; a row
/// block holds no offset, so a merge that keeps every row in order copies row blocks whole too (a part-filled
/// block may then be followed by others).
enum SegmentFormat {
    /// The first and last eight bytes of every segment.
    static let magic: [UInt8] = Array("HFSEGv01".utf8)
    static let footerSize = 32
    /// The version written: 2, which added series blocks. Version 1 segments (no series) are read unchanged.
    static let version: UInt64 = 2
    static let readableVersions: ClosedRange<UInt64> = 1...2
    /// Rows a row block holds at most: a block is read and decoded whole, so this bounds the work of reading one
    /// row by its UUID.
    static let rowsPerBlock = 128
    static let uuidEntrySize = 20
    static let uuidEntriesPerBlock = 256
    static let sequenceEntrySize = 12
    static let sequenceEntriesPerBlock = 512

    /// The UUID column entry `(uuid, row)` at byte offset `base` of `buffer` (``uuidEntrySize`` bytes).
    static func uuidEntry(in buffer: UnsafeRawBufferPointer, at base: Int) -> (uuid: UUIDKey, row: UInt32) {
        (
            UUIDKey(
                high: buffer.loadUnaligned(fromByteOffset: base, as: UInt64.self),
                low: buffer.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self)),
            UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: base + 16, as: UInt32.self))
        )
    }

    /// Row flags.
    static let ownedFlag: UInt8 = 1
    static let correlatedFlag: UInt8 = 2
    static let deletionFlag: UInt8 = 4
    static let seriesFlag: UInt8 = 8
    /// Every flag a reader accepts; a row with another bit set is damage.
    static let knownFlags: UInt8 = ownedFlag | correlatedFlag | deletionFlag | seriesFlag
}

/// Where a block lies in a segment file and the checksum of its bytes.
struct SegmentBlockExtent: Equatable {
    let offset: Int
    let length: Int
    let checksum: UInt32
}

/// What a segment's index keeps of one row block.
struct SegmentRowBlock: Equatable {
    let extent: SegmentBlockExtent
    /// The block's first row's number in the segment.
    let firstRow: Int
    let rowCount: Int
    /// The first row's start (seconds since the reference date) and sequence: blocks are in this order.
    let firstStart: Double
    let firstSequence: UInt64
}

/// What a segment's index keeps of one block of a sorted look-up column (UUIDs or sequences).
struct SegmentLookupBlock<Key: Equatable>: Equatable {
    let extent: SegmentBlockExtent
    let firstKey: Key
    let entryCount: Int
}

/// One row of a segment: a sample with its keys, and the correlation holding it when it is a member.
///
/// A deletion row (`isDeletion`) is a tombstone: `entry.sample` is the deleted sample (so anchored queries can
/// apply predicates to it) and `entry.sequence` the deletion's change sequence number. It keeps no series.
struct SegmentRow {
    let entry: IndexedSample
    let correlation: UUID?
    let isDeletion: Bool
    /// The series kept beside the sample, if any.
    let series: SegmentRowSeries?

    init(entry: IndexedSample, correlation: UUID?, isDeletion: Bool = false, series: SegmentRowSeries? = nil) {
        self.entry = entry
        self.correlation = correlation
        self.isDeletion = isDeletion
        self.series = isDeletion ? nil : series
    }
}

/// Where a row's series is: in memory (a memtable row), or in a block of the segment the row was read from, read
/// only when asked for.
enum SegmentRowSeries {
    case held(HealthSampleSeries)
    case stored(SegmentReader, SegmentBlockExtent)

    /// The series, read and decoded (and checked against its checksum) when it is stored.
    /// - Throws: Damage in the series block.
    func series(of kind: SeriesKind) throws(FileStoreError) -> HealthSampleSeries {
        switch self {
        case .held(let series): series
        case .stored(let reader, let extent): try reader.series(at: extent, of: kind)
        }
    }

    /// The series' encoding (``HealthSampleSeries/encode(into:)``): a stored series' bytes as they are, checked.
    func encoded() throws(FileStoreError) -> [UInt8] {
        switch self {
        case .held(let series):
            var writer = BinaryWriter(capacity: series.encodedSize)
            series.encode(into: &writer)
            return writer.takeBytes()
        case .stored(let reader, let extent): return try reader.seriesBytes(at: extent)
        }
    }

    /// The bytes a memtable counts for it (``SegmentRowFootprint``): a held series' encoded size.
    var heldBytes: Int {
        switch self {
        case .held(let series): series.encodedSize
        case .stored: 0
        }
    }
}

/// A UUID's bytes in order, as two big-endian numbers: the segment's UUID columns sort by these.
struct SegmentUUIDOrder: Comparable, Equatable {
    let high: UInt64
    let low: UInt64

    init(_ key: UUIDKey) {
        // `UUIDKey` holds the bytes as loaded by the machine; read them as big-endian for byte order.
        high = UInt64(bigEndian: key.high)
        low = UInt64(bigEndian: key.low)
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}
