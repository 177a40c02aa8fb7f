import Foundation

/// A change an anchored query reports: a live sample added, or a deletion.
enum SegmentChange {
    case added(SegmentRow)
    case deleted(StoredTombstone)

    /// The change's sequence number.
    var sequence: UInt64 {
        switch self {
        case .added(let row): row.entry.sequence
        case .deleted(let tombstone): tombstone.sequence
        }
    }
}

extension SegmentedTypeStorage {
    /// The live samples starting in `lowerStart..<upperStart` and ending at or after `lowerEnd` (absent bounds do
    /// not narrow), in `(start, sequence)` order: every row of ``rangeCursor(startingFrom:below:endingAtOrAfter:)``.
    /// - Complexity: that cursor's, with memory for the r rows returned.
    func rows(startingFrom lowerStart: Double?, below upperStart: Double?, endingAtOrAfter lowerEnd: Double?)
        throws(FileStoreError) -> [SegmentRow]
    {
        var cursor = rangeCursor(startingFrom: lowerStart, below: upperStart, endingAtOrAfter: lowerEnd)
        var rows: [SegmentRow] = []
        while let row = try cursor.next() { rows.append(row) }
        return rows
    }

    /// A cursor over the live samples starting in `lowerStart..<upperStart` and ending at or after `lowerEnd`
    /// (absent bounds do not narrow), in `(start, sequence)` order, merged over the memtables (the one taking changes
    /// and the one sealed, if any) and the segments.
    ///
    /// In each segment only the row blocks that may hold such starts are read, one at a time as the cursor
    /// advances: from the one holding `max(lowerStart, lowerEnd − the segment's longest duration − 1 s)` (the
    /// second of slack absorbs rounding) to the one holding `upperStart`. A block's keys are read first; its
    /// samples are decoded only when a key matches. A matching row is returned when it is its UUID's newest
    /// version. The cursor reads the storage as it is when advanced: change the storage only once done with it.
    /// - Complexity: creating it is O(m log m) for m memtable rows; all of it O(Σ blocks in range + r · s) for r
    ///   matches and s segments (the shadowing check, mostly Bloom filter probes, and the merge). Memory holds the
    ///   memtable's matches and one decoded block per segment, whatever the result's size.
    func rangeCursor(startingFrom lowerStart: Double?, below upperStart: Double?, endingAtOrAfter lowerEnd: Double?)
        -> SegmentRangeCursor
    {
        SegmentRangeCursor(storage: self, lowerStart: lowerStart, upperStart: upperStart, lowerEnd: lowerEnd)
    }

    /// The changes after `anchor` in sequence order, at most `limit` of them: the first `limit` of
    /// ``changeCursor(after:batch:)``.
    /// - Returns: The changes, and whether there are no more after them (exact: looking one change further when
    ///   the limit is reached).
    /// - Complexity: that cursor's, for up to `limit + 1` changes.
    func changes(after anchor: UInt64, limit: Int) throws(FileStoreError) -> (changes: [SegmentChange], exhausted: Bool)
    {
        precondition(limit > 0, "an anchored query's limit is positive")
        var cursor = changeCursor(after: anchor, batch: limit == .max ? limit : limit + 1)
        var changes: [SegmentChange] = []
        while changes.count < limit {
            guard let change = try cursor.next() else { return (changes, true) }
            changes.append(change)
        }
        return (changes, try cursor.next() == nil)
    }

    /// A cursor over the changes after `anchor` in sequence order, as the in-memory store reports them: every
    /// deletion after the anchor as `deleted`, and each UUID's newest version when it is live and after the
    /// anchor as `added`. A sample added and deleted since the anchor is reported as its deletion only; one
    /// deleted and inserted again, as the deletion and the new insertion; a deletion older than a compaction's
    /// `keepingDeletionsAfter` may be gone. The cursor reads the storage as it is when advanced: change the
    /// storage only once done with it.
    ///
    /// - Parameter batch: Sequence column entries each segment reads at a time (1 … 512): the number of changes
    ///   expected, when few are.
    /// - Complexity: creating it is O(m log m) for m memtable rows; each change costs O(s) for s segments (the
    ///   merge and the shadowing check), plus the decoding: each segment's sequence column is read from the
    ///   anchor in batches, and the row blocks named are decoded through a cache of 16 blocks a segment (each
    ///   block once when sequence order follows start order, or strays from it within 16 blocks; up to one block
    ///   a row when rows far apart in time alternate). Memory holds a batch of rows and up to 16 blocks per
    ///   segment, whatever the number of changes.
    func changeCursor(after anchor: UInt64, batch: Int = SegmentFormat.sequenceEntriesPerBlock) -> SegmentChangeCursor {
        SegmentChangeCursor(storage: self, anchor: anchor, batch: batch)
    }
}

