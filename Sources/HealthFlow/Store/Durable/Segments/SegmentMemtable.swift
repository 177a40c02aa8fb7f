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
    /// A version held, with its estimated size and whether it is its UUID's newest.
    private struct Version {
        let row: SegmentRow
        let bytes: Int
        var isNewest: Bool
    }

    /// Every version in the order put; a live version a newer one replaced is dropped (`nil`), a deletion kept.
    private var versions: [Version?] = []
    /// Where each UUID's newest version is in ``versions``.
    private var newest: [UUIDKey: Int] = [:]
    /// The encoded size of the versions held (``SegmentMemtableLimit/bytes``).
    private(set) var bytes = 0
    /// The versions held, superseded deletions included.
    private(set) var count = 0
    /// The `(start, sequence)` of the version put last, and whether every version was put in that order.
    private var lastPut: (start: Double, sequence: UInt64)?
    private var isInStartOrder = true

    var isEmpty: Bool { count == 0 }

    func isFull(_ limit: SegmentMemtableLimit) -> Bool {
        count >= limit.rows || bytes >= limit.bytes
    }

    /// The version of `uuid` held here, live or deleted.
    /// - Complexity: O(1).
    func version(of uuid: UUIDKey) -> SegmentRow? {
        newest[uuid].flatMap { versions[$0]?.row }
    }

    /// The UUIDs held, each once, in no particular order.
    var keys: Dictionary<UUIDKey, Int>.Keys { newest.keys }

    /// Holds `row` as the newest version of its sample's UUID, replacing the one held; a replaced deletion is
    /// kept as superseded, a replaced live sample is dropped.
    /// - Complexity: O(size of the sample).
    mutating func put(_ row: consuming SegmentRow) {
        let size = SegmentRowFootprint.bytes(of: row)
        let key = UUIDKey(row.entry.sample.uuid)
        if let position = newest[key], let replaced = versions[position] {
            if replaced.row.isDeletion {
                versions[position]?.isNewest = false
            } else {
                versions[position] = nil
                bytes -= replaced.bytes
                count -= 1
            }
        }
        let put = (start: row.entry.start, sequence: row.entry.sequence)
        if let lastPut, lastPut > put { isInStartOrder = false }
        lastPut = put
        newest[key] = versions.count
        versions.append(Version(row: row, bytes: size, isNewest: true))
        bytes += size
        count += 1
    }

    mutating func removeAll() {
        versions = []
        newest = [:]
        bytes = 0
        count = 0
        lastPut = nil
        isInStartOrder = true
    }

    /// Calls `body` with every version in `(start, sequence)` order, a segment's row order, and whether it is its
    /// UUID's newest (a superseded deletion is not). The versions are read through the array's buffer, one copy
    /// of each for `body`.
    /// - Complexity: O(m) for m versions put in start order (known as they are put); else O(m log m), a sort of
    ///   their positions.
    func forEachInStartOrder<Failure: Error>(
        _ body: (_ row: SegmentRow, _ isNewest: Bool) throws(Failure) -> Void
    ) throws(Failure) {
        // Through the buffer: ordering the versions through the array's subscript copied each (a retain of each
        // of its sample's references) once more per comparison.
        try versions.withUnsafeBufferPointer { (held) throws(Failure) in
            guard !isInStartOrder else {
                for version in held where version != nil { try body(version!.row, version!.isNewest) }
                return
            }
            var positions = held.indices.filter { held[$0] != nil }
            positions.sort { first, second in
                (held[first]!.row.entry.start, held[first]!.row.entry.sequence)
                    < (held[second]!.row.entry.start, held[second]!.row.entry.sequence)
            }
            for position in positions { try body(held[position]!.row, held[position]!.isNewest) }
        }
    }

    /// The live rows starting in `lowerStart..<upperStart` and ending at or after `lowerEnd` (absent bounds do
    /// not narrow), in `(start, sequence)` order.
    /// - Complexity: O(m + r log r) for m versions and r matches.
    func liveRows(startingFrom lowerStart: Double?, below upperStart: Double?, endingAtOrAfter lowerEnd: Double?)
        -> [SegmentRow]
    {
        versions.lazy.compactMap { $0?.row }
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
        versions.lazy.compactMap { $0?.row }.filter { $0.entry.sequence > sequence }.sorted {
            $0.entry.sequence < $1.entry.sequence
        }
    }
}
