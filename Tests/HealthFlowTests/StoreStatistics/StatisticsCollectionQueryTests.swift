import FlowKit
import Foundation
import HealthFlow
import Testing

/// `HealthStatisticsCollectionQuery` through the in-memory store.
struct StatisticsCollectionQueryTests {
    typealias F = StoreStatisticsFixture

    @Test func refusesIllegalOptionsAndIntervals() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let average = await F.collection(store, .stepCount, options: .discreteAverage, anchor: Fixture.noon)
            .map { $0?.statistics() }
        #expect(average == .failure(.incompatibleStatisticsOption(.stepCount, option: "discreteAverage")))
        let category = await F.collection(store, .sleepAnalysis, options: .duration, anchor: Fixture.noon)
            .map { $0?.statistics() }
        #expect(
            category
                == .failure(
                    .incompatibleStatisticsOption(.sleepAnalysis, option: "duration")))
        let never = await F.collection(
            store, .stepCount, options: .cumulativeSum, anchor: Fixture.noon, components: DateComponents())
        guard case .failure(.invalidStatisticsRequest(.invalidIntervalComponents)) = never else {
            Issue.record("expected invalidIntervalComponents, got \(never)")
            return
        }
        #expect(HealthStoreError.invalidStatisticsRequest(.tooManyIntervals(limit: 1)).code == .invalidArgument)
    }

    @Test func executingTwiceReportsQueryAlreadyExecuted() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let errors = EventLog<HealthStoreError?>()
        let (promise, resolver) = Promise<Void>.pending()
        let query = HealthStatisticsCollectionQuery(
            quantityType: .stepCount, options: .cumulativeSum, anchorDate: Fixture.noon,
            intervalComponents: DateComponents(hour: 1)
        ) { _, _, error in
            errors.append(error as? HealthStoreError)
            if errors.events.count == 2 { resolver.fulfill() }
        }
        store.execute(query)
        store.execute(query)
        _ = await promise.settled
        #expect(errors.events.contains(nil))
        #expect(errors.events.contains(.queryAlreadyExecuted(query: "HealthStatisticsCollectionQuery(stepCount)")))
    }

    @Test(arguments: [UInt64(3), 11, 29])
    func collectionsEqualThePureEngineOnGeneratedData(seed: UInt64) async throws {
        let data = try F.data(days: 5, seed: seed)
        let store = try await F.store(holding: data)
        let start = data.dateInterval.start
        let window = DateInterval(start: start + 86_400 + 5400, end: start + 4 * 86_400 - 1234)
        let cases: [(HealthObjectType, StatisticsOptions, DateComponents)] = [
            (.stepCount, [.cumulativeSum, .separateBySource], DateComponents(day: 1)),
            (.stepCount, [.cumulativeSum, .duration], DateComponents(minute: 90)),
            (.heartRate, [.discreteAverage, .discreteMin, .discreteMax, .mostRecent], DateComponents(hour: 3)),
            (.activeEnergyBurned, .cumulativeSum, DateComponents(hour: 1)),
        ]
        for (type, options, components) in cases {
            let predicate = SamplePredicate.samples(withStart: window.start, end: window.end)
            let matched = data.quantitySamples(of: type).filter { predicate.evaluate(.quantity($0)) }
            let expected = try StatisticsCollection(
                type, samples: matched, options: options, anchorDate: start + 1800, intervalComponents: components,
                calendar: F.utc, range: window)
            let actual = try #require(
                try await F.collection(
                    store, type, predicate, options: options, anchor: start + 1800, components: components
                ).get())
            #expect(actual.statistics() == expected.statistics(), "\(type) \(components)")
            #expect(actual.range == window)
            #expect(
                try actual.statistics(from: window.start, to: window.end)
                    == expected.statistics(from: window.start, to: window.end))
        }
    }

    @Test(arguments: [UInt64(2), 5])
    func dailyStepSumsEqualBruteForce(seed: UInt64) async throws {
        let data = try F.data(days: 8, seed: seed)
        let store = try await F.store(holding: data)
        let collection = try #require(
            try await F.collection(store, .stepCount, options: .cumulativeSum, anchor: data.dateInterval.start).get())
        var bruteForce: [Date: Double] = [:]
        for sample in data.quantitySamples(of: .stepCount) {
            bruteForce[F.utc.startOfDay(for: sample.startDate), default: 0] += sample.quantity.value
        }
        let days = collection.statistics()
        #expect(days.count == 8)
        for day in days {
            let sum = try #require(day.sumQuantity()?.value)
            #expect(approximately(sum, bruteForce[day.startDate] ?? -1, tolerance: 1e-9), "\(day.startDate)")
        }
        #expect(Set(days.map(\.startDate)) == Set(bruteForce.keys))
    }

    @Test func rangeIsTheSpanOfMatchingSamplesWithoutADateRange() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        try await store.save([
            try StoreFixture.sample(.stepCount, 5, start: Fixture.noon + 600, duration: 60),
            try StoreFixture.sample(.stepCount, 7, start: Fixture.noon + 3 * 3600 + 60),  // instantaneous
        ])
        let collection = try #require(
            try await F.collection(
                store, .stepCount, options: .cumulativeSum, anchor: Fixture.noon, components: DateComponents(hour: 1)
            ).get())
        #expect(collection.range.start == Fixture.noon + 600)
        #expect(collection.range.end > Fixture.noon + 3 * 3600 + 60)
        #expect(collection.range.end < Fixture.noon + 3 * 3600 + 61)
        #expect(collection.statistics().map { $0.sumQuantity()?.value } == [5, 7])
        #expect(try collection.statistics(from: collection.range.start, to: collection.range.end).count == 4)

        let empty = try #require(
            try await F.collection(
                store, .heartRate, options: .discreteMax, anchor: Fixture.noon, components: DateComponents(hour: 1)
            ).get())
        #expect(empty.statistics().isEmpty)
        #expect(empty.range.duration == 0)
    }

    @Test func readDeniedTypeCountsOnlyTheAppsOwnSamples() async throws {
        let store = try await StoreFixture.authorizedStore(
            share: [.stepCount], read: [.stepCount], policy: .deny(read: [.stepCount]))
        try store.ingest([try StoreFixture.sample(.stepCount, 1000, start: Fixture.noon, source: Fixture.watch)])
        try await store.save(try StoreFixture.sample(.stepCount, 30, start: Fixture.noon + 7200))
        let collection = try #require(
            try await F.collection(
                store, .stepCount, options: [.cumulativeSum, .separateBySource], anchor: Fixture.noon,
                components: DateComponents(hour: 1)
            ).get())
        #expect(collection.statistics().map { $0.sumQuantity()?.value } == [30])
        #expect(collection.sources() == [Fixture.source])
    }

    /// A collection query with an update handler: one initial delivery, one per matching change, none after
    /// `stop` — stepped by hand on a manual executor.
    @Test func updateHandlerFiresAfterASaveAndStopsAfterStop() async throws {
        let manual = ManualExecutor()
        let store = StoreFixture.store(executor: manual.executor)
        store.requestAuthorization(toShare: [.stepCount, .heartRate], read: [.stepCount, .heartRate]) { _, _ in }
        manual.runAll()
        let today = SamplePredicate.samples(withStart: Fixture.noon, end: Fixture.noon + 86_400)
        let initial = EventLog<[Double?]>()
        let updates = EventLog<[Double?]>()
        @Sendable func sums(_ collection: StatisticsCollection?) -> [Double?] {
            collection?.statistics().map { $0.sumQuantity()?.value } ?? []
        }
        let query = HealthStatisticsCollectionQuery(
            quantityType: .stepCount, quantitySamplePredicate: today, options: .cumulativeSum,
            anchorDate: Fixture.noon, intervalComponents: DateComponents(hour: 1), calendar: F.utc,
            statisticsUpdateHandler: { _, collection, _ in updates.append(sums(collection)) }
        ) { _, collection, _ in initial.append(sums(collection)) }

        store.save(try StoreFixture.sample(.stepCount, 10)) { _, _ in }
        store.execute(query)
        manual.runAll()
        #expect(initial.events == [[10]])
        #expect(updates.events.isEmpty)

        store.save(try StoreFixture.sample(.stepCount, 5, start: Fixture.noon + 3600)) { _, _ in }
        manual.runAll()
        #expect(updates.events == [[10, 5]])

        // Changes the query does not match call nothing: another type, another day.
        store.save(try StoreFixture.sample(.heartRate, 60, unit: "count/min")) { _, _ in }
        store.save(try StoreFixture.sample(.stepCount, 99, start: Fixture.noon + 2 * 86_400)) { _, _ in }
        manual.runAll()
        #expect(updates.events == [[10, 5]])

        // Ingested data from another source counts like a save.
        try store.ingest([try StoreFixture.sample(.stepCount, 2, start: Fixture.noon + 60, source: Fixture.watch)])
        manual.runAll()
        #expect(updates.events == [[10, 5], [12, 5]])

        store.stop(query)
        store.save(try StoreFixture.sample(.stepCount, 1, start: Fixture.noon + 120)) { _, _ in }
        manual.runAll()
        #expect(updates.events.count == 2)
        #expect(initial.events.count == 1)
        #expect(query.isStopped)
    }

    @Test func stopBeforeDeliveryCallsNoHandler() async throws {
        let manual = ManualExecutor()
        let store = StoreFixture.store(executor: manual.executor)
        store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) { _, _ in }
        store.save(try StoreFixture.sample(.stepCount, 10)) { _, _ in }
        manual.runAll()
        let calls = EventLog<String>()
        let query = HealthStatisticsCollectionQuery(
            quantityType: .stepCount, options: .cumulativeSum, anchorDate: Fixture.noon,
            intervalComponents: DateComponents(hour: 1),
            statisticsUpdateHandler: { _, _, _ in calls.append("update") }
        ) { _, _, _ in calls.append("initial") }
        store.execute(query)
        store.stop(query)
        store.save(try StoreFixture.sample(.stepCount, 1)) { _, _ in }
        manual.runAll()
        #expect(calls.events.isEmpty)
    }
}
