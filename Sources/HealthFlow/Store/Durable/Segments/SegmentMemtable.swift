/// How large a type's memtable may grow before it is written as a segment: it is flushed once it holds `rows`
/// versions or holds an estimated `bytes` bytes, whichever comes first.
struct SegmentMemtableLimit: Equatable {
    /// Versions (live samples and deletions), at least 1.
    let rows: Int
    /// Bytes the rows hold in memory, as ``SegmentRowFootprint`` estimates them.
    let bytes: Int

    init(rows: Int, bytes: Int) {
        precondition(rows > 0 && bytes > 0, "a memtable limit is positive")
        self.rows = rows
        self.bytes = bytes
    }

    /// 4,096 rows or 4 MiB.
    static let standard = SegmentMemtableLimit(rows: 4_096, bytes: 4 << 20)
}

/// The changes of one type not yet written to a segment: for each UUID, its newest version — a live sample or a
/// deletion (``SegmentRow/isDeletion``) — and the deletions a newer version of their UUID replaced (kept, as the
/// in-memory store keeps every deletion, for anchored queries). Newer than every segment of the type.
///
/// The versions are kept in the order they were put, which is sequence order and, for data arriving in time order
/// (an export, a sync), start order too: a flush then sorts rows that are already in order, comparing each with
/// its neighbour, and moves none of them.
struct SegmentMemtable {
    /// What became of a version held.
    private enum Standing {
        /// Its UUID's newest version.
        case newest
        /// A deletion a newer version of its UUID replaced: kept, as the in-memory store keeps every deletion.
        case superseded
        /// A live sample a newer version replaced: no longer part of the memtable, its slot reclaimed at the next
        /// compaction.
        case dropped
    }

    /// A version held, with its estimated size and standing.
    private struct Version {
        let row: SegmentRow
        let bytes: Int
        var standing: Standing
    }

    /// Every version in the order put, dropped ones included until ``compactIfDue()`` removes them. Not optional:
    /// a flush reads each row in place, where unwrapping an optional element would copy it (a retain of each of
    /// its sample's references).
    private var versions: [Version] = []
    /// Where each UUID's newest version is in ``versions`` (a ``UUIDTable``: no `Hasher` per put).
    private var newest = UUIDTable<Int>()
    /// How many of ``versions`` are dropped.
    private var dropped = 0
    /// The encoded size of the versions held (``SegmentMemtableLimit/bytes``).
    private(set) var bytes = 0
    /// The versions held, superseded deletions included.
    private(set) var count = 0
    /// The `(start, sequence)` of the version put last, and whether every version was put in that order.
    private var lastPut: (start: Double, sequence: UInt64)?
    private var isInStartOrder = true

    var isEmpty: Bool { count == 0 }

    /// The versions kept in memory, dropped ones not yet removed included: at most about twice ``count``.
    var keptVersions: Int { versions.count }

    func isFull(_ limit: SegmentMemtableLimit) -> Bool {
        count >= limit.rows || bytes >= limit.bytes
    }

    /// The version of `uuid` held here, live or deleted.
    /// - Complexity: O(1).
    func version(of uuid: UUIDKey) -> SegmentRow? {
        newest[uuid].map { versions[$0].row }
    }

    /// Calls `body` with each UUID held, once, in no particular order.
    func forEachKey(_ body: (UUIDKey) -> Void) {
        newest.forEach { key, _ in body(key) }
    }