/// The rows of a date-range query, one at a time (``SegmentedTypeStorage/rangeCursor(startingFrom:below:endingAtOrAfter:)``).
struct SegmentRangeCursor {
    private let storage: SegmentedTypeStorage
    private let lowerStart: Double?
    private let upperStart: Double?
    private let lowerEnd: Double?
    private let memtableRows: [SegmentRow]
    private var memtablePosition = 0
    private var sources: [Source]

    /// One segment's matching newest rows, a row block at a time.
    private struct Source {
        let segment: Int
        var blocks: Range<Int>
        var rows: [SegmentRow] = []
        var position = 0
    }

    init(storage: SegmentedTypeStorage, lowerStart: Double?, upperStart: Double?, lowerEnd: Double?) {
        self.storage = storage
        self.lowerStart = lowerStart
        self.upperStart = upperStart
        self.lowerEnd = lowerEnd
        memtableRows = storage.heldLiveRows(startingFrom: lowerStart, below: upperStart, endingAtOrAfter: lowerEnd)
        sources = storage.segments.indices.map { index in
            let reader = storage.segments[index].reader
            var lowerBound = lowerStart
            if let lowerEnd {
                let bound = lowerEnd - reader.longestDuration - 1
                lowerBound = lowerBound.map { max($0, bound) } ?? bound
            }
            return Source(segment: index, blocks: reader.rowBlocks(startingFrom: lowerBound, below: upperStart))
        }
    }

    /// The next row, or `nil` when there are no more.
    /// - Throws: Damage found in a block read.
    mutating func next() throws(FileStoreError) -> SegmentRow? {
        var best: (row: SegmentRow, source: Int?)?
        if memtablePosition < memtableRows.count { best = (memtableRows[memtablePosition], nil) }
        for index in sources.indices {
            guard let head = try head(of: index) else { continue }
            if let current = best,
                (current.row.entry.start, current.row.entry.sequence) <= (head.entry.start, head.entry.sequence)
            {
                continue
            }
            best = (head, index)
        }
        guard let best else { return nil }
        if let source = best.source {
            sources[source].position += 1
        } else {
            memtablePosition += 1
        }
        return best.row
    }

    private mutating func head(of index: Int) throws(FileStoreError) -> SegmentRow? {
        while sources[index].position == sources[index].rows.count {
            guard let block = sources[index].blocks.first else { return nil }
            sources[index].blocks = sources[index].blocks.dropFirst()
            sources[index].rows = try matches(inBlock: block, ofSegment: sources[index].segment)
            sources[index].position = 0
        }
        return sources[index].rows[sources[index].position]
    }

    private func matches(inBlock block: Int, ofSegment segment: Int) throws(FileStoreError) -> [SegmentRow] {
        let reader = storage.segments[segment].reader
        let keys = try reader.keys(ofBlock: block)
        let matching = keys.starts.indices.filter { position in
            keys.flags[position] & SegmentFormat.deletionFlag == 0
                && SegmentRangeFilter.matches(
                    start: keys.starts[position], end: keys.ends[position], startingFrom: lowerStart,
                    below: upperStart, endingAtOrAfter: lowerEnd)
        }
        guard !matching.isEmpty else { return [] }
        let rows = try reader.rows(ofBlock: block)
        var found: [SegmentRow] = []
        for position in matching where try storage.isNewest(rows[position].entry.sample.uuid, inSegment: segment) {
            found.append(rows[position])
        }
        return found
    }
}

/// The changes of an anchored query, one at a time (``SegmentedTypeStorage/changeCursor(after:batch:)``).
struct SegmentChangeCursor {
    private let storage: SegmentedTypeStorage
    private let memtableRows: [SegmentRow]
    private var memtablePosition = 0
    private var cursors: [SequenceCursor]

