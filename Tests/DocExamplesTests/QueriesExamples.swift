import Foundation
import HealthFlow
import Testing

extension DocExamples {
    /// The examples of the `///` comments in `Sources/HealthFlow/Queries/`.
    @Suite struct Queries {
        static let app = HealthAppConfiguration(
            bundleIdentifier: "com.example.steps", name: "Steps",
            healthShareUsageDescription: "Shows your steps.", healthUpdateUsageDescription: "Logs your walks.")
        static let me = HealthSource(bundleIdentifier: "com.example.steps", name: "Steps")
        static let watch = HealthSource(bundleIdentifier: "com.apple.health.watch", name: "Apple Watch")

        /// A store whose handlers run before the call that triggers them returns, allowed to share and read steps.
        static func store() async throws -> InMemoryHealthStore {
            let store = InMemoryHealthStore(configuration: app, policy: .grantAll, callbackExecutor: .immediate)
            try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) as Void
            return store
        }

        static func steps(
            _ count: Double, from start: Date, minutes: Double, source: HealthSource = me,
            metadata: [MetadataKey: MetadataValue] = [:]
        ) throws -> HealthSample {
            .quantity(
                try HealthQuantitySample(
                    type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: count), start: start,
                    end: start.addingTimeInterval(minutes * 60), source: source, metadata: metadata))
        }

        /// The steps of `quantity`, or `nil`.
        static func count(_ quantity: HealthQuantity?) -> Double? {
            quantity.flatMap { try? $0.doubleValue(for: .count()) }
        }

        @Test func predicatesCombineDatesSourcesAndMetadata() async throws {
            let now = Date()
            let weekAgo = now.addingTimeInterval(-7 * 86_400)
            let store = try await Self.store()
            let typed = try Self.steps(
                800, from: now.addingTimeInterval(-2 * 86_400), minutes: 10, metadata: [.wasUserEntered: true])
            let counted = try Self.steps(900, from: now.addingTimeInterval(-2 * 86_400), minutes: 10)
            let typedLongAgo = try Self.steps(
                700, from: now.addingTimeInterval(-9 * 86_400), minutes: 10, metadata: [.wasUserEntered: true])
            try await store.save([typed, counted, typedLongAgo]) as Void
            try store.ingest([
                try Self.steps(
                    600, from: now.addingTimeInterval(-86_400), minutes: 10, source: Self.watch,
                    metadata: [.wasUserEntered: true])
            ])

            let lastWeek = SamplePredicate.samples(withStart: weekAgo, end: now)
            let mine = SamplePredicate.sources(["com.example.steps"])
            let predicate = lastWeek && mine && .metadata(.wasUserEntered, equals: true)
            let typedIn = try await store.samples(of: .stepCount, matching: predicate)
            #expect(typedIn.map(\.uuid) == [typed.uuid])
        }

        @Test func aStatisticsQueryCountsTheShareOfASampleInsideItsWindow() async throws {
            let one = try #require(Calendar.current.date(from: DateComponents(year: 2025, month: 6, day: 2, hour: 13)))
            let two = one.addingTimeInterval(3_600)
            let store = try await Self.store()
            try await store.save(try Self.steps(100, from: two.addingTimeInterval(-180), minutes: 5)) as Void
            let shown = Recording<Double?>()
            let show: @Sendable (HealthQuantity?) -> Void = { shown.record(Self.count($0)) }
            let report: @Sendable ((any Error)?) -> Void = {
                Issue.record("unexpected error: \(String(describing: $0))")
            }

            let oneToTwo = SamplePredicate.samples(withStart: one, end: two)
            let query = HealthStatisticsQuery(
                quantityType: .stepCount, quantitySamplePredicate: oneToTwo, options: .cumulativeSum
            ) { _, statistics, error in
                guard let statistics else { return report(error) }
                show(statistics.sumQuantity())  // 60: the 100 steps from 13:57 to 14:02 spent 3 of 5 minutes here
            }
            store.execute(query)
            #expect(shown.recorded == [60])
        }

        @Test func aStatisticsCollectionQueryPlotsEachDayAndRedrawsAfterAChange() async throws {
            let calendar = Calendar.current
            let monday = try #require(calendar.date(from: DateComponents(year: 2025, month: 6, day: 2)))
            func day(_ offset: Int, _ hour: Int) throws -> Date {
                try #require(calendar.date(byAdding: DateComponents(day: offset, hour: hour), to: monday))
            }
            let sunday = try day(6, 12)
            let nextMonday = try day(7, 0)
            let store = try await Self.store()
            try await store.save([
                try Self.steps(1_000, from: try day(0, 10), minutes: 30),
                try Self.steps(500, from: try day(2, 18), minutes: 10),
            ]) as Void
            let tuesdayWalk = try Self.steps(2_000, from: try day(1, 9), minutes: 20)
            let plotted = Recording<Double?>()
            let plot: @Sendable (HealthQuantity?) -> Void = { plotted.record(Self.count($0)) }
            let tuesdayNoon = try day(1, 12)
            let redrawn = Recording<Double?>()
            let redraw: @Sendable (StatisticsCollection?) -> Void = { collection in
                redrawn.record(Self.count(collection?.statistics(for: tuesdayNoon)?.sumQuantity()))
            }
            let report: @Sendable ((any Error)?) -> Void = {
                Issue.record("unexpected error: \(String(describing: $0))")
            }

            let week = SamplePredicate.samples(withStart: monday, end: nextMonday)
            let query = HealthStatisticsCollectionQuery(
                quantityType: .stepCount, quantitySamplePredicate: week, options: .cumulativeSum,
                anchorDate: monday, intervalComponents: DateComponents(day: 1),
                statisticsUpdateHandler: { _, collection, _ in redraw(collection) }
            ) { _, collection, error in
                guard let collection else { return report(error) }
                try? collection.enumerateStatistics(from: monday, to: sunday) { day, _ in plot(day.sumQuantity()) }
            }
            store.execute(query)  // plots seven days, empty ones included
            try await store.save(tuesdayWalk)  // redraws with Tuesday's steps
            store.stop(query)  // no more redraws

            try await store.save(try Self.steps(300, from: try day(3, 8), minutes: 5)) as Void
            #expect(plotted.recorded == [1_000, nil, 500, nil, nil, nil, nil])
            #expect(redrawn.recorded == [2_000])
        }

        @Test func aPersistedAnchorResumesWhereTheLastQueryStopped() async throws {
            let store = try await Self.store()
            let start = Date().addingTimeInterval(-3_600)
            let walks = try (0..<3).map {
                try Self.steps(100, from: start.addingTimeInterval(Double($0) * 600), minutes: 5)
            }
            try await store.save(walks) as Void

            let first = try await store.changes(of: .stepCount, since: nil, limit: 2)
            let saved = try JSONEncoder().encode(first.newAnchor)  // a bare number
            // after a relaunch
            let anchor = try JSONDecoder().decode(HealthQueryAnchor.self, from: saved)
            let rest = try await store.changes(of: .stepCount, since: anchor)  // nothing repeated, nothing skipped
            #expect(UInt64(String(decoding: saved, as: UTF8.self)) != nil)
            #expect(first.samples.map(\.uuid) == walks.prefix(2).map(\.uuid))
            #expect(rest.samples.map(\.uuid) == [walks[2].uuid])
        }

        @Test func anObserverCountsTheUpdatesTheAppAcknowledged() async throws {
            let store = try await Self.store()
            let walk = try Self.steps(1_200, from: Date().addingTimeInterval(-600), minutes: 5)
            let refreshes = Recording<Int>()
            let refreshSteps: @Sendable () -> Void = { refreshes.record(1) }

            let query = HealthObserverQuery(sampleType: .stepCount) { _, completion, _ in
                refreshSteps()
                completion()
            }
            store.execute(query)
            try await store.save(walk)
            #expect(query.deliveredUpdates == 2)  // on start, and after the save
            #expect(query.unacknowledgedUpdates == 0)  // the app called every completion handler
            store.stop(query)  // it observes until stopped, and holds its handler until then
            #expect(refreshes.recorded.count == 2)
        }
    }
}
