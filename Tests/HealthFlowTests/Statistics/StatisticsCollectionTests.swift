import Foundation
import HealthFlow
import Testing

struct StatisticsCollectionTests {
    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    static let utc = calendar("UTC")
    static func at(_ hour: Int, _ minute: Int = 0) -> Date { HealthStatisticsTests.at(hour, minute) }

    static func steps(_ value: Double, _ start: Date, _ end: Date) throws -> HealthQuantitySample {
        try HealthStatisticsTests.steps(value, start, end)
    }

    @Test func intervalsAlignToTheAnchorBeforeAndAfterIt() throws {
        // Anchor 09:30; two-hour intervals; range 04:00–14:00 reaches both sides of the anchor.
        let samples = try [4, 6, 8, 9, 11, 13].map { try Self.steps(1, Self.at($0, 45), Self.at($0, 45)) }
        let collection = try StatisticsCollection(
            .stepCount, samples: samples, options: .cumulativeSum, anchorDate: Self.at(9, 30),
            intervalComponents: DateComponents(hour: 2), calendar: Self.utc,
            range: DateInterval(start: Self.at(4), end: Self.at(14)))
        let starts = collection.statistics().map(\.startDate)
        #expect(
            starts == [
                Self.at(3, 30), Self.at(5, 30), Self.at(7, 30), Self.at(9, 30), Self.at(11, 30), Self.at(13, 30),
            ])
        #expect(collection.statistics().map { $0.endDate.timeIntervalSince($0.startDate) }.allSatisfy { $0 == 7200 })
    }

    @Test func anchorFarOutsideTheRangeStillAligns() throws {
        let anchor = Self.at(0, 15).addingTimeInterval(-400 * 86_400)
        let sample = try Self.steps(5, Self.at(10, 20), Self.at(10, 20))
        let collection = try StatisticsCollection(
            .stepCount, samples: [sample], options: .cumulativeSum, anchorDate: anchor,
            intervalComponents: DateComponents(hour: 1), calendar: Self.utc,
            range: DateInterval(start: Self.at(0), end: Self.at(23)))
        #expect(collection.statistics().map(\.startDate) == [Self.at(10, 15)])
    }

    @Test func listingSkipsEmptyIntervalsAndEnumerationYieldsThem() throws {
        let samples = [
            try Self.steps(10, Self.at(9, 10), Self.at(9, 20)), try Self.steps(20, Self.at(12, 5), Self.at(12, 6)),
        ]
        let collection = try StatisticsCollection(
            .stepCount, samples: samples, options: .cumulativeSum, anchorDate: Self.at(0),
            intervalComponents: DateComponents(hour: 1), calendar: Self.utc,
            range: DateInterval(start: Self.at(8), end: Self.at(14)))
        #expect(collection.statistics().count == 2)
        var seen: [(Date, Double?)] = []
        try collection.enumerateStatistics(from: Self.at(8), to: Self.at(13, 30)) { statistics, _ in
            seen.append((statistics.startDate, try? statistics.sumQuantity()?.doubleValue(for: .count())))
        }
        #expect(seen.map(\.0) == (8...13).map { Self.at($0) })
        #expect(seen.map(\.1) == [nil, 10, nil, nil, 20, nil])
        let all = try collection.statistics(from: Self.at(8), to: Self.at(13, 30))
        #expect(all.map(\.isEmpty) == [true, false, true, true, false, true])
        #expect(all.allSatisfy { $0.endDate.timeIntervalSince($0.startDate) == 3600 })
    }

    @Test func enumerationStopsWhenAsked() throws {
        let collection = try StatisticsCollection(
            .stepCount, samples: [], options: .cumulativeSum, anchorDate: Self.at(0),
            intervalComponents: DateComponents(hour: 1), calendar: Self.utc,
            range: DateInterval(start: Self.at(0), end: Self.at(23)))
        var count = 0
        try collection.enumerateStatistics(from: Self.at(0), to: Self.at(23)) { _, stop in
            count += 1
            stop = count == 3
        }
        #expect(count == 3)
    }

    @Test func enumerationIncludesTheIntervalStartingAtTheEndDate() throws {
        let collection = try StatisticsCollection(
            .stepCount, samples: [], options: .cumulativeSum, anchorDate: Self.at(0),
            intervalComponents: DateComponents(hour: 1), calendar: Self.utc,
            range: DateInterval(start: Self.at(0), end: Self.at(23)))
        #expect(try collection.statistics(from: Self.at(10), to: Self.at(12)).count == 3)
        #expect(try collection.statistics(from: Self.at(12), to: Self.at(10)).isEmpty)
    }

    @Test func samplesOnIntervalEdgesCountOnceInTheLaterInterval() throws {
        let samples = [
            try Self.steps(7, Self.at(14), Self.at(14)), try Self.steps(10, Self.at(13), Self.at(14)),
            try Self.steps(20, Self.at(14), Self.at(15)), try Self.steps(1, Self.at(16), Self.at(16)),
        ]
        let collection = try StatisticsCollection(
            .stepCount, samples: samples, options: .cumulativeSum, anchorDate: Self.at(0),
            intervalComponents: DateComponents(hour: 1), calendar: Self.utc,
            range: DateInterval(start: Self.at(12), end: Self.at(17)))
        let sums = try collection.statistics(from: Self.at(12), to: Self.at(16)).map {
            try $0.sumQuantity()?.doubleValue(for: .count())
        }
        #expect(sums == [nil, 10, 27, nil, 1])
    }

    @Test func statisticsForADateFindsItsInterval() throws {
        let collection = try StatisticsCollection(
            .stepCount, samples: [try Self.steps(10, Self.at(9, 10), Self.at(9, 20))], options: .cumulativeSum,
            anchorDate: Self.at(0), intervalComponents: DateComponents(hour: 1), calendar: Self.utc,
            range: DateInterval(start: Self.at(0), end: Self.at(23)))
        #expect(collection.statistics(for: Self.at(9, 59))?.startDate == Self.at(9))
        #expect(collection.statistics(for: Self.at(10)) == nil)
    }

    @Test func dailyIntervalsFollowDaylightSavingTime() throws {
        // Europe/Berlin moved to summer time on 2024-03-31: that day lasts 23 hours.
        let berlin = Self.calendar("Europe/Berlin")
        let march30 = try #require(berlin.date(from: DateComponents(year: 2024, month: 3, day: 30)))
        let april2 = try #require(berlin.date(from: DateComponents(year: 2024, month: 4, day: 2)))
        let collection = try StatisticsCollection(
            .stepCount, samples: [], options: .cumulativeSum, anchorDate: march30,
            intervalComponents: DateComponents(day: 1), calendar: berlin,
            range: DateInterval(start: march30, end: april2))
        let days = try collection.statistics(from: march30, to: april2.addingTimeInterval(-1))
        #expect(days.map { $0.endDate.timeIntervalSince($0.startDate) / 3600 } == [24, 23, 24])
        #expect(days.allSatisfy { berlin.component(.hour, from: $0.startDate) == 0 })
    }

    @Test func monthlyIntervalsMultiplyFromTheAnchor() throws {
        let january31 = try #require(Self.utc.date(from: DateComponents(year: 2024, month: 1, day: 31)))
        let june1 = try #require(Self.utc.date(from: DateComponents(year: 2024, month: 6, day: 1)))
        let collection = try StatisticsCollection(
            .stepCount, samples: [], options: .cumulativeSum, anchorDate: january31,
            intervalComponents: DateComponents(month: 1), calendar: Self.utc,
            range: DateInterval(start: january31, end: june1))
        let days = try collection.statistics(from: january31, to: june1).map {
            Self.utc.component(.day, from: $0.startDate)
        }
        #expect(days == [31, 29, 31, 30, 31])  // Jan 31, Feb 29, Mar 31, Apr 30, May 31
    }

    @Test func weeklyIntervalsUseWeekOfYear() throws {
        let monday = try #require(Self.utc.date(from: DateComponents(year: 2024, month: 3, day: 4)))
        let collection = try StatisticsCollection(
            .stepCount, samples: [try Self.steps(3, Self.at(12), Self.at(12))], options: .cumulativeSum,
            anchorDate: monday, intervalComponents: DateComponents(weekOfYear: 1), calendar: Self.utc,
            range: DateInterval(start: monday.addingTimeInterval(-14 * 86_400), duration: 28 * 86_400))
        let weeks = collection.statistics()
        #expect(weeks.count == 1)
        #expect(weeks.first?.startDate == monday.addingTimeInterval(-7 * 86_400))  // 2024-02-26 holds March 1st
    }

    static let invalidComponents: [(DateComponents, String)] = [
        (DateComponents(), "at least one component must be positive"),
        (DateComponents(hour: 0), "at least one component must be positive"),
        (DateComponents(day: -1), "components must not be negative"),
        (DateComponents(weekday: 2), "weekday is not supported"),
        (DateComponents(quarter: 1), "quarter is not supported"),
    ]

    @Test(arguments: invalidComponents)
    func invalidIntervalComponentsAreATypedError(components: DateComponents, reason: String) {
        #expect(throws: StatisticsError.invalidIntervalComponents(components, reason: reason)) {
            try StatisticsCollection(
                .stepCount, samples: [], options: .cumulativeSum, anchorDate: Self.at(0),
                intervalComponents: components, calendar: Self.utc, range: DateInterval(start: Self.at(0), duration: 1))
        }
    }

    @Test func tooManyIntervalsIsATypedError() {
        #expect(throws: StatisticsError.tooManyIntervals(limit: StatisticsCollection.maximumIntervalCount)) {
            try StatisticsCollection(
                .stepCount, samples: [], options: .cumulativeSum, anchorDate: Self.at(0),
                intervalComponents: DateComponents(second: 1), calendar: Self.utc,
                range: DateInterval(start: Self.at(0), duration: 30 * 86_400))
        }
    }

    @Test func emptyRangeComputesNothing() throws {
        let collection = try StatisticsCollection(
            .stepCount, samples: [try Self.steps(3, Self.at(12), Self.at(12))], options: .cumulativeSum,
            anchorDate: Self.at(0), intervalComponents: DateComponents(hour: 1), calendar: Self.utc,
            range: DateInterval(start: Self.at(12), duration: 0))
        #expect(collection.statistics().isEmpty)
    }

    /// Interval shapes for the property test: hourly on the hour, 3 hours from an odd anchor after the data,
    /// 90 minutes, and days in a zone with a daylight-saving change inside the data.
    static let shapes: [(DateComponents, TimeInterval, String)] = [
        (DateComponents(hour: 1), 0, "UTC"), (DateComponents(hour: 3), 50 * 3600 + 17 * 60 + 3, "UTC"),
        (DateComponents(minute: 90), -1234.5, "UTC"), (DateComponents(day: 1), 0, "America/New_York"),
    ]

    @Test func collectionsAgreeWithBruteForceAcrossSeeds() throws {
        // 2024-03-09 00:00 UTC: New York changes to summer time during the second day.
        let origin = Date(timeIntervalSince1970: 1_709_942_400)
        for seed in UInt64(1)...20 {
            for (type, unitString, values, options) in HealthStatisticsTests.styles {
                let samples = try RandomSamples.make(
                    type, unit: try HealthUnit(from: unitString), values: values, count: Int(seed % 5) * 8 + 1,
                    from: origin, span: 2 * 86_400, seed: seed)
                let oracleSamples = try StatisticsOracle.samples(samples, type: type)
                let style = try #require(type.aggregationStyle)
                for (components, anchorOffset, zone) in Self.shapes {
                    let range = DateInterval(
                        start: origin.addingTimeInterval(-3600), end: origin.addingTimeInterval(3 * 86_400))
                    let collection = try StatisticsCollection(
                        type, samples: samples, options: options, anchorDate: origin.addingTimeInterval(anchorOffset),
                        intervalComponents: components, calendar: Self.calendar(zone), range: range)
                    var intervals = 0
                    var listed = 0
                    try collection.enumerateStatistics(from: range.start, to: range.end.addingTimeInterval(-0.001)) {
                        statistics, _ in
                        intervals += 1
                        let window = (
                            statistics.startDate.timeIntervalSinceReferenceDate,
                            statistics.endDate.timeIntervalSinceReferenceDate
                        )
                        let expected = StatisticsOracle.values(
                            oracleSamples, window: window, style: style, options: options)
                        let context = "seed \(seed) \(type) \(components) \(statistics.startDate)"
                        guard let overall = expected.overall else {
                            #expect(statistics.isEmpty, "\(context) should be empty")
                            return
                        }
                        listed += 1
                        #expect(collection.statistics(for: statistics.startDate) == statistics, "\(context) lookup")
                        try? expectStatistics(statistics, equal: overall, context)
                        #expect(Set(statistics.sources) == Set(expected.bySource.keys), "\(context) sources")
                        for (source, values) in expected.bySource {
                            try? expectStatistics(statistics, equal: values, source: source, context)
                        }
                    }
                    #expect(intervals > 0)
                    #expect(collection.statistics().count == listed, "seed \(seed) \(type) \(components) listing")
                }
            }
        }
    }

    @Test func cumulativeSumsAcrossIntervalsAddUpToTheWhole() throws {
        let origin = Fixture.noon
        for seed in UInt64(100)...119 {
            let samples = try RandomSamples.make(
                .stepCount, unit: .count(), values: 0...1000, count: 40, from: origin, span: 86_400, seed: seed)
            let total = samples.reduce(0) { $0 + $1.quantity.value }
            let collection = try StatisticsCollection(
                .stepCount, samples: samples, options: .cumulativeSum, anchorDate: origin.addingTimeInterval(123),
                intervalComponents: DateComponents(minute: 17), calendar: Self.utc,
                range: DateInterval(start: origin.addingTimeInterval(-3600), duration: 2 * 86_400))
            let sum = try collection.statistics().reduce(0) {
                $0 + (try $1.sumQuantity()?.doubleValue(for: .count()) ?? 0)
            }
            #expect(close(sum, total), "seed \(seed): \(sum) vs \(total)")
        }
    }

    /// A NaN anchor is refused with a typed error, and printing that error names the date rather than trapping in
    /// Foundation's description of it.
    @Test func anErrorAboutANaNDatePrintsWithoutTrapping() throws {
        let sample = try Self.steps(5, Self.at(10), Self.at(10))
        let nan = Date(timeIntervalSinceReferenceDate: .nan)
        do {
            _ = try StatisticsCollection(
                .stepCount, samples: [sample], options: .cumulativeSum, anchorDate: nan,
                intervalComponents: DateComponents(day: 1), calendar: Self.utc,
                range: DateInterval(start: Self.at(0), end: Self.at(23)))
            Issue.record("a NaN anchor was accepted")
        } catch {
            #expect("\(error)".contains("invalid date nan"), "\(error)")
        }
        #expect("\(StatisticsError.invalidDateRange(start: nan, end: Self.at(1)))".contains("invalid date nan"))
        #expect(
            "\(StatisticsError.calendarArithmeticFailed(anchor: nan, intervalIndex: 1))".contains("invalid date nan"))
        #expect("\(MetadataValue.date(nan))".contains("invalid date nan"))
        #expect("\(MetadataValue.date(Date(timeIntervalSinceReferenceDate: .infinity)))".contains("invalid date inf"))
    }

    /// Listing the intervals of a span holds them all in memory, so a span of more than the collection's interval
    /// limit is refused (here 10,000 years of days, at once); enumerating it stays possible.
    @Test func listingMoreIntervalsThanTheLimitIsRefusedAtOnce() throws {
        let sample = try Self.steps(5, Self.at(10), Self.at(10))
        let collection = try StatisticsCollection(
            .stepCount, samples: [sample], options: .cumulativeSum, anchorDate: Self.at(0),
            intervalComponents: DateComponents(day: 1), calendar: Self.utc,
            range: DateInterval(start: Self.at(0), end: Self.at(23)))
        let start = Date(timeIntervalSinceReferenceDate: -3.2e11)
        #expect(throws: StatisticsError.tooManyIntervals(limit: StatisticsCollection.maximumIntervalCount)) {
            _ = try collection.statistics(from: start, to: Self.at(0))
        }
        var enumerated = 0
        try collection.enumerateStatistics(from: start, to: Self.at(0)) { _, stop in
            enumerated += 1
            stop = enumerated == 10
        }
        #expect(enumerated == 10)
        #expect(try collection.statistics(from: Self.at(0), to: Self.at(0).addingTimeInterval(2 * 86_400)).count == 3)
    }
}
