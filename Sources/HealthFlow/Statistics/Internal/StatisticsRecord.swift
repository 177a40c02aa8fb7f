import Foundation

/// What the statistics arithmetic reads of one sample: times as seconds since the reference date, the value in
/// the type's canonical unit, a source index and the UUID's bits (for deterministic tie-breaks). Implemented by
/// ``StatisticsRecord`` (a sample's copy) and by a position in ``SampleColumns`` (read in place), so that both
/// run through the same arithmetic and give the same results, bit for bit.
protocol StatisticsRecordFields {
    var start: Double { get }
    var end: Double { get }
    var value: Double { get }
    var source: Int { get }
    var idHigh: UInt64 { get }
    var idLow: UInt64 { get }
}

extension StatisticsRecordFields {
    var isInstantaneous: Bool {
        @inline(__always) get { end == start }
    }

    /// Whether the record counts for the half-open window `[lower, upper)`: an interval sample must overlap
    /// it for a positive time; an instantaneous one must lie inside it.
    @inline(__always)
    func matches(_ lower: Double, _ upper: Double) -> Bool {
        isInstantaneous ? (start >= lower && start < upper) : (start < upper && end > lower)
    }

    /// The record as a value of its own.
    var record: StatisticsRecord {
        StatisticsRecord(start: start, end: end, value: value, source: source, idHigh: idHigh, idLow: idLow)
    }
}

/// One sample reduced to what statistics need (see ``StatisticsRecordFields``).
struct StatisticsRecord: StatisticsRecordFields, Sendable {
    let start: Double
    let end: Double
    let value: Double
    let source: Int
    let idHigh: UInt64
    let idLow: UInt64

    /// Start, then end, then UUID: the order records are kept in.
    @inline(__always)
    static func precedes(_ lhs: some StatisticsRecordFields, _ rhs: some StatisticsRecordFields) -> Bool {
        if lhs.start != rhs.start { return lhs.start < rhs.start }
        if lhs.end != rhs.end { return lhs.end < rhs.end }
        if lhs.idHigh != rhs.idHigh { return lhs.idHigh < rhs.idHigh }
        return lhs.idLow < rhs.idLow
    }

    /// Whether `lhs` is more recent than `rhs`: later end, then later start, then larger UUID.
    @inline(__always)
    static func isMoreRecent(_ lhs: some StatisticsRecordFields, than rhs: some StatisticsRecordFields) -> Bool {
        if lhs.end != rhs.end { return lhs.end > rhs.end }
        if lhs.start != rhs.start { return lhs.start > rhs.start }
        if lhs.idHigh != rhs.idHigh { return lhs.idHigh > rhs.idHigh }
        return lhs.idLow > rhs.idLow
    }

    /// Where a record's span ends for coverage: its end — or just past its start for an instantaneous record, so
    /// that a half-open window over the span still holds it.
    @inline(__always)
    static func coverageEnd(start: Double, end: Double) -> Double {
        end > start ? end : start.nextUp
    }

    /// Whether `records` are in ``precedes(_:_:)`` order.
    /// - Complexity: O(n).
    static func areInOrder(_ records: [StatisticsRecord]) -> Bool {
        zip(records, records.dropFirst()).allSatisfy { !precedes($1, $0) }
    }

    /// A UUID's 128 bits as two words, most significant first (so that the words order UUIDs as their bytes do).
    static func bits(of uuid: UUID) -> (high: UInt64, low: UInt64) {
        let u = uuid.uuid
        let high = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = [u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (high, low)
    }
}

/// Samples of one type checked, converted to canonical values and sorted once, ready for any number of
/// windows.
struct PreparedStatisticsInput: Sendable {
    let type: HealthObjectType
    let style: HealthObjectType.AggregationStyle
    let unit: HealthUnit
    let options: StatisticsOptions
    /// Sorted with `StatisticsRecord.precedes`.
    let records: [StatisticsRecord]
    /// Indexed by `StatisticsRecord.source`.
    let sources: [HealthSource]

