import Foundation
import HealthFlow
import Testing

/// A deliberately naive re-implementation of the statistics rules (O(n²) per window), to check the engine.
enum StatisticsOracle {
    struct Values: Equatable {
        var sum: Double?
        var average: Double?
        var minimum: Double?
        var maximum: Double?
        var mostRecent: Double?
        var mostRecentInterval: DateInterval?
        var duration: Double?
    }

    struct Sample {
        let start: Double
        let end: Double
        let value: Double
        let source: HealthSource
        let uuid: String
    }

    static func samples(_ samples: [HealthQuantitySample], type: HealthObjectType) throws -> [Sample] {
        let unit = try #require(type.canonicalUnit)
        return try samples.map {
            Sample(
                start: $0.startDate.timeIntervalSinceReferenceDate, end: $0.endDate.timeIntervalSinceReferenceDate,
                value: try $0.quantity.doubleValue(for: unit), source: $0.source, uuid: $0.uuid.uuidString)
        }
    }

    static func matches(_ sample: Sample, _ window: (Double, Double)?) -> Bool {
        guard let (lower, upper) = window else { return true }
        if sample.start == sample.end { return lower <= sample.start && sample.start < upper }
        return min(sample.end, upper) - max(sample.start, lower) > 0
    }

    /// Values over all samples (nil when none matched), and per source.
    static func values(
        _ all: [Sample], window: (Double, Double)?, style: HealthObjectType.AggregationStyle,
        options: StatisticsOptions
    ) -> (overall: Values?, bySource: [HealthSource: Values]) {
        let matched = all.filter { matches($0, window) }
        guard !matched.isEmpty else { return (nil, [:]) }
        var bySource: [HealthSource: Values] = [:]
        if options.contains(.separateBySource) {
            for source in Set(matched.map(\.source)) {
                bySource[source] = group(matched.filter { $0.source == source }, window, style, options)
            }
        }
        return (group(matched, window, style, options), bySource)
    }

    private static func group(
        _ matched: [Sample], _ window: (Double, Double)?, _ style: HealthObjectType.AggregationStyle,
        _ options: StatisticsOptions
    ) -> Values {
        var values = Values()
        if options.contains(.cumulativeSum) {
            values.sum = matched.map { sample in
                guard let (lower, upper) = window, sample.end > sample.start else { return sample.value }
                let overlap = min(sample.end, upper) - max(sample.start, lower)
                return sample.value * overlap / (sample.end - sample.start)
            }.reduce(0, +)
        }
        if options.contains(.discreteMin) { values.minimum = matched.map(\.value).min() }
        if options.contains(.discreteMax) { values.maximum = matched.map(\.value).max() }
        if options.contains(.discreteAverage) {
            switch style {
            case .cumulative: break
            case .discreteArithmetic: values.average = matched.map(\.value).reduce(0, +) / Double(matched.count)
            case .discreteTemporallyWeighted: values.average = weighted(matched, window, { $0 }, { $0 })
            case .discreteEquivalentContinuousLevel:
                values.average = weighted(matched, window, { pow(10, $0 / 10) }, { 10 * log10($0) })
            }
        }
        if options.contains(.mostRecent) {
            let latest = matched.max { ($0.end, $0.start, $0.uuid) < ($1.end, $1.start, $1.uuid) }
            values.mostRecent = latest?.value
            values.mostRecentInterval = latest.map {
                DateInterval(
                    start: Date(timeIntervalSinceReferenceDate: $0.start),
                    end: Date(timeIntervalSinceReferenceDate: $0.end))
            }
        }
        if options.contains(.duration) { values.duration = covered(matched, window) }
        return values
    }

