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
}
