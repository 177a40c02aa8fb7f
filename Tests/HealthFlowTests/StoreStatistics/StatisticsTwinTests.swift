import FlowKit
import Foundation
import HealthFlow
import Testing

/// The statistics and activity summary queries' promise and `async` twins give their callbacks' outcomes.
struct StatisticsTwinTests {
    typealias F = StoreStatisticsFixture

    /// An error as a comparable value.
    static func storeError(_ error: any Error) -> HealthStoreError {
        error as? HealthStoreError ?? .unknown(reason: "foreign: \(error)")
    }

    /// Runs `body`, mapping failures to store errors.
    static func attempt<Value>(_ body: () async throws -> Value) async -> Result<Value, HealthStoreError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(storeError(error))
        }
    }

    struct StatisticsCase: Sendable, CustomTestStringConvertible {
        let name: String
        let type: HealthObjectType
        let options: StatisticsOptions
        let window: Bool
        var testDescription: String { name }
    }

    static let statisticsCases: [StatisticsCase] = [
        StatisticsCase(
            name: "steps sum", type: .stepCount, options: [.cumulativeSum, .separateBySource], window: false),
        StatisticsCase(name: "steps in a window", type: .stepCount, options: .cumulativeSum, window: true),
        StatisticsCase(name: "heart rate", type: .heartRate, options: [.discreteAverage, .discreteMax], window: true),
        StatisticsCase(name: "no data", type: .bloodGlucose, options: .discreteAverage, window: false),
        StatisticsCase(name: "illegal option", type: .heartRate, options: .cumulativeSum, window: false),
        StatisticsCase(name: "not a quantity type", type: .sleepAnalysis, options: .duration, window: false),
    ]

    @Test(arguments: statisticsCases)
    func statisticsTwinsEqualTheCallback(_ scenario: StatisticsCase) async throws {
        let data = try F.data(days: 3, seed: 5)
        // Blood glucose is not readable here, so "no data" is read denial, indistinguishable as it must be.
        let store = try await F.store(holding: data, policy: .deny(read: [.bloodGlucose]))
        let start = data.dateInterval.start
        let predicate = scenario.window ? SamplePredicate.samples(withStart: start + 40_000, end: start + 150_000) : nil
        let callback = await F.statistics(store, scenario.type, predicate, options: scenario.options)
        let promise: Promise<HealthStatistics?> = firstly {
            store.statistics(
                of: scenario.type, matching: predicate, options: scenario.options)
        }
        let viaPromise = await promise.settled.mapError(Self.storeError)
        let viaAsync = await Self.attempt {
            try await store.statistics(of: scenario.type, matching: predicate, options: scenario.options)
        }
        // The twins turn the callback's noData into nil.
        let expected = callback == .failure(.noData(scenario.type)) ? .success(nil) : callback
        #expect(viaPromise == expected)
        #expect(viaAsync == expected)
        if scenario.name == "no data" { #expect(viaAsync == .success(nil)) }
        if scenario.name == "steps sum" { #expect(try viaAsync.get() != nil) }
    }

    @Test func collectionTwinsEqualTheCallback() async throws {
        let data = try F.data(days: 3, seed: 6)
        let store = try await F.store(holding: data)
        let anchor = data.dateInterval.start
        let hourly = DateComponents(hour: 1)
        for options in [StatisticsOptions.cumulativeSum, [.cumulativeSum, .separateBySource], .discreteMin] {
            let callback = await F.collection(store, .stepCount, options: options, anchor: anchor, components: hourly)
                .map { $0?.statistics() }
            let promise: Promise<StatisticsCollection> = firstly {
                store.statisticsCollection(
                    of: .stepCount, options: options, anchorDate: anchor, intervalComponents: hourly, calendar: F.utc)
            }
            let viaPromise = await promise.settled.mapError(Self.storeError).map { Optional($0.statistics()) }
            let viaAsync = await Self.attempt {
                try await store.statisticsCollection(
                    of: .stepCount, options: options, anchorDate: anchor, intervalComponents: hourly, calendar: F.utc)
            }.map { Optional($0.statistics()) }
            #expect(viaPromise == callback, "\(options)")
            #expect(viaAsync == callback, "\(options)")
        }
    }

    @Test func activitySummaryTwinsEqualTheCallback() async throws {
        let data = try F.data(days: 4, seed: 7)
        let store = try await F.store(holding: data)
        let predicates: [ActivitySummaryPredicate?] = [
            nil, try ActivitySummaryPredicate(start: F.day(data, 1), end: F.day(data, 2)),
        ]
        for predicate in predicates {
            let callback = await F.summaries(store, predicate)
            let promise: Promise<[ActivitySummary]> = firstly { store.activitySummaries(matching: predicate) }
            let viaPromise = await promise.settled.mapError(Self.storeError).map { Optional($0) }
            let viaAsync = await Self.attempt { try await store.activitySummaries(matching: predicate) }
                .map { Optional($0) }
            #expect(viaPromise == callback)
            #expect(viaAsync == callback)
        }
        let unavailable = StoreFixture.store(available: false)
        let failed = await Self.attempt { try await unavailable.activitySummaries(matching: nil) }
        #expect(failed.map { Optional($0) } == (await F.summaries(unavailable, nil)))
    }
}
