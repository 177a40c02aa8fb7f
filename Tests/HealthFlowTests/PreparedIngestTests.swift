import Foundation
import Testing

@testable import HealthFlow

/// A batch prepared off the store's lock (``PreparedIngest``) is stored exactly as a plain `ingest(_:)` stores it:
/// the same log bytes, the same refusals, the same samples after reopening.
struct PreparedIngestTests {
    typealias Backend = SegmentedHealthStoreBackendTests

    /// No flush: every change stays in the log, where it can be compared byte for byte.
    static let roomy = SegmentMemtableLimit(rows: 1_000, bytes: 1 << 20)

    static func store(_ backend: SegmentedHealthStoreBackend) -> BackedHealthStore<SegmentedHealthStoreBackend> {
        BackedHealthStore(backend: backend, configuration: StoreFixture.app, callbackExecutor: .immediate)
    }

    /// Step counts with metadata, heart rates and a blood pressure (a correlation with its two members).
    static func batch(at offset: TimeInterval) throws -> [HealthSample] {
        try (0..<6).map { position in
            let start = Fixture.noon + offset + Double(position) * 60
            return position % 2 == 0
                ? try StoreFixture.sample(
                    .stepCount, Double(position), start: start, duration: 60,
                    metadata: [.syncIdentifier: .string("prepared-\(offset)-\(position)"), .syncVersion: .number(1)])
                : try StoreFixture.sample(.heartRate, 60 + Double(position), unit: "count/min", start: start)
        } + [try StoreFixture.bloodPressure(at: Fixture.noon + offset)]
    }

    /// The bytes the log holds after its first `headerLength` (its length when the store was opened empty).
    static func loggedChanges(
        of backend: SegmentedHealthStoreBackend, in directory: URL, after headerLength: Int
    ) throws -> Data {
        let log = try #require(backend.log)
        let bytes = try Data(contentsOf: directory.appendingPathComponent(SegmentLog.name(log.generation)))
        return bytes.dropFirst(headerLength)
    }

    @Test func aPreparedBatchIsLoggedByteForByteAsAPlainIngestLogsItAndReadBackAfterReopening() throws {
        try DurableFixture.withTemporaryDirectory { plainDirectory in
            try DurableFixture.withTemporaryDirectory { preparedDirectory in
                let batches = [try Self.batch(at: 0), try Self.batch(at: 3_600)]
                let plain = try Backend.open(plainDirectory, memtableLimit: Self.roomy, logLimit: 1 << 20)
                let prepared = try Backend.open(preparedDirectory, memtableLimit: Self.roomy, logLimit: 1 << 20)
                let header = try #require(prepared.log).length
                #expect(plain.log?.length == header)
                let plainStore = Self.store(plain)
                let preparedStore = Self.store(prepared)
                for batch in batches {
                    try plainStore.ingest(batch)
                    try preparedStore.ingest(try preparedStore.prepareIngest(batch))
                }
                let logged = try Self.loggedChanges(of: prepared, in: preparedDirectory, after: header)
                #expect(logged.count > 0)
                #expect(logged == (try Self.loggedChanges(of: plain, in: plainDirectory, after: header)))
                #expect(prepared.lastSequence == plain.lastSequence)
                plain.close()
                prepared.close()

                let reopened = try Backend.open(preparedDirectory, memtableLimit: Self.roomy, logLimit: 1 << 20)
                #expect(reopened.recovery.replayedChanges == batches.count, "one log record a batch")
                #expect(reopened.lastSequence == plain.lastSequence)
                for type in [HealthObjectType.stepCount, .heartRate, .bloodPressureSystolic] {
                    let expected = batches.joined().flatMap { SampleRules.flattened($0) }.filter { $0.type == type }
                    #expect(reopened.samples(of: type, matching: nil) == expected)
                }
                reopened.close()
            }
        }
    }

    @Test func aPreparedBatchHoldingAStoredUUIDIsRefusedWholeAndLogsNothing() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let backend = try Backend.open(directory, memtableLimit: Self.roomy, logLimit: 1 << 20)
            let store = Self.store(backend)
            let stored = try Self.batch(at: 0)
            try store.ingest(try store.prepareIngest(stored))
            let length = try #require(backend.log).length
            let fresh = try StoreFixture.sample(.stepCount, 7, start: Fixture.noon + 7_200)
            // A member of the stored correlation, inside a new batch.
            let member = try #require(SampleRules.flattened(stored.last!).last)
            let repeated = try StoreFixture.sample(
                member.type == .bloodPressureSystolic ? .bloodPressureSystolic : .bloodPressureDiastolic, 80,
                unit: "mmHg", uuid: member.uuid)
            let refused = try store.prepareIngest([fresh, repeated])
            #expect(throws: HealthStoreError.duplicateUUID(member.uuid)) { try store.ingest(refused) }
            #expect(backend.log?.length == length)
            #expect(backend.sample(withUUID: fresh.uuid) == nil)
            #expect(backend.failure == nil)
            backend.close()
        }
    }

    @Test func preparingRefusesWhatTheSampleRulesRefuseAsAPlainIngestDoes() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let backend = try Backend.open(directory, memtableLimit: Self.roomy, logLimit: 1 << 20)
            let store = Self.store(backend)
            // Steps counted per minute: a unit of another dimension, made without the check a sample gets when made.
            let misfit = HealthSample.quantity(
                try HealthQuantitySample(
                    type: .stepCount, quantity: Fixture.quantity(60, "count/min"), start: Fixture.noon,
                    end: Fixture.noon, source: Fixture.source, metadata: [:], uuid: UUID(), knownUnitFit: false))
            let batch = [try StoreFixture.sample(.stepCount, 1), misfit]
            var plainError: (any Error)?
            do { try store.ingest(batch) } catch { plainError = error }
            var preparingError: (any Error)?
            do { _ = try store.prepareIngest(batch) } catch { preparingError = error }
            guard case .invalidSample(.incompatibleUnit(let type, _, _, _))? = preparingError as? HealthStoreError
            else {
                Issue.record("expected an incompatible unit, got \(String(describing: preparingError))")
                return
            }
            #expect(type == .stepCount)
            #expect(String(describing: preparingError) == String(describing: plainError))
            #expect(backend.lastSequence == 0)
            backend.close()
        }
    }
}
