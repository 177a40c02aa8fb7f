import Foundation
import HealthFlow
import Testing

/// Loading generated data into a store.
struct GeneratedDataIngestTests {
    typealias F = StoreStatisticsFixture

    @Test func ingestedDataIsReadableAsTheGeneratorsDevices() async throws {
        let data = try F.data(days: 3, seed: 12)
        let store = try await F.store(holding: data)
        let steps = try await store.samples(of: .stepCount)
        #expect(steps.compactMap(\.quantitySample) == data.quantitySamples(of: .stepCount))
        #expect(Set(steps.map(\.source)) == [data.configuration.phone])
        let sleep = try await store.samples(of: .sleepAnalysis)
        #expect(sleep.count == data.categorySamples(of: .sleepAnalysis).count)
        // The devices' data is not the app's to delete.
        let refusal = await storeError { try await store.delete(steps[0]) }
        #expect(refusal == .notSavedByThisApp(steps[0].uuid, source: data.configuration.phone))
    }

    @Test func ingestingTheSameDataTwiceAddsNothing() async throws {
        let data = try F.data(days: 2, seed: 13)
        let store = try await F.store(holding: data)
        #expect(throws: HealthStoreError.self) { try store.ingest(data) }
        #expect(try await store.samples(of: .stepCount).count == data.quantitySamples(of: .stepCount).count)
    }

    /// A year of hour-level data ingests and serves a year of daily step sums. (How fast is a benchmark's
    /// question, not a test's: no wall-clock assertion here.)
    @Test func aYearOfHourlyDataIngestsAndServesDailySums() async throws {
        let data = try F.data(days: 365, seed: 1)
        let samples = data.allSamples()
        let store = InMemoryHealthStore(configuration: StoreFixture.app)
        try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        try store.ingest(samples)
        let year = try await store.statisticsCollection(
            of: .stepCount, options: .cumulativeSum, anchorDate: data.dateInterval.start,
            intervalComponents: DateComponents(day: 1), calendar: F.utc)
        #expect(year.statistics().count == 365)
    }
}
