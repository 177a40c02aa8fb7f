import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// The disk-backed store's statistics read its samples a block at a time
/// (``SegmentedHealthStoreBackend/reduceSamples(of:matching:into:_:)``): they fold exactly what a sample query
/// returns, ranked in insertion order,
/// and a damaged block makes them answer nothing, never part of the samples, with the damage recorded.
struct SegmentedStatisticsTests {
    @Test func eachSampleFoldedIsOneTheSampleQueryReturns() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let changes = try SegmentedHealthStoreBackendTests.workload(seed: 19, batches: 120)
            var backend = try SegmentedHealthStoreBackendTests.open(directory)
            for change in changes { try SegmentedHealthStoreBackendTests.apply(change, to: &backend) }
            #expect(backend.memtableCounts.values.contains { $0 > 0 })
            #expect(backend.segmentCounts.values.contains { $0 > 1 })
            let some = Set(
                SegmentedHealthStoreBackendTests.allUUIDs(changes).enumerated().filter { $0.offset % 3 == 0 }
                    .map(\.element))
            let predicates: [SamplePredicate?] = [
                nil,
                .samples(withStart: Fixture.noon - 6 * 3_600, end: Fixture.noon + 6 * 3_600),
                .samples(withStart: Fixture.noon, end: nil, options: .strictStartDate),
                .samples(withStart: nil, end: Fixture.noon + 3_600, options: .strictEndDate),
                .uuids(some),
                .uuids(some) && .samples(withStart: Fixture.noon, end: nil),
            ]
            var foldedAny = false
            for type in SegmentedHealthStoreBackendTests.types {
                for predicate in predicates {
                    let returned = backend.samples(of: type, matching: predicate).map(\.uuid)
                    var folded: [(uuid: UUID, rank: UInt64)] = []
                    #expect(
                        backend.reduceSamples(of: type, matching: predicate, into: &folded) { $0.append(($1.uuid, $2)) }
                    )
                    // Ranked in insertion order: sorted by rank, the fold is the sample query's answer.
                    #expect(
                        folded.sorted { $0.rank < $1.rank }.map(\.uuid) == returned,
                        "\(type) \(String(describing: predicate))")
                    foldedAny = foldedAny || !folded.isEmpty
                }
            }
            #expect(foldedAny)
            #expect(backend.failure == nil)
            backend.close()
        }
    }

    @Test func aDamagedBlockMakesStatisticsAnswerNothingAndRecordsTheDamage() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            _ = try SegmentedRepairTests.storeWithOneSegment(in: directory)
            let day = SamplePredicate.samples(withStart: Fixture.noon - 3_600, end: Fixture.noon + 86_400)
            func answers() async throws -> (average: HealthStatistics?, hours: Int, failure: FileStoreError?) {
                let backend = try SegmentedHealthStoreBackendTests.open(directory)
                defer { backend.close() }
                let store = BackedHealthStore(backend: backend, configuration: StoreFixture.app)
                try await store.requestAuthorization(toShare: [], read: [.heartRate])
                let average = try await store.statistics(of: .heartRate, matching: day, options: .discreteAverage)
                let hours = try await store.statisticsCollection(
                    of: .heartRate, matching: day, options: .discreteMax, anchorDate: Fixture.noon,
                    intervalComponents: DateComponents(hour: 1)
                ).statistics().count
                return (average, hours, backend.failure)
            }
            let intact = try await answers()
            #expect(intact.average != nil)
            #expect(intact.hours == 17)
            #expect(intact.failure == nil)

            let block = try SegmentedRepairTests.reader(directory).rowBlocks[3]
            _ = try SegmentedRepairTests.flip(directory, at: block.extent.offset + block.extent.length / 2)
            let damaged = try await answers()
            #expect(damaged.average == nil)
            #expect(damaged.hours == 0)
            #expect(
                damaged.failure
                    == .corruptFile(
                        name: SegmentedRepairTests.segment, offset: block.extent.offset,
                        problem: .payloadChecksumMismatch))
        }
    }
}
