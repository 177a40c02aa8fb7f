import Foundation

/// A stored sample with its sort keys — start and end as seconds since the reference date, and the change
/// sequence number that added it (unique, so `(start, sequence)` orders entries totally) — and whether the
/// store's app owns it, so scans need not unpack the sample for the common checks.
struct IndexedSample {
    let start: Double
    let end: Double
    let sequence: UInt64
    let isOwned: Bool
    let sample: HealthSample

    init(sample: HealthSample, sequence: UInt64, isOwned: Bool) {
        self.init(
            sample: sample, start: sample.startDate.timeIntervalSinceReferenceDate,
            end: sample.endDate.timeIntervalSinceReferenceDate, sequence: sequence, isOwned: isOwned)
    }

    /// An entry whose caller has read `start` and `end` from the sample already.
    init(sample: HealthSample, start: Double, end: Double, sequence: UInt64, isOwned: Bool) {
        self.start = start
        self.end = end
        self.sequence = sequence
        self.isOwned = isOwned
        self.sample = sample
    }
}

/// A deletion as the store keeps it: the public tombstone plus the deleted sample, so anchored queries can
/// apply their predicate and the read rules to it.
struct StoredTombstone {
    let sequence: UInt64
    let object: HealthDeletedObject
    let sample: HealthSample
}

/// Everything stored for one type.
///
/// - `entries`: live samples sorted by `(start, sequence)`. Inserting a sample that starts at or after the
///   last one appends (the common case: data arrives roughly in time order); otherwise a binary search finds
///   the slot. A date-range search is two binary searches plus the matches.
/// - `additions` and `tombstones`: append-only logs in sequence order, for anchored queries. An addition
///   whose sample was deleted since stays in the log and is skipped when read (its sequence no longer
///   matches a live sample).
struct TypeIndex {
    private(set) var entries: [IndexedSample] = []
    /// The longest `end - start` of any sample ever stored here (never shrinks): a sample ending at or after
    /// `t` starts at or after `t - longestDuration`.
    private(set) var longestDuration: Double = 0
    private(set) var additions: [(sequence: UInt64, uuid: UUIDKey)] = []
    private(set) var tombstones: [StoredTombstone] = []
    /// The type's samples as statistics columns: `nil` until a statistics query first reads them, then kept in
    /// step with every insertion and removal.
    var statisticsColumns: SampleColumns?

    /// An empty index.
    init() {}

    /// An index rebuilt from a snapshot: the live entries (sorted here by `(start, sequence)` unless they
    /// already are) and the two logs in sequence order. The longest duration is recomputed over every sample
    /// ever added — the live ones and the deleted ones the tombstones keep — which is what ``insert(_:)``
    /// computed as they arrived.
    /// - Complexity: O(n) when the entries come sorted, O(n log n) otherwise.
    init(
        restoringEntries entries: [IndexedSample], additions: [(sequence: UInt64, uuid: UUIDKey)],
        tombstones: [StoredTombstone]
    ) {
        var entries = entries
        var sorted = true
        var longest = 0.0
        for position in entries.indices {
            longest = max(longest, entries[position].end - entries[position].start)
            if position > 0,
                (entries[position - 1].start, entries[position - 1].sequence)
                    >= (entries[position].start, entries[position].sequence)
            {
                sorted = false
            }
        }
        if !sorted { entries.sort { ($0.start, $0.sequence) < ($1.start, $1.sequence) } }
        for tombstone in tombstones {
            longest = max(
                longest,
                tombstone.sample.endDate.timeIntervalSinceReferenceDate
                    - tombstone.sample.startDate.timeIntervalSinceReferenceDate)
        }
        self.entries = entries
        self.longestDuration = longest
        self.additions = additions
        self.tombstones = tombstones
    }

    /// Inserts a live sample; `uuid` is its sample's.
    /// - Complexity: Amortized O(1) when `start` is not earlier than the last entry's; O(log n + n) otherwise
    ///   (the binary search plus the array shift).
    mutating func insert(_ entry: consuming IndexedSample, uuid: UUIDKey) {
        let start = entry.start
        longestDuration = max(longestDuration, entry.end - start)
        additions.append((entry.sequence, uuid))
        statisticsColumns?.insert(entry)
        // The last start read in place: `entries.last` would copy the whole entry.
        let lastStart = entries.withUnsafeBufferPointer { $0.isEmpty ? -Double.infinity : $0[$0.count - 1].start }
        if lastStart > start {
            // The new sequence is the largest, so it goes after every entry with the same start.
            let slot = entries.partitioningIndex { $0.start > start }
            entries.insert(consume entry, at: slot)
        } else {
            entries.append(consume entry)
        }
    }

    /// The position of the live entry with this start and sequence, if any.
    /// - Complexity: O(log n).
    func position(start: Double, sequence: UInt64) -> Int? {
        let slot = entries.partitioningIndex { ($0.start, $0.sequence) >= (start, sequence) }
        guard slot < entries.count, entries[slot].sequence == sequence else { return nil }
        return slot
    }

    /// Removes a live entry and logs its tombstone.
    /// - Complexity: O(log n + n) (the array shift).
    @discardableResult
    mutating func remove(start: Double, sequence: UInt64, tombstone: StoredTombstone) -> IndexedSample? {
        guard let slot = position(start: start, sequence: sequence) else { return nil }
        tombstones.append(tombstone)
        let removed = entries.remove(at: slot)
        statisticsColumns?.remove(removed)
        return removed
    }

    /// Takes a live entry out without a tombstone, to be inserted again under a new sequence; its addition stays
    /// in the log, where it reads as stale (its sequence no longer matches a live entry), as a deleted one's does.
    /// - Complexity: O(log n + n) (the array shift).
    mutating func takeOut(start: Double, sequence: UInt64) -> IndexedSample? {
        guard let slot = position(start: start, sequence: sequence) else { return nil }
        let removed = entries.remove(at: slot)
        statisticsColumns?.remove(removed)
        return removed
    }

    /// The positions of entries starting in `lowerStart..<upperStart` (either bound may be absent).
    /// - Complexity: O(log n).
    func positions(startingFrom lowerStart: Double?, below upperStart: Double?) -> Range<Int> {
        let lower = lowerStart.map { bound in entries.partitioningIndex { $0.start >= bound } } ?? 0
        let upper = upperStart.map { bound in entries.partitioningIndex { $0.start >= bound } } ?? entries.count
        return lower..<max(lower, upper)
    }

    /// The position in `additions` of the first addition after `sequence`.
    /// - Complexity: O(log n).
    func firstAddition(after sequence: UInt64) -> Int {
        additions.partitioningIndex { $0.sequence > sequence }
    }

    /// The position in `tombstones` of the first deletion after `sequence`.
    /// - Complexity: O(log n).
    func firstTombstone(after sequence: UInt64) -> Int {
        tombstones.partitioningIndex { $0.sequence > sequence }
    }
}

extension RandomAccessCollection {
    /// The first index whose element satisfies `belongsToSecondPartition`, which must be false for a prefix
    /// of the collection and true for the rest; `endIndex` when none does.
    /// - Complexity: O(log n).
    func partitioningIndex(where belongsToSecondPartition: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if belongsToSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
