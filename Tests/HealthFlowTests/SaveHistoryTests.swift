import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// What the UUID index decides on the save path — stored already, repeated in a batch, deleted and saved again —
/// and what anchored queries and a reopened store make of such a history.
struct SaveHistoryTests {
    private static let share: Set<HealthObjectType> = [.stepCount, .bloodPressureSystolic, .bloodPressureDiastolic]

    /// A history of out-of-order saves, deletions, a correlation and a UUID saved again after its deletion.
    private static func history(
        save: ([HealthSample]) -> Bool, delete: ([HealthSample]) -> Bool
    ) throws -> (kept: [HealthSample], deleted: [HealthSample]) {
        let reused = UUID()
        let early = try StoreFixture.sample(.stepCount, 10, start: Fixture.noon - 3_600)
        let late = try StoreFixture.sample(.stepCount, 20, start: Fixture.noon + 3_600)
        let first = try StoreFixture.sample(.stepCount, 30, start: Fixture.noon, uuid: reused)
        let again = try StoreFixture.sample(.stepCount, 40, start: Fixture.noon - 60, uuid: reused)
        let pressure = try StoreFixture.bloodPressure(at: Fixture.noon + 60)
        #expect(save([late, first]))
        #expect(save([early, pressure]))
        #expect(delete([first, pressure]))
        #expect(save([again]))
        return ([late, early, again], [first, pressure])
    }

    @Test func aUUIDDeletedCanBeSavedAgainAndAnchoredQueriesReportTheDeletionAndTheNewSample() async throws {
        let store = try await StoreFixture.authorizedStore(share: Self.share, executor: .immediate)
        let (kept, deleted) = try Self.history(
            save: { samples in DurableFixture.outcome { store.save(samples, withCompletion: $0) } },
            delete: { samples in DurableFixture.outcome { store.delete(samples, withCompletion: $0) } })
        // In change order: the live additions, the deletion of the UUID's first sample.
        let changes = try await store.changes(of: .stepCount, since: nil)
        #expect(changes.samples == kept)
        #expect(changes.deletedObjects.map(\.uuid) == [deleted[0].uuid])
        #expect(try await store.samples(of: .stepCount).map(\.startDate) == kept.map(\.startDate).sorted())
        let pressure = try await store.changes(of: .bloodPressureSystolic, since: nil)
        #expect(pressure.samples.isEmpty && pressure.deletedObjects.count == 1)
    }

    @Test func aUUIDStoredAlreadyIsRefusedWithItsNameAndNothingOfTheBatchIsApplied() async throws {
        let store = try await StoreFixture.authorizedStore(share: Self.share)
        let stored = try StoreFixture.sample(.stepCount, 5)
        try await store.save(stored)
        let before = StateDump(store.image)
        let member = try StoreFixture.bloodPressure(at: Fixture.noon + 10)
        guard case .correlation(let correlation) = member, let firstMember = correlation.objects.first else {
            throw CorrelationExpected()
        }
        let repeatedMember = try StoreFixture.sample(
            .bloodPressureSystolic, 110, unit: "mmHg", uuid: firstMember.uuid)
        let refusals: [([HealthSample], UUID)] = [
            ([try StoreFixture.sample(.stepCount, 1), stored], stored.uuid),
            ([member, repeatedMember], firstMember.uuid),
            ([try StoreFixture.sample(.stepCount, 2), member, member], member.uuid),
        ]
        for (batch, repeated) in refusals {
            let error = await storeError { try await store.save(batch) }
            #expect(error == .duplicateUUID(repeated))
            #expect(StateDump(store.image) == before)
        }
    }

    @Test func aCorrelationMemberFromAnotherSourceIsNamedInTheRefusal() async throws {
        let store = try await StoreFixture.authorizedStore(share: Self.share)
        let other = HealthSource(bundleIdentifier: "com.example.other", name: "Other")
        let member = try HealthQuantitySample(
            type: .bloodPressureDiastolic, quantity: Fixture.quantity(80, "mmHg"), start: Fixture.noon,
            end: Fixture.noon, source: other)
        let systolic = try HealthQuantitySample(
            type: .bloodPressureSystolic, quantity: Fixture.quantity(120, "mmHg"), start: Fixture.noon,
            end: Fixture.noon, source: Fixture.source)
        let correlation = try HealthCorrelation(
            type: .bloodPressure, start: Fixture.noon, end: Fixture.noon, objects: [systolic, member],
            source: Fixture.source)
        let error = await storeError { try await store.save(.correlation(correlation)) }
        #expect(
            error
                == .sourceMismatch(
                    member.uuid, expected: Fixture.source.bundleIdentifier, actual: other.bundleIdentifier))
    }

    @Test func aReopenedStoreHoldsTheSameHistoryAndAnswersTheSameAnchoredQueries() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            #expect(
                DurableFixture.outcome {
                    store.requestAuthorization(toShare: Self.share, read: Self.share, completion: $0)
                })
            _ = try Self.history(
                save: { samples in DurableFixture.outcome { store.save(samples, withCompletion: $0) } },
                delete: { samples in DurableFixture.outcome { store.delete(samples, withCompletion: $0) } })
            let saved = StateDump(store.image)
            let changes = Self.anchored(store)
            store.close()
            for snapshot in [false, true] {
                let reopened = try DurableFixture.open(directory)
                #expect(StateDump(reopened.image) == saved)
                #expect(Self.anchored(reopened) == changes)
                if snapshot { try reopened.snapshot() }
                reopened.close()
            }
            let fromSnapshot = try DurableFixture.open(directory)
            defer { fromSnapshot.close() }
            #expect(StateDump(fromSnapshot.image) == saved)
            #expect(Self.anchored(fromSnapshot) == changes)
        }
    }

    /// The step count's anchored changes from the start, as UUIDs.
    private static func anchored(_ store: FileHealthStore) -> [String] {
        let result = LockedState<[String]>([])
        let query = HealthAnchoredObjectQuery(type: .stepCount, predicate: nil, anchor: nil, limit: 0) {
            _, samples, deleted, _, _ in
            result.withLock {
                $0 = (samples ?? []).map { "+\($0.uuid)" } + (deleted ?? []).map { "-\($0.uuid)" }
            }
        }
        store.execute(query)
        return result.withLock { $0 }
    }

    private struct CorrelationExpected: Error {}
}
