import Foundation

/// The values of one statistics result (or of one source within it), in the type's canonical unit.
package struct StatisticsValues: Hashable, Sendable {
    package var sum: Double?
    package var average: Double?
    package var minimum: Double?
    package var maximum: Double?
    package var mostRecent: Double?
    package var mostRecentInterval: DateInterval?
    /// Seconds.
    package var duration: Double?

    /// No values (an interval without data).
    package init() {}
}

/// The arithmetic of statistics over one group of matched records; see `HealthStatistics` for the rules.
enum StatisticsAggregator {
    /// - Parameters:
    ///   - records: Matched records in sorted order (start, end, UUID).
    ///   - window: The half-open window, or `nil`.
    /// - Complexity: O(records.count).
    static func values<Records: RandomAccessCollection>(
        of records: Records, window: (lower: Double, upper: Double)?,
        style: HealthObjectType.AggregationStyle, options: StatisticsOptions
    ) -> StatisticsValues where Records.Element: StatisticsRecordFields, Records.Index == Int {
        var result = StatisticsValues()
        guard !records.isEmpty else { return result }
        if options.contains(.cumulativeSum) {
            result.sum = records.reduce(0) { $0 + proratedValue($1, window: window) }
        }
        if options.contains(.discreteMin) { result.minimum = records.lazy.map { $0.value }.min() }
        if options.contains(.discreteMax) { result.maximum = records.lazy.map { $0.value }.max() }
        if options.contains(.discreteAverage) { result.average = average(of: records, window: window, style: style) }
        if options.contains(.mostRecent), var latest = records.first {
            for record in records.dropFirst() where StatisticsRecord.isMoreRecent(record, than: latest) {
                latest = record
            }
            result.mostRecent = latest.value
            result.mostRecentInterval = DateInterval(
                start: Date(timeIntervalSinceReferenceDate: latest.start),
                end: Date(timeIntervalSinceReferenceDate: latest.end))
        }
        if options.contains(.duration) { result.duration = coveredTime(of: records, window: window) }
        return result
    }

    /// A cumulative record's share of the window: its value times the fraction of its duration inside the
    /// window; an instantaneous record (which matched, so lies inside) counts fully.
    @inline(__always)
    static func proratedValue(_ record: some StatisticsRecordFields, window: (lower: Double, upper: Double)?) -> Double
    {
        guard let window, !record.isInstantaneous else { return record.value }
        let lower = max(record.start, window.lower)
        let upper = min(record.end, window.upper)
        if lower <= record.start && upper >= record.end { return record.value }
        return record.value * (upper - lower) / (record.end - record.start)
    }

    /// The average for the type's aggregation style; `nil` for cumulative types.
    static func average<Records: RandomAccessCollection>(
        of records: Records, window: (lower: Double, upper: Double)?,
        style: HealthObjectType.AggregationStyle
    ) -> Double? where Records.Element: StatisticsRecordFields, Records.Index == Int {
        switch style {
        case .cumulative:
            return nil
        case .discreteArithmetic:
            return records.reduce(0) { $0 + $1.value } / Double(records.count)
        case .discreteTemporallyWeighted:
            return weightedAverage(of: records, window: window, transform: { $0 }, inverse: { $0 })
        case .discreteEquivalentContinuousLevel:
            // Energy average of sound levels: 10·log10(Σ wᵢ·10^(Lᵢ/10) / Σ wᵢ).
            return weightedAverage(
                of: records, window: window, transform: { pow(10, $0 / 10) }, inverse: { 10 * log10($0) })
        }
    }

    /// The time weights of `records` (in sorted order) within `window`.
    ///
    /// - An interval record weighs the time it overlaps the window (its whole duration without a window).
    /// - An instantaneous record holds its value until the next later start among `records`, or until the
    ///   horizon — the window's end, or without a window the latest end among `records`. Instantaneous
    ///   records at the same instant share that hold equally.
    static func weights<Records: RandomAccessCollection>(
        of records: Records, window: (lower: Double, upper: Double)?
    ) -> [Double] where Records.Element: StatisticsRecordFields, Records.Index == Int {
        let horizon = window?.upper ?? records.reduce(-Double.infinity) { max($0, $1.end) }
        let first = records.startIndex
        var weights = [Double](repeating: 0, count: records.count)
        // Walk backwards, remembering the next strictly later start.
        var nextLaterStart = horizon
        var index = records.endIndex - 1
        while index >= first {
            // The run of records sharing this start.
            let start = records[index].start
            var runStart = index
            while runStart > first && records[runStart - 1].start == start { runStart -= 1 }
            let run = records[runStart...index]
            let instants = run.reduce(0) { $0 + ($1.isInstantaneous ? 1 : 0) }
            let hold = max(0, min(nextLaterStart, horizon) - start)
            for position in runStart...index {
                let record = records[position]
                if record.isInstantaneous {
                    weights[position - first] = hold / Double(instants)
                } else if let window {
                    weights[position - first] = max(0, min(record.end, window.upper) - max(record.start, window.lower))
                } else {
                    weights[position - first] = record.end - record.start
                }
            }
            nextLaterStart = start
            index = runStart - 1
        }
        return weights
    }

    /// Σ wᵢ·f(vᵢ) / Σ wᵢ mapped through `inverse`; the unweighted mean when every weight is zero.
    private static func weightedAverage<Records: RandomAccessCollection>(
        of records: Records, window: (lower: Double, upper: Double)?, transform: (Double) -> Double,
        inverse: (Double) -> Double
    ) -> Double where Records.Element: StatisticsRecordFields, Records.Index == Int {
        let weights = weights(of: records, window: window)
        var total = 0.0
        var weighted = 0.0
        for (record, weight) in zip(records, weights) {
            total += weight
            weighted += weight * transform(record.value)
        }
        if total > 0 { return inverse(weighted / total) }
        return inverse(records.reduce(0) { $0 + transform($1.value) } / Double(records.count))
    }

    /// The length of the union of the records' intervals, clipped to the window, in seconds.
    static func coveredTime<Records: Collection>(
        of records: Records, window: (lower: Double, upper: Double)?
    ) -> Double where Records.Element: StatisticsRecordFields {
        var total = 0.0
        var current: (lower: Double, upper: Double)?
        for record in records {
            let lower = window.map { max(record.start, $0.lower) } ?? record.start
            let upper = window.map { min(record.end, $0.upper) } ?? record.end
            guard upper > lower else { continue }
            if let span = current, lower <= span.upper {
                current = (span.lower, max(span.upper, upper))
            } else {
                if let span = current { total += span.upper - span.lower }
                current = (lower, upper)
            }
        }
        if let span = current { total += span.upper - span.lower }
        return total
    }
}
