import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// The one storage engine behind the in-memory and file stores: its persistence decides what can fail and
/// what is kept; the rules, the state and the answers are the same.
struct StoreEngineTests {
    static func failureType<Persistence: StorePersistence>(of _: Persistence.Type) -> ObjectIdentifier {
        ObjectIdentifier(Persistence.Failure.self)
    }

    @Test func onlyTheJournalCanFailToKeepAChange() {
        #expect(Self.failureType(of: MemoryPersistence.self) == ObjectIdentifier(Never.self))
        #expect(Self.failureType(of: JournalPersistence.self) == ObjectIdentifier(FileStoreError.self))
    }

    /// Compiles only while the in-memory store's `ingest` throws `HealthStoreError` and nothing wider.
    @Test func inMemoryIngestThrowsOnlyTheRuleThatRefusedIt() throws {
        let store = StoreFixture.store()
        let sample = try StoreFixture.sample()
        try store.ingest([sample])
        do throws(HealthStoreError) {
            try store.ingest([sample])
            Issue.record("a repeated UUID was ingested")
        } catch {
            #expect(error == .duplicateUUID(sample.uuid))
        }
    }

    @Test func fileIngestReportsARefusalAsARuleAndAClosedJournalAsStorage() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            let sample = try StoreFixture.sample()
            try store.ingest([sample])
            #expect(throws: HealthStoreError.duplicateUUID(sample.uuid)) { try store.ingest([sample]) }
            store.close()
            #expect(throws: FileStoreError.closed) { try store.ingest([try StoreFixture.sample()]) }
            #expect(store.lastChangeSequence == 1, "neither failure changed the store")
        }
    }

    @Test func theMemoryAndJournalEnginesAcceptAndRefuseTheSameChanges() throws {
        let operations = try DurableFixture.workload(seed: 7, snapshots: true)
        let reference = DurableFixture.reference()
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory, limit: 4 << 10)
            var refused = 0
            for (position, operation) in operations.enumerated() {
                let kept = DurableFixture.perform(operation, on: store)
                #expect(DurableFixture.perform(operation, on: reference) == kept, "operation \(position)")
                if !kept { refused += 1 }
            }
            #expect(refused > 0, "the workload includes refused changes")
            #expect(StateDump(store.image) == StateDump(reference.image))
            store.close()
        }
    }

    /// Both stores are one `LocalHealthStore`: code written against it (or against `HealthQueryRunner`, which the
    /// file store now is too) serves either, and the same changes give the same answers.
    @Test func eitherStoreServesCodeWrittenForLocalHealthStore() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let file = try DurableFixture.open(directory)
            let stores: [LocalHealthStore] = [DurableFixture.reference(), file]
            let samples = try (0..<5).map {
                try StoreFixture.sample(.stepCount, Double($0), start: Fixture.noon + Double($0))
            }
            var answers: [[UUID]] = []
            for store in stores {
                #expect(
                    DurableFixture.outcome {
                        store.requestAuthorization(toShare: [.stepCount], read: [.stepCount], completion: $0)
                    })
                #expect(DurableFixture.outcome { store.save(samples, withCompletion: $0) })
                #expect(DurableFixture.outcome { store.delete(samples[1], withCompletion: $0) })
                answers.append(Self.stepCountUUIDs(in: store))
                #expect(store.lastChangeSequence == 6)
            }
            #expect(answers[0] == samples.map(\.uuid).filter { $0 != samples[1].uuid })
            #expect(answers[1] == answers[0])
            file.close()
        }
    }

    /// The UUIDs a sample query over step counts returns, run through `runner` (callbacks run at once).
    static func stepCountUUIDs(in runner: any HealthQueryRunner) -> [UUID] {
        let found = LockedState<[UUID]?>(nil)
        runner.execute(
            HealthSampleQuery(sampleType: .stepCount) { _, samples, _ in
                found.withLock { $0 = samples?.map(\.uuid) }
            })
        let uuids = found.withLock { $0 }
        #expect(uuids != nil, "the query answered at once")
        return uuids ?? []
    }
}