    private static func weighted(
        _ matched: [Sample], _ window: (Double, Double)?, _ f: (Double) -> Double, _ inverse: (Double) -> Double
    ) -> Double {
        let horizon = window?.1 ?? matched.map(\.end).max() ?? 0
        var total = 0.0
        var sum = 0.0
        for sample in matched {
            let weight: Double
            if sample.start == sample.end {
                let later = matched.map(\.start).filter { $0 > sample.start }
                let next = min(later.min() ?? horizon, horizon)
                let sharing = matched.filter { $0.start == sample.start && $0.end == $0.start }.count
                weight = max(0, next - sample.start) / Double(sharing)
            } else if let (lower, upper) = window {
                weight = min(sample.end, upper) - max(sample.start, lower)
            } else {
                weight = sample.end - sample.start
            }
            total += weight
            sum += weight * f(sample.value)
        }
        if total > 0 { return inverse(sum / total) }
        return inverse(matched.map { f($0.value) }.reduce(0, +) / Double(matched.count))
    }

    /// Measure of the union, by checking every elementary segment between endpoints.
    private static func covered(_ matched: [Sample], _ window: (Double, Double)?) -> Double {
        let clipped = matched.map { sample -> (Double, Double) in
            guard let (lower, upper) = window else { return (sample.start, sample.end) }
            return (max(sample.start, lower), min(sample.end, upper))
        }.filter { $0.1 > $0.0 }
        let points = Set(clipped.flatMap { [$0.0, $0.1] }).sorted()
        var total = 0.0
        for (a, b) in zip(points, points.dropFirst()) where clipped.contains(where: { $0.0 <= a && $0.1 >= b }) {
            total += b - a
        }
        return total
    }
}

/// Relative tolerance 1e-9, with an absolute floor of 1e-12 for values near zero.
func close(_ actual: Double?, _ expected: Double?, tolerance: Double = 1e-9) -> Bool {
    switch (actual, expected) {
    case (nil, nil): return true
    case (let actual?, let expected?):
        return abs(actual - expected) <= max(tolerance * max(abs(actual), abs(expected)), 1e-12)
    default: return false
    }
}

/// Random samples with awkward shapes: instants (some sharing an instant), long samples spanning
/// several intervals, fractional seconds, three sources.
enum RandomSamples {
    static let sources = [
        HealthSource(bundleIdentifier: "com.example.a", name: "A"),
        HealthSource(bundleIdentifier: "com.example.b", name: "B"),
        HealthSource(bundleIdentifier: "com.example.c", name: "C"),
    ]

    static func make(
        _ type: HealthObjectType, unit: HealthUnit, values: ClosedRange<Double>, count: Int, from start: Date,
        span: TimeInterval, seed: UInt64
    ) throws -> [HealthQuantitySample] {
        var rng = SeededRandomNumberGenerator(seed: seed)
        var samples: [HealthQuantitySample] = []
        var lastStart = start
        for _ in 0..<count {
            let begin: Date
            if !samples.isEmpty && rng.chance(0.1) {
                begin = lastStart  // share an instant with the previous sample
            } else if rng.chance(0.25) {
                begin = start.addingTimeInterval(Double(rng.int(in: 0...Int(span) / 3600)) * 3600)  // on an hour
            } else if rng.chance(0.5) {
                begin = start.addingTimeInterval(Double(rng.int(in: 0...Int(span) / 60)) * 60)  // on a minute
            } else {
                begin = start.addingTimeInterval(rng.uniform(in: 0...span))
            }
            let duration: TimeInterval
            switch rng.int(in: 0...9) {
            case 0...3: duration = 0
            case 4: duration = Double(rng.int(in: 1...6)) * 1800  // ends on a half hour when it starts on one
            case 5...7: duration = rng.uniform(in: 1...3_600)
            default: duration = rng.uniform(in: 3_600...5 * 3_600)
            }
            lastStart = begin
            samples.append(
                try HealthQuantitySample(
                    type: type, quantity: HealthQuantity(unit: unit, doubleValue: rng.uniform(in: values).rounded()),
                    start: begin, end: begin.addingTimeInterval(duration),
                    source: sources[rng.int(in: 0...sources.count - 1)], uuid: rng.nextUUID()))
        }
        return samples
    }
}
