import Foundation
import TestScale
import Testing

@testable import HealthFlow

/// The store answers statistics collections from its per-type columns; these tests hold those answers to the
/// general engine's over the same visible samples — exactly, value for value — on seeded random data built to
/// hit every case where the two could part: samples crossing interval boundaries, time zones with daylight-saving
/// changes (whole hours and half hours) and odd offsets, overlapping sources, samples sharing a start,
/// instantaneous and day-long samples, every option, empty intervals, predicates with strict bounds, read rules,
/// and samples deleted or inserted out of order after the columns were built.
struct ColumnarStatisticsTests {
    static let other = HealthSource(bundleIdentifier: "com.example.other", name: "Other")
    static let types: [HealthObjectType] = [.stepCount, .heartRate, .bodyMass, .environmentalAudioExposure]

    static func calendar(_ identifier: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: identifier)!
        return calendar
    }

    /// Time zones and, for each, an instant near one of its daylight-saving changes (UTC and Kathmandu have none).
    static let zones: [(calendar: Calendar, around: Date)] = [
        (calendar("UTC"), Date(timeIntervalSince1970: 1_709_294_400)),  // 2024-03-01
        (calendar("America/New_York"), Date(timeIntervalSince1970: 1_710_054_000)),  // 2024-03-10, clocks forward
        (calendar("America/New_York"), Date(timeIntervalSince1970: 1_730_613_600)),  // 2024-11-03, clocks back
        (calendar("Australia/Lord_Howe"), Date(timeIntervalSince1970: 1_712_415_600)),  // 2024-04-07, half an hour
        (calendar("Asia/Kathmandu"), Date(timeIntervalSince1970: 1_709_294_400)),  // +05:45
    ]

    static let intervals: [DateComponents] = [
        DateComponents(hour: 1), DateComponents(day: 1), DateComponents(minute: 90), DateComponents(hour: 5),
        DateComponents(weekOfYear: 1), DateComponents(month: 1), DateComponents(minute: 1),
    ]

    static func units(of type: HealthObjectType) -> [String] {
        switch type {
        case .stepCount: ["count"]
        case .heartRate: ["count/min", "count/s"]
        case .bodyMass: ["kg", "lb", "g"]
        default: ["dBASPL"]
        }
    }

    static func options(for type: HealthObjectType) -> [StatisticsOptions] {
        let shared: [StatisticsOptions] = [.mostRecent, .duration, .separateBySource]
        let own: [StatisticsOptions] =
            type.aggregationStyle?.isCumulative == true
            ? [.cumulativeSum] : [.discreteAverage, .discreteMin, .discreteMax]
        return own + shared
    }

    /// `count` samples of `type` starting within `span` seconds of `around`: starts on a 30-second grid (so
    /// that some coincide), a quarter on the hour; durations from none to a day and a half; a third from
    /// another source.
    static func samples(
        of type: HealthObjectType, count: Int, around: Date, span: Double, using generator: inout SeededGenerator
    ) throws -> [HealthSample] {
        let durations: [Double] = [0, 0, 0, 60, 60, 300, 1799, 3600, 5400, 7 * 3600, 36 * 3600]
        let units = units(of: type)
        return try (0..<count).map { _ in
            let offset = Double.random(in: -span / 2..<span / 2, using: &generator)
            let step = Bool.random(using: &generator) && Int.random(in: 0..<2, using: &generator) == 0 ? 3600.0 : 30
            let start = around + (offset / step).rounded(.down) * step
            let duration = durations.randomElement(using: &generator)!
            let source = Int.random(in: 0..<3, using: &generator) == 0 ? other : Fixture.source
            return try StoreFixture.sample(
                type, Double(Int.random(in: 1...200, using: &generator)),
                unit: units.randomElement(using: &generator)!, start: start, duration: duration, source: source,
                uuid: UUID.random(using: &generator))
        }
    }

    static func predicate(around: Date, span: Double, using generator: inout SeededGenerator) -> SamplePredicate? {
        let start = around + Double.random(in: -span / 2..<0, using: &generator).rounded()
        let end = around + Double.random(in: 0..<span / 2, using: &generator).rounded()
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return nil
        case 1: return .samples(withStart: start, end: end)
        case 2: return .samples(withStart: start, end: end, options: .strictStartDate)
        case 3: return .samples(withStart: start, end: end, options: [.strictStartDate, .strictEndDate])
        case 4: return .samples(withStart: start, end: nil)
        default: return .samples(withStart: nil, end: end, options: .strictEndDate)
        }
    }

    /// A non-empty random subset of the options that suit `type`.
    static func randomOptions(for type: HealthObjectType, using generator: inout SeededGenerator) -> StatisticsOptions {
        var options: StatisticsOptions = []
        while options.isEmpty || options == .separateBySource {
            for option in Self.options(for: type) where Bool.random(using: &generator) { options.insert(option) }
        }
        return options
    }

    /// What the general path answers: the engine over the samples the store shows for the predicate.
    static func expected(
        _ type: HealthObjectType, visible: [HealthSample], predicate: SamplePredicate?, options: StatisticsOptions,
        anchor: Date, components: DateComponents, calendar: Calendar
    ) throws -> StatisticsCollection {
        let matched = visible.compactMap { sample -> HealthQuantitySample? in
            guard case .quantity(let quantity) = sample, quantity.type == type,
                predicate?.evaluate(sample) ?? true
            else { return nil }
            return quantity
        }
        return try StatisticsQueryEvaluation.collection(
            of: StatisticsRecordGatherer(type: type, samples: matched), options: options, predicate: predicate,
            anchorDate: anchor,
            intervalComponents: components, calendar: calendar)
    }

    /// Runs one random collection query against `store` and the general path, and compares them.
    static func compare(
        _ store: InMemoryHealthStore, type: HealthObjectType, visible: [HealthSample], around: Date,
        calendar: Calendar, using generator: inout SeededGenerator
    ) async throws {
        let span = 6 * 86_400.0
        let predicate = predicate(around: around, span: span, using: &generator)
        let options = randomOptions(for: type, using: &generator)
        let components = intervals.randomElement(using: &generator)!
        let anchor = around + Double(Int.random(in: -100...100, using: &generator)) * 1800
        let label = "\(type) \(options) \(components) \(calendar.timeZone.identifier) \(String(describing: predicate))"
        let expected = try expected(
            type, visible: visible, predicate: predicate, options: options, anchor: anchor, components: components,
            calendar: calendar)
        let actual = try await store.statisticsCollection(
            of: type, matching: predicate, options: options, anchorDate: anchor, intervalComponents: components,
            calendar: calendar)
        #expect(actual.range == expected.range, "\(label)")
        #expect(actual.statistics() == expected.statistics(), "\(label)")
        if actual.range.duration > 0 && actual.range.duration < 20 * 86_400 {
            let all = try actual.statistics(from: actual.range.start, to: actual.range.end)
            #expect(all == (try expected.statistics(from: expected.range.start, to: expected.range.end)), "\(label)")
        }
    }

    @Test(arguments: 0..<ColumnarStatisticsTests.zones.count)
    func collectionsFromColumnsEqualTheGeneralPathOnRandomSamples(zone: Int) async throws {
        var generator = SeededGenerator(seed: 0xC011_0000 + UInt64(zone))
        let (calendar, around) = Self.zones[zone]
        let store = try await StoreFixture.authorizedStore(share: Set(Self.types))
        var visible: [HealthSample] = []
        for type in Self.types {
            let samples = try Self.samples(
                of: type, count: 300, around: around, span: 6 * 86_400, using: &generator)
            try store.ingest(samples)
            visible += samples
        }
        // Every type at least twice when scaled down (TestScale).
        for round in 0..<TestScale.count(40, atLeast: 2 * Self.types.count) {
            let type = Self.types[round % Self.types.count]
            try await Self.compare(
                store, type: type, visible: visible, around: around, calendar: calendar, using: &generator)
        }
    }

    @Test func columnsFollowDeletionsAndOutOfOrderSavesAfterAQuery() async throws {
        var generator = SeededGenerator(seed: 0xDE1E7E)
        let (calendar, around) = Self.zones[2]
        let store = try await StoreFixture.authorizedStore(share: Set(Self.types))
        var visible: [HealthSample] = []
        for round in 0..<12 {
            let type = Self.types[round % Self.types.count]
            // The app's own samples, so that it may delete them; saved in random order.
            let added = try Self.samples(of: type, count: 60, around: around, span: 6 * 86_400, using: &generator)
                .map { sample -> HealthSample in
                    guard case .quantity(let quantity) = sample else { return sample }
                    return .quantity(
                        try HealthQuantitySample(
                            type: quantity.type, quantity: quantity.quantity, start: quantity.startDate,
                            end: quantity.endDate, source: Fixture.source, uuid: quantity.uuid))
                }
            try await store.save(added)
            visible += added
            let ownOfType = visible.filter { $0.type == type }
            let doomed = Array(ownOfType.shuffled(using: &generator).prefix(ownOfType.count / 3))
            if round % 3 != 0 {
                try await store.delete(doomed)
                let gone = Set(doomed.map(\.uuid))
                visible.removeAll { gone.contains($0.uuid) }
            }
            for _ in 0..<3 {
                try await Self.compare(
                    store, type: type, visible: visible, around: around, calendar: calendar, using: &generator)
            }
        }
    }

    @Test func readDeniedTypeWithOtherSourcesCountsOnlyTheAppsOwnSamples() async throws {
        var generator = SeededGenerator(seed: 0x5EC2E7)
        let (calendar, around) = Self.zones[1]
        let store = try await StoreFixture.authorizedStore(
            share: Set(Self.types), policy: .deny(read: [.heartRate, .stepCount]))
        let samples = try Self.types.flatMap { type in
            try Self.samples(of: type, count: 200, around: around, span: 6 * 86_400, using: &generator)
        }
        try store.ingest(samples)
        let visible = samples.filter { $0.source == Fixture.source || ![.heartRate, .stepCount].contains($0.type) }
        for round in 0..<16 {
            try await Self.compare(
                store, type: Self.types[round % Self.types.count], visible: visible, around: around,
                calendar: calendar, using: &generator)
        }
    }

    /// The columns alone, without a store: the engine's collection over the same samples, for every option and
    /// interval, including a sample straddling many intervals and intervals with no data between others.
    @Test(arguments: [UInt64(1), 2, 3])
    func columnarEngineEqualsTheSampleEngine(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let (calendar, around) = Self.zones[Int(seed) % Self.zones.count]
        for type in Self.types {
            let samples = try Self.samples(of: type, count: 250, around: around, span: 4 * 86_400, using: &generator)
                .compactMap { sample -> HealthQuantitySample? in
                    if case .quantity(let quantity) = sample { return quantity }
                    return nil
                }
            var columns = try #require(SampleColumns(type: type))
            for sample in samples.shuffled(using: &generator) {
                columns.insert(sample, isOwned: sample.source == Fixture.source)
            }
            #expect(columns.count == samples.count)
            for _ in 0..<TestScale.count(8, atLeast: 2) {
                let options = Self.randomOptions(for: type, using: &generator)
                let components = Self.intervals.randomElement(using: &generator)!
                let anchor = around + Double(Int.random(in: -50...50, using: &generator)) * 900
                let range = DateInterval(
                    start: around - Double.random(in: 0..<2 * 86_400, using: &generator).rounded(),
                    end: around + Double.random(in: 0..<2 * 86_400, using: &generator).rounded())
                let expected = try StatisticsCollection(
                    type, samples: samples, options: options, anchorDate: anchor, intervalComponents: components,
                    calendar: calendar, range: range)
                let actual = try StatisticsCollection(
                    type, columns: columns, positions: 0..<columns.count, options: options, anchorDate: anchor,
                    intervalComponents: components, calendar: calendar, range: range)
                #expect(actual.statistics() == expected.statistics(), "\(type) \(options) \(components)")
            }
        }
    }
}
