/// What a compaction did.
struct SegmentCompaction: Equatable {
    /// The segment written, covering the numbers of the segments it replaced.
    let name: SegmentName
    let rowsRead: Int
    let rowsWritten: Int
    /// Names of replaced segments that could not be removed: superseded, never read again, removed by the next
    /// opening.
    let leftOver: [String]
    /// The most bytes the segment's writer held of look-up column entries (``SegmentWriter/peakColumnBytes``):
    /// at most about 40 · ``SegmentedTypeStorage/writerRunLength``, plus a merge chunk per spilled run.
    let peakColumnBytes: Int
}

extension SegmentedTypeStorage {
    /// Merges every segment into one: ``compact(_:keepingDeletionsAfter:)`` of them all.
    /// - Returns: `nil` when there is no segment.
    @discardableResult
    func compact(keepingDeletionsAfter deletionFloor: UInt64) throws(FileStoreError) -> SegmentCompaction? {
        guard !segments.isEmpty else { return nil }
        return try compact(segments.indices, keepingDeletionsAfter: deletionFloor)
    }

    /// Merges the consecutive segments `run` (positions in ``segments``, oldest first) into one, in
    /// `(start, sequence)` order. A row is kept when it is its UUID's newest on disk (no later row of the UUID, in
    /// the run or after it, shadows it), except that when the run starts at the oldest segment a deletion whose
    /// sequence is at most `deletionFloor` is dropped too — no older version is left for it to hide, and anchored
    /// queries from an anchor at or after the floor no longer need it (pass 0 to keep every deletion). A shadowed
    /// deletion is kept when its sequence is after `deletionFloor` (anchored queries report it), without a UUID
    /// column entry; other shadowed rows are dropped. The memtable is left
    /// alone, and rows it shadows are kept: were it lost, they are still the newest on disk.
    ///
    /// The new segment covers the run's numbers and is made atomically (``SegmentFileMaker``); only then does it
    /// replace them in memory and are their files removed. A crash before the rename leaves the old segments in
    /// use; after it, opening uses the new one and removes the old. Compacting a run rather than every segment
    /// bounds the work to the run's rows; the writer's memory is bounded by ``writerRunLength`` whatever the run.
    /// - Returns: What was done.
    /// - Throws: Damage found reading a segment, or the file system's error; the segments in use are then
    ///   unchanged, and no file has the new segment's name unless only the directory flush after the rename failed
    ///   (then the new segment is in use, and that error is thrown).
    /// - Precondition: `run` is a non-empty range of positions in ``segments``.
    /// - Complexity: O(n · (r + s)) for n rows in the run's r segments, s segments after each row's (a merge step
    ///   and the shadowing check per row, plus a UUID block read per deletion to check it is its segment's newest
    ///   row of the UUID); each row block is read once; memory holds one decoded row block per segment of the run
    ///   and the writer's bounded look-up column buffers (``SegmentWriter``).
    @discardableResult
    func compact(_ run: Range<Int>, keepingDeletionsAfter deletionFloor: UInt64) throws(FileStoreError)
        -> SegmentCompaction
    {
        precondition(!run.isEmpty && run.lowerBound >= 0 && run.upperBound <= segments.count, "run \(run)")
        let name = SegmentName(
            type: type, first: segments[run.lowerBound].name.first, last: segments[run.upperBound - 1].name.last)
        let rowsRead = segments[run].reduce(0) { $0 + $1.reader.rowCount }
        let dropsDeletions = run.lowerBound == 0
        var written = 0
        let made = try SegmentFileMaker(directory: directory, fileSystem: fileSystem, runLength: writerRunLength).make(
            name, expectedRows: rowsRead
        ) { (writer: inout SegmentWriter) throws(FileStoreError) in
            var cursors = run.map { BlockCursor(segment: $0) }
            while true {
                var best: Int?
                for position in cursors.indices {
                    guard let head = try cursors[position].head(in: self) else { continue }
                    if let current = best, let bestHead = try cursors[current].head(in: self),
                        (bestHead.entry.start, bestHead.entry.sequence) <= (head.entry.start, head.entry.sequence)
                    {
                        continue
                    }
                    best = position
                }
                guard let best else { return }
                let number = cursors[best].rowNumber(in: self)
                let row = cursors[best].take()
                let segment = cursors[best].segment
                let uuid = row.entry.sample.uuid
                // Only a deletion may have a newer row of its UUID in its own segment (then it is not indexed).
                var isNewest = try isNewest(uuid, inSegment: segment, consultingMemtable: false)
                if isNewest, row.isDeletion { isNewest = try segments[segment].reader.row(of: uuid) == number }
                if isNewest {
                    guard !(dropsDeletions && row.isDeletion && row.entry.sequence <= deletionFloor) else { continue }
                } else {
                    // A shadowed deletion stays for anchored queries from before it, down to the floor.
                    guard row.isDeletion, row.entry.sequence > deletionFloor else { continue }
                }
                try SegmentFileMaker.append(row, to: &writer, making: name, indexed: isNewest)
                written += 1
            }
        }
        let replaced = replaceSegments(coveredBy: Segment(name: name, reader: made.reader))
        if let failure = made.directoryFlushFailure { throw failure }
        var leftOver: [String] = []
        // A compaction of one segment has its name: the rename replaced that file, which stays.
        for segment in replaced where segment.name != name {
            if (try? fileSystem.removeFile(at: directory.appending(segment.name.fileName))) == nil {
                leftOver.append(segment.name.fileName)
            }
        }
        try? fileSystem.syncDirectory(at: directory)
        return SegmentCompaction(
            name: name, rowsRead: rowsRead, rowsWritten: written, leftOver: leftOver,
            peakColumnBytes: made.peakColumnBytes)
    }
}

/// A segment's rows in `(start, sequence)` order, one decoded row block at a time.
private struct BlockCursor {
    let segment: Int
    private var block = 0
    private var rows: [SegmentRow] = []
    private var position = 0

    init(segment: Int) {
        self.segment = segment
    }

    mutating func head(in storage: SegmentedTypeStorage) throws(FileStoreError) -> SegmentRow? {
        let reader = storage.segments[segment].reader
        while position == rows.count {
            guard block < reader.rowBlocks.count else { return nil }
            rows = try reader.rows(ofBlock: block)
            block += 1
            position = 0
        }
        return rows[position]
    }

    /// The head's row number in its segment.
    /// - Precondition: ``head(in:)`` returned a row.
    func rowNumber(in storage: SegmentedTypeStorage) -> Int {
        storage.segments[segment].reader.rowBlocks[block - 1].firstRow + position
    }

    /// - Precondition: ``head(in:)`` returned a row.
    mutating func take() -> SegmentRow {
        defer { position += 1 }
        return rows[position]
    }
}
