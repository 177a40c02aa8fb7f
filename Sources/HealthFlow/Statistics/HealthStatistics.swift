import Foundation

/// The result of a statistics computation over quantity samples — the counterpart of `HKStatistics`.
///
/// Only the values the options asked for are present; the others are `nil`. Values are quantities in the
/// type's canonical unit (`count` for steps, `count/s` for heart rate; read them in any compatible unit).
///
/// ## The rules
/// - **Matching.** A sample with a duration counts for a window `[start, end)` when it overlaps the
///   window for a positive time; an instantaneous sample counts when its instant lies in `[start, end)`.
///   Every sample thus counts in exactly one of a row of contiguous windows, or proportionally in several.
/// - **Sum** (cumulative types). A sample straddling an edge counts in proportion to its time inside the
///   window: 100 steps from 13:57 to 14:02 give 60 to 13:00–14:00 and 40 to 14:00–15:00.
/// - **Minimum, maximum** (discrete types). Every matched sample counts with its full value, straddling
///   or not.
/// - **Average.** `discreteArithmetic`: the mean of the matched values, each once, straddling or not.
///   `discreteTemporallyWeighted`: each value weighted by time — an interval sample by the time it
///   overlaps the window; an instantaneous sample by the time it holds until the next later sample of the
///   same group starts, the last one until the window ends (without a window, until the latest end among
///   the matched samples). Readings at the same instant share their hold equally. When every weight is
///   zero (a lone instantaneous reading and no window) the arithmetic mean is used.
///   `discreteEquivalentContinuousLevel` (sound levels): the same weights applied to sound energy,
///   `10·log10(Σ wᵢ·10^(Lᵢ/10) / Σ wᵢ)`.
///   HealthKit's exact weighting of instantaneous samples is undocumented; this rule is ours.
/// - **Most recent.** The sample with the latest end date (ties: latest start, then largest UUID) with its
///   full value and unclipped date interval.
/// - **Duration.** The time covered by the matched samples — the union of their intervals clipped to the
///   window — so overlapping samples from two sources are not counted twice.
/// - **Sources.** With `separateBySource` every value is also computed per source (the "group" above is
///   then one source's samples). Overall values combine all sources; HealthKit's source-priority
///   de-duplication is not modelled.
/// - **Dates.** `startDate`/`endDate` are the earliest start and latest end of the matched samples; in a
///   `StatisticsCollection` they are the interval's bounds, as in HealthKit.
public struct HealthStatistics: Hashable, Sendable {
    /// The quantity type the statistics describe.
    public let quantityType: HealthObjectType
    /// The earliest start of the matched samples (a collection's interval start).
    public let startDate: Date
    /// The latest end of the matched samples (a collection's interval end).
    public let endDate: Date

    let unit: HealthUnit
    let overall: StatisticsValues
    let bySource: [HealthSource: StatisticsValues]

    package init(
        quantityType: HealthObjectType, unit: HealthUnit, startDate: Date, endDate: Date, overall: StatisticsValues,
        bySource: [HealthSource: StatisticsValues]
    ) {
        self.quantityType = quantityType
        self.unit = unit
        self.startDate = startDate
        self.endDate = endDate
        self.overall = overall
        self.bySource = bySource
    }

    /// Statistics with no values, for an interval without data.
    static func empty(_ type: HealthObjectType, unit: HealthUnit, interval: DateInterval) -> HealthStatistics {
        HealthStatistics(
            quantityType: type, unit: unit, startDate: interval.start, endDate: interval.end,
            overall: StatisticsValues(), bySource: [:])
    }

    /// The sources with data, sorted by bundle identifier then name; empty unless the options held
    /// `separateBySource`.
    public var sources: [HealthSource] {
        bySource.keys.sorted { ($0.bundleIdentifier, $0.name) < ($1.bundleIdentifier, $1.name) }
    }

    /// Whether no value was computed (an empty interval of a collection).
    public var isEmpty: Bool { overall == StatisticsValues() }

    private func quantity(_ value: Double?) -> HealthQuantity? {
        value.map { HealthQuantity(unit: unit, doubleValue: $0) }
    }

    /// The sum over all sources (cumulative types, `cumulativeSum`).
    ///
    /// - Returns: The sum in the canonical unit, or `nil` when not requested.
    public func sumQuantity() -> HealthQuantity? { quantity(overall.sum) }

    /// One source's sum (`cumulativeSum` with `separateBySource`).
    ///
    /// - Parameter source: A source.
    /// - Returns: The sum, or `nil` when not requested or the source has no data.
    public func sumQuantity(for source: HealthSource) -> HealthQuantity? { quantity(bySource[source]?.sum) }

