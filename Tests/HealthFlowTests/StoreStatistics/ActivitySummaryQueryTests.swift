import FlowKit
import Foundation
import HealthFlow
import Testing

/// `HealthActivitySummaryQuery` through the in-memory store: summaries derived from the stored samples.
struct ActivitySummaryQueryTests {
    typealias F = StoreStatisticsFixture

    @Test(arguments: [UInt64(1), 8])
    func summariesEqualTheGeneratorsForEveryDay(seed: UInt64) async throws {
        let data = try F.data(days: 6, seed: seed)
        let store = try await F.store(holding: data)
        let all = try ActivitySummaryPredicate(start: F.day(data, 0), end: F.day(data, 5))
        let summaries = try #require(try await F.summaries(store, all).get())
        #expect(summaries == data.activitySummaries)
    }

    @Test func predicateSelectsItsDaysAscending() async throws {
        let data = try F.data(days: 6, seed: 4)
        let store = try await F.store(holding: data)
        let middle = try ActivitySummaryPredicate(start: F.day(data, 1), end: F.day(data, 3))
        let summaries = try #require(try await F.summaries(store, middle).get())
        #expect(summaries == Array(data.activitySummaries[1...3]))
        #expect(summaries.map(\.dateInterval.start) == summaries.map(\.dateInterval.start).sorted())
        // Days beyond the data get summaries of zero with the goals.
        let later = try ActivitySummaryPredicate(start: F.day(data, 7), end: F.day(data, 8))
        let empty = try #require(try await F.summaries(store, later).get())
        #expect(empty.count == 2)
        #expect(empty.allSatisfy { $0.activeEnergyBurned.value == 0 && $0.appleStandHours.value == 0 })
        #expect(empty.allSatisfy { $0.activeEnergyBurnedGoal.value == data.configuration.goals.activeEnergyBurned })
    }

    @Test func withoutAPredicateEveryDayWithActivityDataIsSummarised() async throws {
        let data = try F.data(days: 4, seed: 9)
        let store = try await F.store(holding: data)
        let summaries = try #require(try await F.summaries(store, nil).get())
        // The current calendar decides the days: derive the expectation with it from the same samples.
        let calendar = Calendar.current
        let inputs = data.allSamples().filter {
            [.activeEnergyBurned, .appleExerciseTime, .appleMoveTime, .appleStandHour].contains($0.type)
        }
        let first = try #require(inputs.map(\.startDate).min())
        let last = try #require(inputs.map { $0.endDate > $0.startDate ? $0.endDate - 0.001 : $0.startDate }.max())
        let predicate = try ActivitySummaryPredicate(
            start: calendar.dateComponents([.calendar, .year, .month, .day], from: first),
            end: calendar.dateComponents([.calendar, .year, .month, .day], from: last))
        let expected = try ActivitySummaryBuilder(calendar: calendar, goals: data.configuration.goals)
            .summaries(from: inputs, for: predicate)
        #expect(summaries == expected)
        #expect(!summaries.isEmpty)
        #expect(summaries.map(\.dateInterval.start) == summaries.map(\.dateInterval.start).sorted())

        let blank = try await StoreFixture.authorizedStore(share: [.stepCount], read: [.activitySummary])
        #expect(await F.summaries(blank, nil) == .success([]))
    }

    @Test func summariesNeedReadPermissionForActivitySummaries() async throws {
        let data = try F.data(days: 3, seed: 2)
        let predicate = try ActivitySummaryPredicate(start: F.day(data, 0), end: F.day(data, 2))
        // Denied: no summaries, and no error that would reveal the denial.
        let denied = try await F.store(holding: data, policy: .deny(read: [.activitySummary]))
        #expect(await F.summaries(denied, predicate) == .success([]))
        // Never requested: the same.
        let unasked = try await F.store(holding: data, read: [.stepCount])
        #expect(await F.summaries(unasked, predicate) == .success([]))
        // Allowed summaries but denied the samples' types: the summary's own permission governs.
        let summariesOnly = try await F.store(
            holding: data, policy: .deny(read: [.activeEnergyBurned, .appleExerciseTime, .appleStandHour]))
        #expect(await F.summaries(summariesOnly, predicate) == .success(data.activitySummaries))
    }

    @Test func storeGoalsAreWrittenIntoTheSummaries() async throws {
        let goals = try ActivitySummaryGoals(activeEnergyBurned: 321, exerciseTime: 45, standHours: 9)
        let store = InMemoryHealthStore(configuration: StoreFixture.app, activitySummaryGoals: goals)
        #expect(InMemoryHealthStore(configuration: StoreFixture.app).activitySummaryGoals == .standard)
        try await store.requestAuthorization(toShare: [.stepCount], read: [.activitySummary])
        try store.ingest([
            try StoreFixture.sample(
                .activeEnergyBurned, 120, unit: "kcal", start: Fixture.noon, duration: 1800, source: Fixture.watch)
        ])
        let day = F.utc.dateComponents([.calendar, .year, .month, .day], from: Fixture.noon)
        let summaries = try #require(try await F.summaries(store, try ActivitySummaryPredicate(day: day)).get())
        #expect(summaries.count == 1)
        #expect(summaries.first?.activeEnergyBurned.value == 120)
        #expect(summaries.first?.activeEnergyBurnedGoal.value == 321)
        #expect(summaries.first?.exerciseTimeGoal.value == 45)
        #expect(summaries.first?.standHoursGoal.value == 9)
    }

    @Test func executingTwiceReportsQueryAlreadyExecuted() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount], read: [.activitySummary])
        let outcomes = EventLog<HealthStoreError?>()
        let (promise, resolver) = Promise<Void>.pending()
        let query = HealthActivitySummaryQuery(predicate: nil) { _, _, error in
            outcomes.append(error as? HealthStoreError)
            if outcomes.events.count == 2 { resolver.fulfill() }
        }
        store.execute(query)
        store.execute(query)
        _ = await promise.settled
        #expect(outcomes.events.contains(nil))
        #expect(outcomes.events.contains(.queryAlreadyExecuted(query: "HealthActivitySummaryQuery(activitySummary)")))
    }

    @Test func unavailableHealthDataFailsTheQuery() async {
        let store = StoreFixture.store(available: false)
        #expect(await F.summaries(store, nil) == .failure(.healthDataUnavailable))
    }
}
