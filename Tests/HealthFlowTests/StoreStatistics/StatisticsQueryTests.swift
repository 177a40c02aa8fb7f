import FlowKit
import Foundation
import HealthFlow
import Testing

/// `HealthStatisticsQuery` through the in-memory store: option rules, read rules, windows, and equality with
/// the pure engine on generated data.
struct StatisticsQueryTests {
    typealias F = StoreStatisticsFixture

    struct OptionCase: Sendable, CustomTestStringConvertible {
        let type: HealthObjectType
        let options: StatisticsOptions
        let expected: HealthStoreError
        var testDescription: String { "\(type) \(options)" }
    }

    static let optionCases: [OptionCase] = [
        OptionCase(
            type: .stepCount, options: .discreteAverage,
            expected: .incompatibleStatisticsOption(.stepCount, option: "discreteAverage")),
        OptionCase(
            type: .stepCount, options: [.cumulativeSum, .discreteMax],
            expected: .incompatibleStatisticsOption(.stepCount, option: "discreteMax")),
        OptionCase(
            type: .heartRate, options: .cumulativeSum,
            expected: .incompatibleStatisticsOption(.heartRate, option: "cumulativeSum")),
        OptionCase(
            type: .sleepAnalysis, options: .duration,
            expected: .incompatibleStatisticsOption(.sleepAnalysis, option: "duration")),
        OptionCase(
            type: .stepCount, options: StatisticsOptions(rawValue: 1 << 9),
            expected: .invalidStatisticsRequest(.unknownOptions(rawValue: 1 << 9))),
    ]

