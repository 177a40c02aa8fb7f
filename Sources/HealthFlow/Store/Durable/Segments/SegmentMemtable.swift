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
struct SegmentMemtable {
    private var versions: [UUIDKey: (row: SegmentRow, bytes: Int)] = [:]
    /// Deletions a newer version of their UUID replaced, in sequence order.
    private var superseded: [SegmentRow] = []
    /// The encoded size of the versions held (``SegmentMemtableLimit/bytes``).
    private(set) var bytes = 0

    /// The versions held, superseded deletions included.
    var count: Int { versions.count + superseded.count }
    var isEmpty: Bool { versions.isEmpty && superseded.isEmpty }

    func isFull(_ limit: SegmentMemtableLimit) -> Bool {
        count >= limit.rows || bytes >= limit.bytes
    }

    /// The version of `uuid` held here, live or deleted.
    /// - Complexity: O(1).
    func version(of uuid: UUIDKey) -> SegmentRow? {
        versions[uuid]?.row
    }

    /// Holds `row` as the newest version of its sample's UUID, replacing the one held; a replaced deletion is
    /// kept as superseded, a replaced live sample is dropped.
    /// - Complexity: O(size of the sample).
    mutating func put(_ row: SegmentRow) {
        let size = SegmentRowFootprint.bytes(of: row)
        let key = UUIDKey(row.entry.sample.uuid)
        if let replaced = versions.updateValue((row, size), forKey: key) {
            if replaced.row.isDeletion {
                superseded.append(replaced.row)
            } else {
                bytes -= replaced.bytes
            }
        }
        bytes += size
    }

    mutating func removeAll() {
        versions = [:]
        superseded = []
        bytes = 0
    }

    /// Every version in `(start, sequence)` order, a segment's row order, each with whether it is its UUID's
    /// newest (a superseded deletion is not).
    /// - Complexity: O(m log m) for m versions.
    func rowsInStartOrder() -> [(row: SegmentRow, isNewest: Bool)] {
        (versions.values.map { ($0.row, true) } + superseded.map { ($0, false) })
            .sorted { ($0.0.entry.start, $0.0.entry.sequence) < ($1.0.entry.start, $1.0.entry.sequence) }
    }

    /// The live rows starting in `lowerStart..<upperStart` and ending at or after `lowerEnd` (absent bounds do
    /// not narrow), in `(start, sequence)` order.
    /// - Complexity: O(m + r log r) for m versions and r matches.
    func liveRows(startingFrom lowerStart: Double?, below upperStart: Double?, endingAtOrAfter lowerEnd: Double?)
        -> [SegmentRow]
    {
        versions.values.lazy.map(\.row)
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
        (versions.values.map(\.row) + superseded).filter { $0.entry.sequence > sequence }.sorted {
            $0.entry.sequence < $1.entry.sequence
        }
    }
}
