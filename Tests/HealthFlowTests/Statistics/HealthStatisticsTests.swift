import Foundation
import HealthFlow
import Testing

struct HealthStatisticsTests {
    static let utc = TimeZone(identifier: "UTC")!
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        return calendar
    }

    /// 2024-03-01 at the given UTC time.
    static func at(_ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> Date {
        Fixture.noon.addingTimeInterval(TimeInterval((hour - 12) * 3600 + minute * 60 + second))
    }

    static func steps(_ value: Double, _ start: Date, _ end: Date, source: HealthSource = Fixture.source) throws
        -> HealthQuantitySample
    {
        try HealthQuantitySample(
            type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: value), start: start, end: end,
            source: source)
    }

    static func beats(_ perMinute: Double, _ start: Date, _ end: Date? = nil, source: HealthSource = Fixture.source)
        throws -> HealthQuantitySample
    {
        try HealthQuantitySample(
            type: .heartRate, quantity: HealthQuantity(unit: Fixture.perMinute, doubleValue: perMinute), start: start,
            end: end ?? start, source: source)
    }

    static func hour(_ hour: Int) -> DateInterval { DateInterval(start: at(hour), duration: 3600) }

    static func sum(_ statistics: HealthStatistics?) throws -> Double? {
        try statistics?.sumQuantity()?.doubleValue(for: .count())
    }

    static func average(_ statistics: HealthStatistics?) throws -> Double? {
        try statistics?.averageQuantity()?.doubleValue(for: Fixture.perMinute)
    }

    @Test func stepsStraddlingTheHourSplitSixtyForty() throws {
        let sample = try Self.steps(100, Self.at(13, 57), Self.at(14, 2))
        let before = try HealthStatistics.compute(
            .stepCount, from: [sample], options: .cumulativeSum, in: Self.hour(13))
        let after = try HealthStatistics.compute(.stepCount, from: [sample], options: .cumulativeSum, in: Self.hour(14))
        #expect(try Self.sum(before) == 60)
        #expect(try Self.sum(after) == 40)
    }

    @Test func stepsStraddlingTheHourSplitSixtyFortyInACollection() throws {
        let sample = try Self.steps(100, Self.at(13, 57), Self.at(14, 2))
        let collection = try StatisticsCollection(
            .stepCount, samples: [sample], options: .cumulativeSum, anchorDate: Self.at(0),
            intervalComponents: DateComponents(hour: 1), calendar: Self.calendar,
            range: DateInterval(start: Self.at(12), end: Self.at(16)))
        let sums = try collection.statistics().map { try Self.sum($0) }
        #expect(sums == [60, 40])
        #expect(collection.statistics().map(\.startDate) == [Self.at(13), Self.at(14)])
        #expect(collection.statistics().map(\.endDate) == [Self.at(14), Self.at(15)])
    }

    @Test func instantaneousSampleCountsInTheHalfOpenWindowHoldingItsInstant() throws {
        let sample = try Self.steps(7, Self.at(14), Self.at(14))
        #expect(
            try HealthStatistics.compute(.stepCount, from: [sample], options: .cumulativeSum, in: Self.hour(13)) == nil)
        #expect(
            try Self.sum(
                HealthStatistics.compute(.stepCount, from: [sample], options: .cumulativeSum, in: Self.hour(14)))
                == 7)
    }

    @Test func sampleEndingAtTheWindowStartDoesNotMatch() throws {
        let sample = try Self.steps(50, Self.at(12, 30), Self.at(13))
        #expect(
            try HealthStatistics.compute(.stepCount, from: [sample], options: .cumulativeSum, in: Self.hour(13)) == nil)
    }

    @Test func withoutAWindowEverySampleCountsFully() throws {
        let samples = [try Self.steps(100, Self.at(13, 57), Self.at(14, 2)), try Self.steps(5, Self.at(9), Self.at(9))]
        let statistics = try #require(try HealthStatistics.compute(.stepCount, from: samples, options: .cumulativeSum))
        #expect(try Self.sum(statistics) == 105)
        #expect(statistics.startDate == Self.at(9))
        #expect(statistics.endDate == Self.at(14, 2))
    }

    @Test func startAndEndAreTheMatchedSamplesEarliestStartAndLatestEnd() throws {
        let samples = [
            try Self.steps(10, Self.at(12, 50), Self.at(13, 10)), try Self.steps(10, Self.at(13, 30), Self.at(14, 20)),
            try Self.steps(10, Self.at(15), Self.at(15, 5)),
        ]
        let statistics = try #require(
            try HealthStatistics.compute(.stepCount, from: samples, options: .cumulativeSum, in: Self.hour(13)))
        #expect(statistics.startDate == Self.at(12, 50))
        #expect(statistics.endDate == Self.at(14, 20))
    }

    @Test func noMatchingSampleGivesNil() throws {
        #expect(try HealthStatistics.compute(.stepCount, from: [], options: .cumulativeSum) == nil)
    }

    @Test func arithmeticAverageCountsStraddlingSamplesFully() throws {
        let kilograms = HealthUnit.gramUnit(with: .kilo)
        let samples = try [(70.0, Self.at(12, 30), Self.at(13, 30)), (74, Self.at(13, 15), Self.at(13, 15))].map {
            try HealthQuantitySample(
                type: .bodyMass, quantity: HealthQuantity(unit: kilograms, doubleValue: $0.0), start: $0.1, end: $0.2,
                source: Fixture.source)
        }
        let statistics = try HealthStatistics.compute(
            .bodyMass, from: samples, options: [.discreteAverage, .discreteMin, .discreteMax], in: Self.hour(13))
        #expect(try statistics?.averageQuantity()?.doubleValue(for: kilograms) == 72)
        #expect(try statistics?.minimumQuantity()?.doubleValue(for: kilograms) == 70)
        #expect(try statistics?.maximumQuantity()?.doubleValue(for: kilograms) == 74)
    }

    @Test func instantaneousReadingsHoldUntilTheNextReadingAndTheLastUntilTheWindowEnds() throws {
        let samples = [
            try Self.beats(60, Self.at(10)), try Self.beats(90, Self.at(10, 20)), try Self.beats(120, Self.at(10, 50)),
        ]
        // Weights 20, 30 and 10 minutes.
        let hourly = try HealthStatistics.compute(
            .heartRate, from: samples, options: .discreteAverage, in: Self.hour(10))
        #expect(close(try Self.average(hourly), 85))
        // Without a window the last reading holds until the latest end, its own instant: weights 20, 30, 0.
        let unbounded = try HealthStatistics.compute(.heartRate, from: samples, options: .discreteAverage)
        #expect(close(try Self.average(unbounded), 78))
    }

    @Test func readingsAtTheSameInstantShareTheirHold() throws {
        let samples = [
            try Self.beats(60, Self.at(10)), try Self.beats(80, Self.at(10)), try Self.beats(100, Self.at(10, 30)),
        ]
        let statistics = try HealthStatistics.compute(
            .heartRate, from: samples, options: .discreteAverage, in: Self.hour(10))
        #expect(close(try Self.average(statistics), 85))  // 60·15 + 80·15 + 100·30 over 60 minutes
    }

    @Test func aLoneReadingWithoutAWindowAveragesToItself() throws {
        let statistics = try HealthStatistics.compute(
            .heartRate, from: [try Self.beats(64, Self.at(10))], options: .discreteAverage)
        #expect(close(try Self.average(statistics), 64))
    }

    @Test func intervalReadingsWeighTheirTimeInsideTheWindow() throws {
        let samples = [
            try Self.beats(70, Self.at(9, 30), Self.at(10, 30)), try Self.beats(100, Self.at(10, 30), Self.at(10, 40)),
        ]
        let statistics = try HealthStatistics.compute(
            .heartRate, from: samples, options: .discreteAverage, in: Self.hour(10))
        #expect(close(try Self.average(statistics), 77.5))  // 70·30 + 100·10 over 40 minutes
    }

    @Test func soundLevelsAverageAsEquivalentContinuousLevel() throws {
        let decibels = HealthUnit.decibelAWeightedSoundPressureLevel()
        let samples = try [(60.0, Self.at(10), Self.at(10, 30)), (80, Self.at(10, 30), Self.at(11))].map {
            try HealthQuantitySample(
                type: .environmentalAudioExposure, quantity: HealthQuantity(unit: decibels, doubleValue: $0.0),
                start: $0.1, end: $0.2, source: Fixture.source)
        }
        let statistics = try HealthStatistics.compute(
            .environmentalAudioExposure, from: samples, options: .discreteAverage)
        let expected = 10 * log10((pow(10, 6.0) + pow(10, 8.0)) / 2)  // ≈ 77.03 dB, not 70
        #expect(close(try statistics?.averageQuantity()?.doubleValue(for: decibels), expected))
    }

    @Test func mostRecentIsTheLatestEndWithItsWholeInterval() throws {
        let samples = [
            try Self.steps(10, Self.at(13, 50), Self.at(14, 10)), try Self.steps(20, Self.at(13, 55), Self.at(13, 58)),
            try Self.steps(30, Self.at(13), Self.at(13, 1)),
        ]
        let statistics = try HealthStatistics.compute(
            .stepCount, from: samples, options: .mostRecent, in: Self.hour(13))
        #expect(try statistics?.mostRecentQuantity()?.doubleValue(for: .count()) == 10)
        #expect(
            statistics?.mostRecentQuantityDateInterval() == DateInterval(start: Self.at(13, 50), end: Self.at(14, 10)))
        #expect(statistics?.sumQuantity() == nil)
    }

    @Test func durationIsTheTimeCoveredWithoutDoubleCountingOverlaps() throws {
        let samples = [
            try Self.steps(10, Self.at(13, 50), Self.at(14, 10)),
            try Self.steps(10, Self.at(13, 55), Self.at(13, 58), source: Fixture.watch),
            try Self.steps(10, Self.at(13), Self.at(13, 5)), try Self.steps(1, Self.at(13, 30), Self.at(13, 30)),
        ]
        let statistics = try HealthStatistics.compute(
            .stepCount, from: samples, options: [.duration, .separateBySource], in: Self.hour(13))
        #expect(try statistics?.duration()?.doubleValue(for: .minute()) == 15)
        #expect(try statistics?.duration(for: Fixture.watch)?.doubleValue(for: .minute()) == 3)
    }

    @Test func separateBySourceGivesEachSourceItsOwnValues() throws {
        let samples = [
            try Self.steps(100, Self.at(13), Self.at(13, 10)), try Self.steps(40, Self.at(13, 20), Self.at(13, 30)),
            try Self.steps(7, Self.at(13, 40), Self.at(13, 50), source: Fixture.watch),
        ]
        let statistics = try #require(
            try HealthStatistics.compute(.stepCount, from: samples, options: [.cumulativeSum, .separateBySource]))
        #expect(try Self.sum(statistics) == 147)
        #expect(try statistics.sumQuantity(for: Fixture.source)?.doubleValue(for: .count()) == 140)
        #expect(try statistics.sumQuantity(for: Fixture.watch)?.doubleValue(for: .count()) == 7)
        #expect(statistics.sources == [Fixture.watch, Fixture.source])
        let other = HealthSource(bundleIdentifier: "com.example.other", name: "Other")
        #expect(statistics.sumQuantity(for: other) == nil)
    }

    @Test func withoutSeparateBySourceThereAreNoSources() throws {
        let statistics = try HealthStatistics.compute(
            .stepCount, from: [try Self.steps(1, Self.at(13), Self.at(14))], options: .cumulativeSum)
        #expect(statistics?.sources == [])
        #expect(statistics?.sumQuantity(for: Fixture.source) == nil)
    }

    @Test func valuesAreInTheCanonicalUnit() throws {
        let statistics = try HealthStatistics.compute(
            .heartRate, from: [try Self.beats(60, Self.at(10))], options: .discreteMax)
        #expect(statistics?.maximumQuantity() == HealthQuantity(unit: try HealthUnit(from: "count/s"), doubleValue: 1))
    }

    @Test func aSampleOfAnotherTypeIsATypedError() throws {
        let beat = try Self.beats(60, Self.at(10))
        #expect(throws: StatisticsError.sampleTypeMismatch(expected: .stepCount, found: .heartRate, uuid: beat.uuid)) {
            try HealthStatistics.compute(.stepCount, from: [beat], options: .cumulativeSum)
        }
    }

    @Test func incompatibleOptionsAreATypedErrorBeforeAnyComputation() throws {
        #expect(throws: StatisticsError.incompatibleOption(.discreteAverage, type: .stepCount)) {
            try HealthStatistics.compute(.stepCount, from: [], options: .discreteAverage)
        }
        #expect(throws: StatisticsError.notAQuantityType(.sleepAnalysis)) {
            try HealthStatistics.compute(.sleepAnalysis, from: [], options: .mostRecent)
        }
    }

    /// The types the property tests cover, one per aggregation style, with the options legal for each.
    static let styles: [(HealthObjectType, String, ClosedRange<Double>, StatisticsOptions)] = [
        (.stepCount, "count", 0...500, [.cumulativeSum, .mostRecent, .duration, .separateBySource]),
        (
            .heartRate, "count/min", 40...180,
            [
                .discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration,
                .separateBySource,
            ]
        ),
        (.bodyMass, "kg", 50...100, [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource]),
        (.environmentalAudioExposure, "dBASPL", 30...100, [.discreteAverage, .separateBySource]),
    ]

    @Test func computeAgreesWithBruteForceOnRandomWindowsAcrossSeeds() throws {
        for seed in UInt64(1)...20 {
            for (type, unitString, values, options) in Self.styles {
                let unit = try HealthUnit(from: unitString)
                let samples = try RandomSamples.make(
                    type, unit: unit, values: values, count: Int(seed % 7) * 6, from: Self.at(0), span: 86_400,
                    seed: seed)
                let oracleSamples = try StatisticsOracle.samples(samples, type: type)
                var rng = SeededRandomNumberGenerator(seed: seed &* 31)
                let style = try #require(type.aggregationStyle)
                for _ in 0..<5 {
                    let start = Self.at(0).addingTimeInterval(rng.uniform(in: -3600...86_400))
                    let window = DateInterval(start: start, duration: rng.uniform(in: 0...20_000))
                    let statistics = try HealthStatistics.compute(type, from: samples, options: options, in: window)
                    let expected = StatisticsOracle.values(
                        oracleSamples,
                        window: (
                            window.start.timeIntervalSinceReferenceDate, window.end.timeIntervalSinceReferenceDate
                        ),
                        style: style, options: options)
                    try check(statistics, expected, "seed \(seed) \(type) \(window)")
                }
                let all = try HealthStatistics.compute(type, from: samples, options: options)
                try check(
                    all, StatisticsOracle.values(oracleSamples, window: nil, style: style, options: options),
                    "seed \(seed) \(type) unbounded")
            }
        }
    }

    private func check(
        _ statistics: HealthStatistics?,
        _ expected: (overall: StatisticsOracle.Values?, bySource: [HealthSource: StatisticsOracle.Values]),
        _ context: String
    ) throws {
        guard let overall = expected.overall else {
            #expect(statistics == nil, "\(context): expected no statistics")
            return
        }
        let statistics = try #require(statistics, "\(context): expected statistics")
        try expectStatistics(statistics, equal: overall, context)
        #expect(Set(statistics.sources) == Set(expected.bySource.keys), "\(context) sources")
        for (source, values) in expected.bySource {
            try expectStatistics(statistics, equal: values, source: source, context)
        }
    }
}