    init(storage: SegmentedTypeStorage, anchor: UInt64, batch: Int) {
        self.storage = storage
        memtableRows = storage.heldRows(after: anchor)
        cursors = storage.segments.indices.map { SequenceCursor(segment: $0, after: anchor, batch: batch) }
    }

    /// The next change, or `nil` when there are no more.
    /// - Throws: Damage found in a block read.
    mutating func next() throws(FileStoreError) -> SegmentChange? {
        while true {
            var next: (sequence: UInt64, cursor: Int?)?
            if memtablePosition < memtableRows.count {
                next = (memtableRows[memtablePosition].entry.sequence, nil)
            }
            for position in cursors.indices {
                guard let head = try cursors[position].head(in: storage) else { continue }
                if next.map({ head < $0.sequence }) ?? true { next = (head, position) }
            }
            guard let next else { return nil }
            let row: SegmentRow
            if let position = next.cursor {
                let candidate = cursors[position].take()
                // Every deletion kept is reported; a live row only when it is its UUID's newest version.
                if !candidate.isDeletion {
                    guard try storage.isNewest(candidate.entry.sample.uuid, inSegment: cursors[position].segment)
                    else { continue }
                }
                row = candidate
            } else {
                row = memtableRows[memtablePosition]
                memtablePosition += 1
            }
            return row.isDeletion
                ? .deleted(
                    StoredTombstone(
                        sequence: row.entry.sequence, object: HealthDeletedObject(deleting: row.entry.sample),
                        sample: row.entry.sample))
                : .added(row)
        }
    }
}

/// A segment's rows in sequence order after an anchor, a batch at a time: a batch's entries are read from the
/// sequence column, and the row blocks they name are taken in row order from a cache of the
/// ``cachedBlocks`` most recently used decoded blocks, or decoded into it. Data out of time order within a window
/// of that many blocks (2,048 rows) decodes each block once per query.
private struct SequenceCursor {
    /// Decoded row blocks a cursor keeps across batches, least recently used dropped first.
    static let cachedBlocks = 16

    let segment: Int
    private let batch: Int
    private var after: UInt64
    private var pending: [(sequence: UInt64, row: SegmentRow)] = []
    private var position = 0
    private var exhausted = false
    /// Decoded blocks, most recently used last.
    private var cache: [(block: Int, rows: [SegmentRow])] = []

    /// A cursor reading `batch` entries at a time (1 … 512: a sequence block).
    init(segment: Int, after: UInt64, batch: Int) {
        self.segment = segment
        self.after = after
        self.batch = min(SegmentFormat.sequenceEntriesPerBlock, max(1, batch))
    }

    /// The next row's sequence, reading the next batch when needed.
    mutating func head(in storage: SegmentedTypeStorage) throws(FileStoreError) -> UInt64? {
        if position == pending.count {
            guard !exhausted else { return nil }
            let reader = storage.segments[segment].reader
            let entries = try reader.rowsInSequenceOrder(after: after, limit: batch)
            exhausted = entries.count < batch
            after = entries.last?.sequence ?? after
            var rows: [SegmentRow?] = Array(repeating: nil, count: entries.count)
            for index in entries.indices.sorted(by: { entries[$0].row < entries[$1].row }) {
                let number = entries[index].row
                let block = reader.rowBlocks.partitioningIndex { $0.firstRow > number } - 1
                rows[index] = try decoded(block, in: reader)[number - reader.rowBlocks[block].firstRow]
            }
            pending = zip(entries, rows).compactMap { entry, row in row.map { (entry.sequence, $0) } }
            position = 0
            if pending.isEmpty { return nil }
        }
        return pending[position].sequence
    }

    /// Block `block`'s rows, from the cache or decoded (and cached).
    private mutating func decoded(_ block: Int, in reader: SegmentReader) throws(FileStoreError) -> [SegmentRow] {
        if let hit = cache.lastIndex(where: { $0.block == block }) {
            let entry = cache.remove(at: hit)
            cache.append(entry)
            return entry.rows
        }
        let rows = try reader.rows(ofBlock: block)
        if cache.count == Self.cachedBlocks { cache.removeFirst() }
        cache.append((block, rows))
        return rows
    }

    /// The next row.
    /// - Precondition: ``head(in:)`` returned a sequence.
    mutating func take() -> SegmentRow {
        defer { position += 1 }
        return pending[position].row
    }
}