    /// - Complexity: O(n log n) for n samples.
    init(type: HealthObjectType, samples: [HealthQuantitySample], options: StatisticsOptions) throws(StatisticsError) {
        try self.init(StatisticsRecordGatherer(type: type, samples: samples), options: options)
    }

    /// The input of the samples `gathered` holds, its records sorted (in place when `gathered` holds the only
    /// reference to them and they are not in order yet).
    /// - Throws: The options' error for the type, then the gatherer's ``StatisticsRecordGatherer/problem``.
    /// - Complexity: O(n log n) for n records; O(n) when they are in order already.
    init(_ gathered: consuming StatisticsRecordGatherer, options: StatisticsOptions) throws(StatisticsError) {
        let type = gathered.type
        try options.validate(for: type)
        guard let style = type.aggregationStyle, let unit = type.canonicalUnit else { throw .notAQuantityType(type) }
        if let problem = gathered.problem { throw problem }
        gathered.sortRecords()
        self.type = type
        self.style = style
        self.unit = unit
        self.options = options
        self.records = gathered.records
        self.sources = gathered.sources
    }

    /// The arithmetic's settings without records, for records read elsewhere (``SampleColumns``), whose source
    /// indices point into `sources`.
    /// - Throws: As ``init(type:samples:options:)`` for the options.
    init(type: HealthObjectType, options: StatisticsOptions, sources: [HealthSource]) throws(StatisticsError) {
        try options.validate(for: type)
        guard let style = type.aggregationStyle, let unit = type.canonicalUnit else { throw .notAQuantityType(type) }
        self.type = type
        self.style = style
        self.unit = unit
        self.options = options
        self.records = []
        self.sources = sources
    }

    /// The statistics of `matched` (records in sorted order that all match `window`), or `nil` when empty.
    ///
    /// - Parameters:
    ///   - matched: The records that count, in sorted order.
    ///   - window: The half-open window `[lower, upper)`, or `nil` for no window.
    ///   - bounds: The result's start and end; by default the earliest start and latest end of `matched`.
    func statistics<Records: RandomAccessCollection>(
        of matched: Records, window: (lower: Double, upper: Double)?, bounds: DateInterval? = nil
    ) -> HealthStatistics? where Records.Element: StatisticsRecordFields, Records.Index == Int {
        guard let first = matched.first else { return nil }
        let overall = StatisticsAggregator.values(of: matched, window: window, style: style, options: options)
        var bySource: [HealthSource: StatisticsValues] = [:]
        if options.contains(.separateBySource) {
            var groups: [Int: [StatisticsRecord]] = [:]
            for record in matched { groups[record.source, default: []].append(record.record) }
            for (source, group) in groups {
                bySource[sources[source]] = StatisticsAggregator.values(
                    of: group, window: window, style: style, options: options)
            }
        }
        let interval: DateInterval
        if let bounds {
            interval = bounds
        } else {
            let lower = first.start
            let upper = matched.reduce(first.end) { max($0, $1.end) }
            interval = DateInterval(
                start: Date(timeIntervalSinceReferenceDate: lower), end: Date(timeIntervalSinceReferenceDate: upper))
        }
        return HealthStatistics(
            quantityType: type, unit: unit, startDate: interval.start, endDate: interval.end, overall: overall,
            bySource: bySource)
    }

    /// The statistics of the records matching `window` (every record without one), or `nil` when none does.
    /// - Throws: `.invalidDateRange` for a window with a non-finite or reversed bound.
    /// - Complexity: O(n) for n records.
    func statistics(in window: DateInterval?) throws(StatisticsError) -> HealthStatistics? {
        guard let window else { return statistics(of: records, window: nil) }
        let lower = window.start.timeIntervalSinceReferenceDate
        let upper = window.end.timeIntervalSinceReferenceDate
        guard lower.isFinite, upper.isFinite, upper >= lower else {
            throw .invalidDateRange(start: window.start, end: window.end)
        }
        let matched = records.filter { $0.matches(lower, upper) }
        return statistics(of: matched, window: (lower, upper))
    }
}
