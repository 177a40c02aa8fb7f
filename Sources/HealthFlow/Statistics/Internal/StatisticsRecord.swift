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
        try options.validate(for: type)
        guard let style = type.aggregationStyle, let unit = type.canonicalUnit else { throw .notAQuantityType(type) }
        var sourceIndex: [HealthSource: Int] = [:]
        var sources: [HealthSource] = []
        var records: [StatisticsRecord] = []
        records.reserveCapacity(samples.count)
        for sample in samples {
            guard sample.type == type else {
                throw .sampleTypeMismatch(expected: type, found: sample.type, uuid: sample.uuid)
            }
            let value: Double
            do {
                value = try sample.quantity.doubleValue(for: unit)
            } catch {
                throw .unitConversion(type, error)
            }
            let source: Int
            if let index = sourceIndex[sample.source] {
                source = index
            } else {
                source = sources.count
                sourceIndex[sample.source] = source
                sources.append(sample.source)
            }
            let (high, low) = StatisticsRecord.bits(of: sample.uuid)
            records.append(
                StatisticsRecord(
                    start: sample.startDate.timeIntervalSinceReferenceDate,
                    end: sample.endDate.timeIntervalSinceReferenceDate, value: value, source: source, idHigh: high,
                    idLow: low))
        }
        records.sort(by: StatisticsRecord.precedes)
        self.type = type
        self.style = style
        self.unit = unit
        self.options = options
        self.records = records
        self.sources = sources
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
}