    /// The average over all sources (discrete types, `discreteAverage`).
    ///
    /// - Returns: The average, or `nil` when not requested.
    public func averageQuantity() -> HealthQuantity? { quantity(overall.average) }

    /// One source's average.
    ///
    /// - Parameter source: A source.
    /// - Returns: The average, or `nil` when not requested or the source has no data.
    public func averageQuantity(for source: HealthSource) -> HealthQuantity? { quantity(bySource[source]?.average) }

    /// The smallest value over all sources (discrete types, `discreteMin`).
    ///
    /// - Returns: The minimum, or `nil` when not requested.
    public func minimumQuantity() -> HealthQuantity? { quantity(overall.minimum) }

    /// One source's smallest value.
    ///
    /// - Parameter source: A source.
    /// - Returns: The minimum, or `nil` when not requested or the source has no data.
    public func minimumQuantity(for source: HealthSource) -> HealthQuantity? { quantity(bySource[source]?.minimum) }

    /// The largest value over all sources (discrete types, `discreteMax`).
    ///
    /// - Returns: The maximum, or `nil` when not requested.
    public func maximumQuantity() -> HealthQuantity? { quantity(overall.maximum) }

    /// One source's largest value.
    ///
    /// - Parameter source: A source.
    /// - Returns: The maximum, or `nil` when not requested or the source has no data.
    public func maximumQuantity(for source: HealthSource) -> HealthQuantity? { quantity(bySource[source]?.maximum) }

    /// The most recent sample's full value over all sources (`mostRecent`).
    ///
    /// - Returns: The value, or `nil` when not requested.
    public func mostRecentQuantity() -> HealthQuantity? { quantity(overall.mostRecent) }

    /// One source's most recent value.
    ///
    /// - Parameter source: A source.
    /// - Returns: The value, or `nil` when not requested or the source has no data.
    public func mostRecentQuantity(for source: HealthSource) -> HealthQuantity? {
        quantity(bySource[source]?.mostRecent)
    }

    /// The most recent sample's date interval (unclipped) over all sources (`mostRecent`).
    ///
    /// - Returns: The interval, or `nil` when not requested.
    public func mostRecentQuantityDateInterval() -> DateInterval? { overall.mostRecentInterval }

    /// One source's most recent sample's date interval.
    ///
    /// - Parameter source: A source.
    /// - Returns: The interval, or `nil` when not requested or the source has no data.
    public func mostRecentQuantityDateInterval(for source: HealthSource) -> DateInterval? {
        bySource[source]?.mostRecentInterval
    }

    /// The time covered by samples over all sources, in seconds (`duration`).
    ///
    /// - Returns: The covered time, or `nil` when not requested.
    public func duration() -> HealthQuantity? {
        overall.duration.map { HealthQuantity(unit: .second(), doubleValue: $0) }
    }

    /// The time covered by one source's samples, in seconds.
    ///
    /// - Parameter source: A source.
    /// - Returns: The covered time, or `nil` when not requested or the source has no data.
    public func duration(for source: HealthSource) -> HealthQuantity? {
        bySource[source]?.duration.map { HealthQuantity(unit: .second(), doubleValue: $0) }
    }
}

extension HealthStatistics {
    /// Computes statistics over quantity samples of one type, optionally within a time window — the pure
    /// engine behind a statistics query.
    ///
    /// See `HealthStatistics` for how samples are matched, prorated and weighted.
    ///
    /// - Parameters:
    ///   - type: A quantity type; every sample must be of it.
    ///   - samples: The samples, in any order.
    ///   - options: What to compute; checked with `StatisticsOptions.validate(for:)`.
    ///   - window: The half-open window `[start, end)`; `nil` counts every sample fully.
    /// - Returns: The statistics, or `nil` when no sample matched.
    /// - Throws: `StatisticsError` — `.notAQuantityType`, `.incompatibleOption`, `.unknownOptions`,
    ///   `.sampleTypeMismatch`, `.unitConversion` or `.invalidDateRange`.
    /// - Complexity: O(n log n) for n samples.
    public static func compute(
        _ type: HealthObjectType, from samples: [HealthQuantitySample], options: StatisticsOptions,
        in window: DateInterval? = nil
    ) throws(StatisticsError) -> HealthStatistics? {
        try PreparedStatisticsInput(type: type, samples: samples, options: options).statistics(in: window)
    }
}
