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
    /// not narrow), in `(start, sequence)` order, merged over the memtable and the segments.
    ///
    /// In each segment only the row blocks that may hold such starts are read: from the one holding
    /// `max(lowerStart, lowerEnd − the segment's longest duration − 1 s)` (the second of slack absorbs rounding)
    /// to the one holding `upperStart`. A block's keys are read first; its samples are decoded only when a key
    /// matches. A matching row is returned when it is its UUID's newest version.
    /// - Complexity: O(m + Σ blocks in range + r · s) for m memtable rows, r matches and s segments (the
    ///   shadowing check, mostly Bloom filter probes), plus O(r · s) for the merge.
    func rows(startingFrom lowerStart: Double?, below upperStart: Double?, endingAtOrAfter lowerEnd: Double?)
        throws(FileStoreError) -> [SegmentRow]
    {
        var runs: [[SegmentRow]] = [
            memtable.liveRows(startingFrom: lowerStart, below: upperStart, endingAtOrAfter: lowerEnd)
        ]
        for index in segments.indices {
            let reader = segments[index].reader
            var lowerBound = lowerStart
            if let lowerEnd {
                let bound = lowerEnd - reader.longestDuration - 1
                lowerBound = lowerBound.map { max($0, bound) } ?? bound
            }
            var run: [SegmentRow] = []
            for block in reader.rowBlocks(startingFrom: lowerBound, below: upperStart) {
                let keys = try reader.keys(ofBlock: block)
                let matching = keys.starts.indices.filter { position in
                    keys.flags[position] & SegmentFormat.deletionFlag == 0
                        && SegmentRangeFilter.matches(
                            start: keys.starts[position], end: keys.ends[position], startingFrom: lowerStart,
                            below: upperStart, endingAtOrAfter: lowerEnd)
                }
                guard !matching.isEmpty else { continue }
                let rows = try reader.rows(ofBlock: block)
                for position in matching {
                    if try isNewest(rows[position].entry.sample.uuid, inSegment: index) { run.append(rows[position]) }
                }
            }
            runs.append(run)
        }
        return Self.merge(runs) { ($0.entry.start, $0.entry.sequence) < ($1.entry.start, $1.entry.sequence) }
    }

    /// The changes after `anchor` in sequence order, at most `limit` of them: each UUID's newest version whose
    /// sequence is after the anchor — a live sample as `added`, a deletion as `deleted`. A sample added and
    /// deleted since the anchor is reported as its deletion only; a deletion older than the last compaction's
    /// `keepingDeletionsAfter` may be gone.
    /// - Returns: The changes, and whether there are no more after them.
    /// - Complexity: O(m log m + c · s) for m memtable rows and c versions looked at, plus the decoding: each
    ///   segment's sequence column is read from the anchor in batches of up to 512 entries, and each batch decodes
    ///   the row blocks its rows are in once (one block a batch when sequence order follows start order, as data
    ///   arriving in time does; up to one block a row when it does not). Memory holds a batch of rows and one
    ///   block per segment.
    func changes(after anchor: UInt64, limit: Int) throws(FileStoreError) -> (changes: [SegmentChange], exhausted: Bool)
    {
        precondition(limit > 0, "an anchored query's limit is positive")
        let memtableRows = memtable.rows(after: anchor)
        var memtablePosition = 0
        var cursors = segments.indices.map { SequenceCursor(segment: $0, after: anchor, batch: limit) }
        var changes: [SegmentChange] = []
        while changes.count < limit {
            var next: (sequence: UInt64, cursor: Int?)?
            if memtablePosition < memtableRows.count {
                next = (memtableRows[memtablePosition].entry.sequence, nil)
            }
            for position in cursors.indices {
                guard let head = try cursors[position].head(in: self) else { continue }
                if next.map({ head < $0.sequence }) ?? true { next = (head, position) }
            }
            guard let next else { return (changes, true) }
            let row: SegmentRow
            if let position = next.cursor {
                let candidate = cursors[position].take()
                guard try isNewest(candidate.entry.sample.uuid, inSegment: cursors[position].segment) else { continue }
                row = candidate
            } else {
                row = memtableRows[memtablePosition]
                memtablePosition += 1
            }
            changes.append(
                row.isDeletion
                    ? .deleted(
                        StoredTombstone(
                            sequence: row.entry.sequence, object: HealthDeletedObject(deleting: row.entry.sample),
                            sample: row.entry.sample))
                    : .added(row))
        }
        return (changes, false)
    }

    /// Sorted runs merged into one sorted array.
    /// - Complexity: O(n · k) for n rows in k runs.
    static func merge(_ runs: [[SegmentRow]], by areInOrder: (SegmentRow, SegmentRow) -> Bool) -> [SegmentRow] {
        var positions = [Int](repeating: 0, count: runs.count)
        var merged: [SegmentRow] = []
        merged.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        while true {
            var best: Int?
            for run in runs.indices where positions[run] < runs[run].count {
                if let current = best {
                    if areInOrder(runs[run][positions[run]], runs[current][positions[current]]) { best = run }
                } else {
                    best = run
                }
            }
            guard let best else { return merged }
            merged.append(runs[best][positions[best]])
            positions[best] += 1
        }
    }
}

/// A segment's rows in sequence order after an anchor, a batch at a time: a batch's entries are read from the
/// sequence column, and the row blocks they name are each decoded once, in row order, one block held at a time.
private struct SequenceCursor {
    let segment: Int
    private let batch: Int
    private var after: UInt64
    private var pending: [(sequence: UInt64, row: SegmentRow)] = []
    private var position = 0
    private var exhausted = false

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
            var decoded: (block: Int, rows: [SegmentRow])?
            for index in entries.indices.sorted(by: { entries[$0].row < entries[$1].row }) {
                let number = entries[index].row
                let block = reader.rowBlocks.partitioningIndex { $0.firstRow > number } - 1
                let blockRows: [SegmentRow]
                if let decoded, decoded.block == block {
                    blockRows = decoded.rows
                } else {
                    blockRows = try reader.rows(ofBlock: block)
                    decoded = (block, blockRows)
                }
                rows[index] = blockRows[number - reader.rowBlocks[block].firstRow]
            }
            pending = zip(entries, rows).compactMap { entry, row in row.map { (entry.sequence, $0) } }
            position = 0
            if pending.isEmpty { return nil }
        }
        return pending[position].sequence
    }

    /// The next row.
    /// - Precondition: ``head(in:)`` returned a sequence.
    mutating func take() -> SegmentRow {
        defer { position += 1 }
        return pending[position].row
    }
}
