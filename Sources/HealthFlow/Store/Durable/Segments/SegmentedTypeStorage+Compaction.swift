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
    /// Whether the segment was made of the run's row blocks copied whole, no sample decoded (a run that keeps
    /// every row in order: ``SegmentedTypeStorage/compact(_:keepingDeletionsAfter:)``).
    let copiedRowBlocks: Bool
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
    /// A run that keeps every row, in the order its segments already hold them, is merged by copying its row
    /// blocks whole (``SegmentCompaction/copiedRowBlocks``): a run ending at the newest segment (nothing after it
    /// shadows one of its rows), of a type that keeps no series (a row names its series by an offset in its own
    /// file), without deletions, whose segments each start after the one before ends and share no UUID — what an
    /// import or any append in time order makes. The rows are the same either way; only the work differs (no
    /// sample decoded or encoded, the UUID column merged from the segments' own).
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
        let maker = SegmentFileMaker(directory: directory, fileSystem: fileSystem, runLength: writerRunLength)
        if let copied = try copyingRowBlocks(run, making: name, with: maker, rows: rowsRead) {
            return try replace(run, with: copied, name: name, rowsRead: rowsRead, written: rowsRead, copied: true)
        }
        let dropsDeletions = run.lowerBound == 0
        var written = 0
        let made = try maker.make(name, expectedRows: rowsRead) {
            (writer: inout SegmentWriter) throws(FileStoreError) in
            var cursors = run.map { BlockCursor(segment: $0) }
            while true {
                var best: Int?
                var bestKeys: SegmentRowKeys?
                for position in cursors.indices {
                    guard let head = try cursors[position].head(in: self) else { continue }
                    if let current = bestKeys, (current.start, current.sequence) <= (head.start, head.sequence) {
                        continue
                    }
                    best = position
                    bestKeys = head
                }
                guard let best, let keys = bestKeys else { return }
                let number = cursors[best].rowNumber(in: self)
                let segment = cursors[best].segment
                let reader = segments[segment].reader
                let uuid = try cursors[best].headUUID(in: self)
                // Only a deletion may have a newer row of its UUID in its own segment (then it is not indexed).
                var isNewest = try isNewest(uuid.uuid, inSegment: segment, consultingMemtable: false)
                if isNewest, keys.isDeletion { isNewest = try reader.row(of: uuid.uuid) == number }
                let kept: Bool
                if isNewest {
                    kept = !(dropsDeletions && keys.isDeletion && keys.sequence <= deletionFloor)
                } else {
                    // A shadowed deletion stays for anchored queries from before it, down to the floor.
                    kept = keys.isDeletion && keys.sequence > deletionFloor
                }
                guard kept else {
                    try cursors[best].pass(in: self)
                    continue
                }
                do throws(SegmentWriterFailure) {
                    try writer.append(
                        keys, uuid: uuid, series: cursors[best].headSeries, indexed: isNewest
                    ) { (samples: inout BinaryWriter) throws(FileStoreError) in
                        try cursors[best].copy(in: self, into: &samples)
                    }
                } catch {
                    throw SegmentFileMaker.failure(error, making: name)
                }
                written += 1
            }
        }
        return try replace(run, with: made, name: name, rowsRead: rowsRead, written: written, copied: false)
    }

    /// Puts the segment `made` of `run` in its place and removes the files it replaces.
    private func replace(
        _ run: Range<Int>, with made: SegmentFileMaker.Made, name: SegmentName, rowsRead: Int, written: Int,
        copied: Bool
    ) throws(FileStoreError) -> SegmentCompaction {
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
            peakColumnBytes: made.peakColumnBytes, copiedRowBlocks: copied)
    }

    /// The segment of `run` made of its row blocks copied whole, or `nil`, with nothing changed, when the run is
    /// not one whose every row a merge keeps in the order its segments hold them (found before writing, or while:
    /// a deletion, a segment starting before the one before it ends, a UUID in two segments).
    private func copyingRowBlocks(
        _ run: Range<Int>, making name: SegmentName, with maker: SegmentFileMaker, rows: Int
    ) throws(FileStoreError) -> SegmentFileMaker.Made? {
        guard run.upperBound == segments.count, SeriesKind(sampleType: type) == nil else { return nil }
        let readers = segments[run].map(\.reader)
        for (earlier, later) in zip(readers, readers.dropFirst()) {
            // The later segment's first row must come after the earlier one's last; its last block's first row is
            // the index's nearest answer, the copy checks the rest.
            guard let last = earlier.rowBlocks.last, let first = later.rowBlocks.first,
                (last.firstStart, last.firstSequence) < (first.firstStart, first.firstSequence)
            else { return nil }
        }
        return try maker.makeUnlessGivenUp(name, expectedRows: rows) {
            (writer: inout SegmentWriter) throws(FileStoreError) -> Bool in
            for reader in readers {
                for block in reader.rowBlocks.indices {
                    let stored = try reader.storedRowBlock(block)
                    guard !stored.keys.flags.contains(where: { $0 & SegmentFormat.deletionFlag != 0 }) else {
                        return false
                    }
                    do throws(SegmentWriterFailure) {
                        try writer.appendStored(stored)
                    } catch {
                        if case .file(let failure) = error { throw failure }
                        return false
                    }
                }
            }
            return try Self.appendUUIDColumns(of: readers, to: &writer)
        }
    }

    /// Appends the UUID columns of `readers`' segments, whose rows were appended in that order, merged into one
    /// column in UUID order (each row's number moved past the rows of the segments before its).
    /// - Returns: `false` when a UUID is in two of the columns, or a column is out of order or has not one entry a
    ///   row (the rows then need a row-by-row merge).
    /// - Complexity: O(n · k) for n entries in k columns, each UUID block read once.
    private static func appendUUIDColumns(
        of readers: [SegmentReader], to writer: inout SegmentWriter
    ) throws(FileStoreError) -> Bool {
        var cursors: [UUIDColumnCursor] = []
        var rowBase = 0
        for reader in readers {
            cursors.append(UUIDColumnCursor(reader: reader, rowBase: rowBase))
            rowBase += reader.rowCount
        }
        var previous: SegmentUUIDOrder?
        while true {
            var best: (position: Int, order: SegmentUUIDOrder)?
            for position in cursors.indices {
                guard let order = try cursors[position].headOrder() else { continue }
                if let current = best, current.order <= order { continue }
                best = (position, order)
            }
            guard let best else { break }
            if let previous, previous >= best.order { return false }
            previous = best.order
            let (uuid, row) = cursors[best.position].take()
            try writer.appendUUIDEntry(uuid, row: row)
        }
        return cursors.allSatisfy { $0.taken == $0.reader.rowCount }
    }
}