    @Test(arguments: optionCases)
    func refusesOptionsThatDoNotSuitTheType(_ scenario: OptionCase) async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount], read: [.stepCount, .heartRate])
        try store.ingest([try StoreFixture.sample(.stepCount, 10, source: Fixture.watch)])
        let outcome = await F.statistics(store, scenario.type, options: scenario.options)
        #expect(outcome == .failure(scenario.expected))
        #expect(scenario.expected.code == .invalidArgument)
    }

    @Test func legalOptionsForBothStylesAreAccepted() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount, .heartRate])
        try await store.save([
            try StoreFixture.sample(.stepCount, 10), try StoreFixture.sample(.heartRate, 60, unit: "count/min"),
        ])
        let steps = await F.statistics(
            store, .stepCount, options: [.cumulativeSum, .mostRecent, .duration, .separateBySource])
        let beats = await F.statistics(
            store, .heartRate, options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource])
        #expect(try steps.get()?.sumQuantity()?.doubleValue(for: .count()) == 10)
        #expect(try beats.get()?.maximumQuantity()?.doubleValue(for: Fixture.perMinute) == 60)
    }

    @Test func executingTwiceReportsQueryAlreadyExecuted() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        try await store.save(try StoreFixture.sample(.stepCount, 10))
        let results = EventLog<Result<Double?, HealthStoreError>>()
        let (promise, resolver) = Promise<Void>.pending()
        let query = HealthStatisticsQuery(quantityType: .stepCount, options: .cumulativeSum) { _, statistics, error in
            if let error {
                results.append(.failure(error as? HealthStoreError ?? .unknown(reason: "foreign")))
            } else {
                results.append(.success(try? statistics?.sumQuantity()?.doubleValue(for: .count())))
            }
            if results.events.count == 2 { resolver.fulfill() }
        }
        store.execute(query)
        store.execute(query)
        _ = await promise.settled
        #expect(results.events.contains(.success(10)))
        #expect(results.events.contains(.failure(.queryAlreadyExecuted(query: "HealthStatisticsQuery(stepCount)"))))
        #expect(query.isExecuted)
    }

    @Test func unavailableHealthDataFailsTheQuery() async {
        let store = StoreFixture.store(available: false)
        #expect(await F.statistics(store, .stepCount, options: .cumulativeSum) == .failure(.healthDataUnavailable))
    }

    @Test func noMatchingSampleReportsNoData() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        #expect(await F.statistics(store, .stepCount, options: .cumulativeSum) == .failure(.noData(.stepCount)))
        try await store.save(try StoreFixture.sample(.stepCount, 10))
        let tomorrow = SamplePredicate.samples(withStart: Fixture.noon + 86_400, end: Fixture.noon + 2 * 86_400)
        #expect(
            await F.statistics(store, .stepCount, tomorrow, options: .cumulativeSum) == .failure(.noData(.stepCount)))
    }

    /// HealthKit's example: 100 steps from 13:57 to 14:02 give 60 to the 13:00 hour and 40 to the 14:00 hour.
    @Test func predicateDateRangeIsTheWindowForProportionalSplitting() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let thirteen = Fixture.noon + 3600
        try await store.save(try StoreFixture.sample(.stepCount, 100, start: thirteen + 57 * 60, duration: 300))
        let first = await F.statistics(
            store, .stepCount, .samples(withStart: thirteen, end: thirteen + 3600), options: .cumulativeSum)
        let second = await F.statistics(
            store, .stepCount, .samples(withStart: thirteen + 3600, end: thirteen + 7200), options: .cumulativeSum)
        let whole = await F.statistics(store, .stepCount, options: .cumulativeSum)
        #expect(approximately(Self.sum(first) ?? -1, 60))
        #expect(approximately(Self.sum(second) ?? -1, 40))
        #expect(try whole.get()?.sumQuantity()?.doubleValue(for: .count()) == 100)
        // A range open on one side clips only on the other.
        let sinceTwo = await F.statistics(
            store, .stepCount, .samples(withStart: thirteen + 3600, end: nil), options: .cumulativeSum)
        #expect(approximately(Self.sum(sinceTwo) ?? -1, 40))
        // A date range inside `&&` counts too.
        let mine = SamplePredicate.sources([Fixture.source.bundleIdentifier])
        let both = await F.statistics(
            store, .stepCount, mine && .samples(withStart: thirteen, end: thirteen + 3600), options: .cumulativeSum)
        #expect(approximately(Self.sum(both) ?? -1, 60))
    }

    /// The sum a statistics outcome holds, in its canonical unit.
    static func sum(_ outcome: Result<HealthStatistics?, HealthStoreError>) -> Double? {
        guard case .success(let statistics?) = outcome else { return nil }
        return statistics.sumQuantity()?.value
    }

    @Test func reversedDateRangeIsRefused() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        try await store.save(try StoreFixture.sample(.stepCount, 100, start: Fixture.noon, duration: 7200))
        let reversed = SamplePredicate.samples(withStart: Fixture.noon + 3600, end: Fixture.noon + 1800)
        let outcome = await F.statistics(store, .stepCount, reversed, options: .cumulativeSum)
        guard case .failure(.invalidStatisticsRequest(.invalidDateRange)) = outcome else {
            Issue.record("expected invalidDateRange, got \(outcome)")
            return
        }
    }

    @Test func readDeniedTypeCountsOnlyTheAppsOwnSamples() async throws {
        let store = try await StoreFixture.authorizedStore(
            share: [.stepCount], read: [.stepCount], policy: .deny(read: [.stepCount]))
        try store.ingest([
            try StoreFixture.sample(.stepCount, 1000, start: Fixture.noon, duration: 600, source: Fixture.watch),
            try StoreFixture.sample(.stepCount, 2000, start: Fixture.noon + 900, duration: 600, source: Fixture.watch),
        ])
        #expect(await F.statistics(store, .stepCount, options: .cumulativeSum) == .failure(.noData(.stepCount)))
        let own = [
            try StoreFixture.sample(.stepCount, 30, start: Fixture.noon + 60, duration: 60),
            try StoreFixture.sample(.stepCount, 12, start: Fixture.noon + 1200, duration: 120),
        ]
        try await store.save(own)
        let options: StatisticsOptions = [.cumulativeSum, .separateBySource, .duration, .mostRecent]
        let statistics = try #require(try await F.statistics(store, .stepCount, options: options).get())
        let expected = try HealthStatistics.compute(
            .stepCount, from: own.compactMap(\.quantitySample), options: options)
        #expect(statistics == expected)
        #expect(statistics.sources == [Fixture.source])
        #expect(statistics.sumQuantity()?.value == 42)
    }

    struct EngineCase: Sendable, CustomTestStringConvertible {
        let type: HealthObjectType
        let options: StatisticsOptions
        var testDescription: String { "\(type) \(options)" }
    }

    static let engineCases: [EngineCase] = [
        EngineCase(type: .stepCount, options: [.cumulativeSum, .separateBySource, .duration, .mostRecent]),
        EngineCase(type: .activeEnergyBurned, options: [.cumulativeSum, .separateBySource]),
        EngineCase(
            type: .heartRate, options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource]),
        EngineCase(type: .bodyMass, options: [.discreteAverage, .mostRecent, .duration]),
    ]

    /// Predicates over generated data: everything, a window cutting through samples, a strict window, and
    /// a window and a source together.
    static func predicates(for data: GeneratedHealthData) -> [SamplePredicate?] {
        let start = data.dateInterval.start
        let cut = SamplePredicate.samples(withStart: start + 86_400 + 37_830, end: start + 3 * 86_400 + 64_170)
        let strict = SamplePredicate.samples(
            withStart: start + 2 * 86_400 + 1800, end: start + 4 * 86_400, options: [.strictStartDate, .strictEndDate])
        let watchOnly = SamplePredicate.sources([data.configuration.watch.bundleIdentifier]) && cut
        return [nil, cut, strict, watchOnly]
    }

    @Test(arguments: [UInt64(1), 7, 42])
    func statisticsEqualThePureEnginesOnGeneratedData(seed: UInt64) async throws {
        let data = try F.data(days: 6, seed: seed)
        let store = try await F.store(holding: data)
        for scenario in Self.engineCases {
            let samples = data.quantitySamples(of: scenario.type)
            for predicate in Self.predicates(for: data) {
                let matched = samples.filter { predicate?.evaluate(.quantity($0)) ?? true }
                let range = predicate.flatMap(Self.closedRange)
                let expected = try HealthStatistics.compute(
                    scenario.type, from: matched, options: scenario.options, in: range)
                let actual = await F.statistics(store, scenario.type, predicate, options: scenario.options)
                let context = "\(scenario.testDescription) \(String(describing: predicate))"
                if let expected {
                    #expect(actual == .success(expected), "\(context)")
                } else {
                    #expect(actual == .failure(.noData(scenario.type)), "\(context)")
                }
            }
        }
    }

    /// The date range of the test predicates (all closed).
    static func closedRange(_ predicate: SamplePredicate) -> DateInterval? {
        switch predicate {
        case .date(let start?, let end?, _): DateInterval(start: start, end: end)
        case .and(let predicates): predicates.lazy.compactMap(closedRange).first
        default: nil
        }
    }
}

extension HealthSample {
    /// The quantity sample inside, if any.
    var quantitySample: HealthQuantitySample? {
        if case .quantity(let sample) = self { return sample }
        return nil
    }
}
