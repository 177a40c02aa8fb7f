/// What a compaction did.
struct SegmentCompaction: Equatable {
    /// The segment written, covering every segment's numbers.
    let name: SegmentName
    let rowsRead: Int
    let rowsWritten: Int
    /// Names of replaced segments that could not be removed: superseded, never read again, removed by the next
    /// opening.
    let leftOver: [String]
}

extension SegmentedTypeStorage {
    /// Merges every segment into one, in `(start, sequence)` order: a row is kept when it is its UUID's newest
    /// version among the segments, except a deletion whose sequence is at most `keepingDeletionsAfter` (anchored
    /// queries from an anchor at or after it no longer need it; pass 0 to keep every deletion). The memtable is
    /// left alone, and rows it shadows are kept: were it lost, they are still the newest on disk.
    ///
    /// The new segment covers all the old ones' numbers and is made atomically (``SegmentFileMaker``); only then
    /// does it replace them in memory and are their files removed. A crash before the rename leaves the old
    /// segments in use; after it, opening uses the new one and removes the old.
    /// - Returns: `nil` when there is no segment.
    /// - Throws: Damage found reading a segment, or the file system's error; the segments in use are then
    ///   unchanged, and no file has the new segment's name unless only the directory flush after the rename failed
    ///   (then the new segment is in use, and that error is thrown).
    /// - Complexity: O(n · s) for n rows in s segments (a merge step and the shadowing check per row), each block
    ///   read once; memory holds one decoded row block per segment and the writer's look-up columns (32 bytes a
    ///   row written).
    @discardableResult
    func compact(keepingDeletionsAfter deletionFloor: UInt64) throws(FileStoreError) -> SegmentCompaction? {
        guard let first = segments.first?.name.first, let last = segments.last?.name.last else { return nil }
        let name = SegmentName(type: type, first: first, last: last)
        let rowsRead = segments.reduce(0) { $0 + $1.reader.rowCount }
        var written = 0
        let made = try SegmentFileMaker(directory: directory, fileSystem: fileSystem).make(
            name, expectedRows: rowsRead
        ) { (writer: inout SegmentWriter) throws(FileStoreError) in
            var cursors = segments.indices.map { BlockCursor(segment: $0) }
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
                let row = cursors[best].take()
                guard !(row.isDeletion && row.entry.sequence <= deletionFloor),
                    try isNewest(row.entry.sample.uuid, inSegment: cursors[best].segment, consultingMemtable: false)
                else { continue }
                try SegmentFileMaker.append(row, to: &writer, making: name)
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
        return SegmentCompaction(name: name, rowsRead: rowsRead, rowsWritten: written, leftOver: leftOver)
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

    /// - Precondition: ``head(in:)`` returned a row.
    mutating func take() -> SegmentRow {
        defer { position += 1 }
        return rows[position]
    }
}
