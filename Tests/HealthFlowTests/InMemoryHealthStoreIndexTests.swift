import FlowKit
import Foundation
import Testing

// Testable: the index tests read the store's internal count of samples a query examined.
@testable import HealthFlow

struct InMemoryHealthStoreIndexTests {
    /// `count` heart-rate readings one minute apart (each lasting 30 s) from the watch, entered in time
    /// order in batches, plus a few long sleep-like readings to widen the type's longest duration.
    static func store(count: Int) async throws -> InMemoryHealthStore {
        let store = StoreFixture.store()
        try await store.requestAuthorization(toShare: [], read: [.heartRate])
        var batch: [HealthSample] = []
        batch.reserveCapacity(10_000)
        for index in 0..<count {
            batch.append(
                try StoreFixture.sample(
                    .heartRate, 60, unit: "count/min", start: Fixture.noon + Double(index) * 60, duration: 30,
                    source: Fixture.watch))
            if batch.count == 10_000 {
                try store.ingest(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try store.ingest(batch)
        return store
    }

    @Test func aDateRangeQueryExaminesOnlyTheSamplesNearTheRange() async throws {
        let small = try await Self.store(count: 5_000)
        let large = try await Self.store(count: 60_000)
        let window = SamplePredicate.samples(withStart: Fixture.noon + 4_000 * 60, end: Fixture.noon + 4_100 * 60)
        for store in [small, large] {
            let results = try await store.samples(of: .heartRate, matching: window)
            #expect(results.count == 100)
            // Two binary searches, the 100 matches and the one reading that starts within the longest
            // duration (30 s) plus one second of slack before the range.
            #expect(store.lastQueryExaminedCount <= 101)
        }
        let strict = SamplePredicate.samples(
            withStart: Fixture.noon + 4_000 * 60, end: Fixture.noon + 4_100 * 60, options: .strictStartDate)
        _ = try await large.samples(of: .heartRate, matching: strict)
        #expect(large.lastQueryExaminedCount == 100)
    }

    @Test func aLimitedQueryByStartDateStopsEarlyInEitherDirection() async throws {
        let store = try await Self.store(count: 20_000)
        let newest = try await store.samples(of: .heartRate, sortedBy: [.startDate(ascending: false)], limit: 3)
        #expect(newest.map(\.startDate) == [19_999, 19_998, 19_997].map { Fixture.noon + Double($0) * 60 })
        #expect(store.lastQueryExaminedCount <= 4)
        let oldest = try await store.samples(of: .heartRate, limit: 3)
        #expect(oldest.map(\.startDate) == [0, 1, 2].map { Fixture.noon + Double($0) * 60 })
        #expect(store.lastQueryExaminedCount <= 4)
    }

    @Test func aUUIDQueryUsesTheUUIDIndex() async throws {
        let store = try await Self.store(count: 5_000)
        let some = try await store.samples(of: .heartRate, limit: 5)
        let found = try await store.samples(of: .heartRate, matching: .uuids(Set(some.map(\.uuid))))
        #expect(found == some)
        #expect(store.lastQueryExaminedCount == 5)
    }

    @Test func outOfOrderInsertsKeepTheIndexSorted() async throws {
        let store = StoreFixture.store()
        try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        var random = SeededGenerator(seed: 5)
        let samples = try (0..<2_000).map { _ in
            try StoreFixture.sample(start: Fixture.noon + Double(Int.random(in: 0..<500, using: &random)) * 60)
        }
        for chunk in stride(from: 0, to: samples.count, by: 100) {
            try await store.save(Array(samples[chunk..<chunk + 100]))
        }
        let stored = try await store.samples(of: .stepCount)
        // Ascending start, ties in the order saved.
        let expected = samples.enumerated().sorted {
            ($0.element.startDate, $0.offset) < ($1.element.startDate, $1.offset)
        }
        #expect(stored == expected.map(\.element))
    }
}