    /// Holds `row` as the newest version of its sample's UUID, replacing the one held; a replaced deletion is
    /// kept as superseded, a replaced live sample is dropped.
    /// - Complexity: O(size of the sample), amortized: dropped versions are removed once they outnumber the
    ///   versions held, in O(m) for m versions.
    mutating func put(_ row: consuming SegmentRow) {
        let size = SegmentRowFootprint.bytes(of: row)
        // One probe: the UUID's slot takes the position the row is about to have, giving the one it had.
        if let position = newest.updateValue(versions.count, forKey: UUIDKey(row.entry.sample.uuid)) {
            if versions[position].row.isDeletion {
                versions[position].standing = .superseded
            } else {
                versions[position].standing = .dropped
                bytes -= versions[position].bytes
                count -= 1
                dropped += 1
            }
        }
        let put = (start: row.entry.start, sequence: row.entry.sequence)
        if let lastPut, lastPut > put { isInStartOrder = false }
        lastPut = put
        versions.append(Version(row: row, bytes: size, standing: .newest))
        bytes += size
        count += 1
        compactIfDue()
    }

    /// Removes the dropped versions once they outnumber the ones held, so a memtable whose samples are saved
    /// again and again holds at most about twice its versions.
    private mutating func compactIfDue() {
        guard dropped > 64, dropped > count else { return }
        versions.removeAll { $0.standing == .dropped }
        dropped = 0
        for position in versions.indices where versions[position].standing == .newest {
            newest[UUIDKey(versions[position].row.entry.sample.uuid)] = position
        }
    }

    /// Puts every version `newer` holds (its dropped ones aside) in the order it took them, each newer than every
    /// version held here: a sealed memtable whose segment could not be written takes back the rows put since.
    /// - Complexity: O(n) for n versions of `newer`, amortized.
    mutating func putNewer(_ newer: SegmentMemtable) {
        for version in newer.versions where version.standing != .dropped { put(version.row) }
    }

    mutating func removeAll() {
        versions = []
        newest = UUIDTable()
        dropped = 0
        bytes = 0
        count = 0
        lastPut = nil
        isInStartOrder = true
    }

    /// Calls `body` with every version in `(start, sequence)` order, a segment's row order, and whether it is its
    /// UUID's newest (a superseded deletion is not). Each row is read in place, through the array's buffer.
    /// - Complexity: O(m) for m versions put in start order (known as they are put); else O(m log m), a sort of
    ///   their positions.
    func forEachInStartOrder<Failure: Error>(
        _ body: (_ row: SegmentRow, _ isNewest: Bool) throws(Failure) -> Void
    ) throws(Failure) {
        try versions.withUnsafeBufferPointer { (held) throws(Failure) in
            guard !isInStartOrder else {
                for position in held.indices where held[position].standing != .dropped {
                    try body(held[position].row, held[position].standing == .newest)
                }
                return
            }
            var positions = held.indices.filter { held[$0].standing != .dropped }
            positions.sort { first, second in
                (held[first].row.entry.start, held[first].row.entry.sequence)
                    < (held[second].row.entry.start, held[second].row.entry.sequence)
            }
            for position in positions { try body(held[position].row, held[position].standing == .newest) }
        }
    }

    /// The live rows starting in `lowerStart..<upperStart` and ending at or after `lowerEnd` (absent bounds do
    /// not narrow), in `(start, sequence)` order.
    /// - Complexity: O(m + r log r) for m versions and r matches.
    func liveRows(startingFrom lowerStart: Double?, below upperStart: Double?, endingAtOrAfter lowerEnd: Double?)
        -> [SegmentRow]
    {
        versions.lazy.filter { $0.standing != .dropped }.map(\.row)
            .filter {
                !$0.isDeletion
                    && SegmentRangeFilter.matches(
                        $0.entry, startingFrom: lowerStart, below: upperStart, endingAtOrAfter: lowerEnd)
            }
            .sorted { ($0.entry.start, $0.entry.sequence) < ($1.entry.start, $1.entry.sequence) }
    }

    /// The versions after `sequence`, superseded deletions included, in sequence order.
    /// - Complexity: O(m + r log r) for m versions and r returned.
    func rows(after sequence: UInt64) -> [SegmentRow] {
        versions.lazy.filter { $0.standing != .dropped }.map(\.row).filter { $0.entry.sequence > sequence }.sorted {
            $0.entry.sequence < $1.entry.sequence
        }
    }
}
