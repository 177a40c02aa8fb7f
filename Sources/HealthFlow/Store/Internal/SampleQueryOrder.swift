import Foundation

/// Where a sample stands in a sample query's results: the query's ``SampleSortDescriptor``s, then ascending start
/// date, then the order the samples entered the store — a total order, so results are deterministic.
struct SampleQueryOrder: Sendable {
    let descriptors: [SampleSortDescriptor]

    /// What the order reads of a sample: its dates as seconds since the reference date, and a number that grows
    /// with the order samples entered the store (a change sequence number serves).
    struct Key: Sendable {
        let start: Double
        let end: Double
        let rank: UInt64

        init(start: Double, end: Double, rank: UInt64) {
            self.start = start
            self.end = end
            self.rank = rank
        }

        init(_ sample: HealthSample, rank: UInt64) {
            start = sample.startDate.timeIntervalSinceReferenceDate
            end = sample.endDate.timeIntervalSinceReferenceDate
            self.rank = rank
        }
    }

    /// Whether `lhs` comes before `rhs`.
    func precedes(_ lhs: Key, _ rhs: Key) -> Bool {
        for descriptor in descriptors {
            let (left, right) = descriptor.key == .startDate ? (lhs.start, rhs.start) : (lhs.end, rhs.end)
            if left != right { return descriptor.ascending ? left < right : left > right }
        }
        if lhs.start != rhs.start { return lhs.start < rhs.start }
        return lhs.rank < rhs.rank
    }
}

/// The first `limit` samples of a ``SampleQueryOrder`` (every one for a limit of 0), picked while the matches go
/// by: with a limit, no more than `max(2 × limit, 64)` samples are held at once, whatever the number of matches.
struct SampleQuerySelection: Sendable {
    private let order: SampleQueryOrder
    private let limit: Int
    private var held: [(key: SampleQueryOrder.Key, sample: HealthSample)] = []
    /// The last of the `limit` samples kept at the latest trim: a later sample that does not precede it cannot
    /// be among the results.
    private var cutoff: SampleQueryOrder.Key?

    init(_ order: SampleQueryOrder, limit: Int) {
        self.order = order
        self.limit = max(0, limit)
    }

    /// How many samples are held now.
    var heldCount: Int { held.count }

    /// Considers `sample`, which entered the store at `rank` (see ``SampleQueryOrder/Key``).
    /// - Complexity: Amortized O(log limit) with a limit; O(1) without.
    mutating func add(_ sample: HealthSample, rank: UInt64) {
        let key = SampleQueryOrder.Key(sample, rank: rank)
        if let cutoff, !order.precedes(key, cutoff) { return }
        held.append((key, sample))
        if limit > 0, held.count >= max(2 * limit, 64) { trim() }
    }

    /// The samples picked, in order.
    /// - Complexity: O(h log h) for the h samples held.
    consuming func samples() -> [HealthSample] {
        trim()
        return held.map(\.sample)
    }

    /// Sorts what is held and, with a limit, keeps only the first `limit`.
    private mutating func trim() {
        held.sort { order.precedes($0.key, $1.key) }
        guard limit > 0, held.count >= limit else { return }
        held.removeLast(held.count - limit)
        cutoff = held.last?.key
    }
}
