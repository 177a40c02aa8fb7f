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
    /// - Complexity: O(m log m + c · (s + a block decode)) for m memtable rows and c versions looked at: each
    ///   segment's sequence column is read in blocks of 512 from the anchor, rows are decoded a block at a time.
    func changes(after anchor: UInt64, limit: Int) throws(FileStoreError) -> (changes: [SegmentChange], exhausted: Bool)
    {
        precondition(limit > 0, "an anchored query's limit is positive")
        let memtableRows = memtable.rows(after: anchor)
        var memtablePosition = 0
        var cursors = segments.indices.map { SequenceCursor(segment: $0, after: anchor) }
        var changes: [SegmentChange] = []
        while changes.count < limit {
            var next: (sequence: UInt64, cursor: Int?)?
            if memtablePosition < memtableRows.count {
                next = (memtableRows[memtablePosition].entry.sequence, nil)
            }
            for position in cursors.indices {
                guard let head = try cursors[position].head(in: self) else { continue }
                if next.map({ head.sequence < $0.sequence }) ?? true { next = (head.sequence, position) }
            }
            guard let next else { return (changes, true) }
            let row: SegmentRow
            if let position = next.cursor {
                let candidate = try cursors[position].take(in: self)
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

/// A segment's rows in sequence order after an anchor, read a sequence block at a time, with the last row
/// block decoded kept for the rows that follow in it.
private struct SequenceCursor {
    let segment: Int
    private var after: UInt64
    private var pending: [(sequence: UInt64, row: Int)] = []
    private var position = 0
    private var exhausted = false
    private var decoded: (block: Int, rows: [SegmentRow])?

    init(segment: Int, after: UInt64) {
        self.segment = segment
        self.after = after
    }

    /// The next row's sequence and number, reading the sequence column on when needed.
    mutating func head(in storage: SegmentedTypeStorage) throws(FileStoreError) -> (sequence: UInt64, row: Int)? {
        if position == pending.count {
            guard !exhausted else { return nil }
            let batch = SegmentFormat.sequenceEntriesPerBlock
            pending = try storage.segments[segment].reader.rowsInSequenceOrder(after: after, limit: batch)
            position = 0
            exhausted = pending.count < batch
            guard let last = pending.last else { return nil }
            after = last.sequence
        }
        return pending[position]
    }

    /// The next row, decoded.
    /// - Precondition: ``head(in:)`` returned a row.
    mutating func take(in storage: SegmentedTypeStorage) throws(FileStoreError) -> SegmentRow {
        let number = pending[position].row
        position += 1
        let reader = storage.segments[segment].reader
        let block = reader.rowBlocks.partitioningIndex { $0.firstRow > number } - 1
        let rows: [SegmentRow]
        if let decoded, decoded.block == block {
            rows = decoded.rows
        } else {
            rows = try reader.rows(ofBlock: block)
            decoded = (block, rows)
        }
        return rows[number - reader.rowBlocks[block].firstRow]
    }
}