/// A segment's UUID column read one block at a time, its rows numbered from `rowBase`.
private struct UUIDColumnCursor {
    let reader: SegmentReader
    let rowBase: Int
    private var block = 0
    private var entries: [(uuid: UUIDKey, row: UInt32)] = []
    private var next = 0
    /// The entries taken so far.
    private(set) var taken = 0

    init(reader: SegmentReader, rowBase: Int) {
        self.reader = reader
        self.rowBase = rowBase
    }

    /// The order of the next entry's UUID, or `nil` after the last entry.
    mutating func headOrder() throws(FileStoreError) -> SegmentUUIDOrder? {
        while next == entries.count {
            guard block < reader.uuidBlockCount else { return nil }
            entries = try reader.uuidEntries(ofBlock: block)
            block += 1
            next = 0
        }
        return SegmentUUIDOrder(entries[next].uuid)
    }

    /// Takes the next entry: its UUID and its row's number counted from `rowBase`.
    /// - Precondition: ``headOrder()`` returned an order.
    mutating func take() -> (uuid: UUIDKey, row: Int) {
        defer {
            next += 1
            taken += 1
        }
        return (entries[next].uuid, rowBase + Int(entries[next].row))
    }
}

/// A segment's rows in `(start, sequence)` order, one row block at a time, read for copying: the keys of each
/// row, and its sample copied (or passed over) without being decoded.
private struct BlockCursor {
    let segment: Int
    private var block = 0
    private var rows: SegmentEncodedRows?

    init(segment: Int) {
        self.segment = segment
    }

    /// The keys of the next row, or `nil` after the last.
    mutating func head(in storage: SegmentedTypeStorage) throws(FileStoreError) -> SegmentRowKeys? {
        let reader = storage.segments[segment].reader
        while rows.map({ $0.next == $0.keys.count }) ?? true {
            guard block < reader.rowBlocks.count else { return nil }
            rows = try reader.encodedRows(ofBlock: block)
            block += 1
        }
        return rows.map { $0.keys[$0.next] }
    }

    /// The head's row number in its segment.
    /// - Precondition: ``head(in:)`` returned a row.
    func rowNumber(in storage: SegmentedTypeStorage) -> Int {
        storage.segments[segment].reader.rowBlocks[block - 1].firstRow + rows!.next
    }

    /// The UUID of the head's sample.
    /// - Precondition: ``head(in:)`` returned a row.
    func headUUID(in storage: SegmentedTypeStorage) throws(FileStoreError) -> UUIDKey {
        do {
            return try rows!.nextUUID()
        } catch {
            let reader = storage.segments[segment].reader
            throw .corruptFile(
                name: reader.name, offset: reader.rowBlocks[block - 1].extent.offset,
                problem: .undecodable(error.reason))
        }
    }

    /// The head's series, if it keeps one.
    /// - Precondition: ``head(in:)`` returned a row.
    var headSeries: SegmentRowSeries? { rows!.series[rows!.next] }

    /// Copies the head's sample into `writer` and moves to the next row.
    mutating func copy(in storage: SegmentedTypeStorage, into writer: inout BinaryWriter) throws(FileStoreError) {
        try storage.segments[segment].reader.copySample(of: &rows!, into: &writer)
    }

    /// Moves past the head's row, reading its sample (later samples' strings may refer to its).
    mutating func pass(in storage: SegmentedTypeStorage) throws(FileStoreError) {
        try storage.segments[segment].reader.passSample(of: &rows!)
    }
}
