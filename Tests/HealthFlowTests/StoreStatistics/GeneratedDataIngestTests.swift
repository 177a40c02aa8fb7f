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

    /// A year of hour-level data ingests quickly (well under a second in release builds; the bound leaves
    /// room for debug builds on a shared machine) and serves a year of daily step sums.
    @Test(.timeLimit(.minutes(1)))
    func aYearOfHourlyDataIngestsQuickly() async throws {
        let data = try F.data(days: 365, seed: 1)
        let samples = data.allSamples()
        let store = InMemoryHealthStore(configuration: StoreFixture.app)
        try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        let clock = ContinuousClock()
        let elapsed = try clock.measure { try store.ingest(samples) }
        #expect(elapsed < .seconds(20), "ingesting \(samples.count) samples took \(elapsed)")
        let year = try await store.statisticsCollection(
            of: .stepCount, options: .cumulativeSum, anchorDate: data.dateInterval.start,
            intervalComponents: DateComponents(day: 1), calendar: F.utc)
        #expect(year.statistics().count == 365)
    }
}
