import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// The stores keep an ECG's voltage measurements beside it, and give them back through
/// `HealthElectrocardiogramQuery` and its promise and async twins — after a reopen too.
struct ElectrocardiogramVoltageStoreTests {
    /// A recording of `count` measurements at 512 Hz with values that differ from one to the next.
    static func recording(count: Int = 1024, start: Date = Fixture.noon) throws -> ElectrocardiogramRecording {
        let rate = 512.0
        let ecg = try HealthElectrocardiogram(
            start: start, end: start.addingTimeInterval(Double(count) / rate), classification: .sinusRhythm,
            symptomsStatus: .none, averageHeartRate: nil,
            samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: rate), numberOfVoltageMeasurements: count,
            source: Fixture.watch)
        let measurements = (0..<count).map { index in
            ElectrocardiogramVoltageMeasurement(
                timeSinceSampleStart: Double(index) / rate, microvolts: sin(Double(index) / 9) * 800 + 0.125)
        }
        return try ElectrocardiogramRecording(electrocardiogram: ecg, voltageMeasurements: measurements)
    }

    /// What the callback face delivers: the measurements, then whether `.done` came last (or the error).
    static func streamed(
        _ ecg: HealthElectrocardiogram, from store: any HealthStore
    ) -> (measurements: [ElectrocardiogramVoltageMeasurement], done: Bool, error: (any Error)?) {
        let state = LockedState<([ElectrocardiogramVoltageMeasurement], Bool, (any Error)?)>(([], false, nil))
        store.execute(
            HealthElectrocardiogramQuery(electrocardiogram: ecg) { _, result in
                state.withLock { state in
                    switch result {
                    case .measurement(let measurement):
                        #expect(!state.1)
                        state.0.append(measurement)
                    case .done: state.1 = true
                    case .error(let error): state.2 = error
                    }
                }
            })
        return state.withLock { $0 }
    }

    @Test func inMemoryStoreStreamsIngestedVoltagesInOrderThenDone() async throws {
        let store = StoreFixture.store(executor: .immediate)
        try await store.requestAuthorization(toShare: [], read: [.electrocardiogram])
        let recording = try Self.recording()
        try store.ingest([recording])
        let streamed = Self.streamed(recording.electrocardiogram, from: store)
        #expect(streamed.measurements == recording.voltageMeasurements)
        #expect(streamed.done)
        #expect(streamed.error == nil)
        let samples = try await store.samples(of: .electrocardiogram)
        #expect(samples == [.electrocardiogram(recording.electrocardiogram)])
    }

    @Test func promiseAndAsyncTwinsReturnTheSameMeasurements() async throws {
        let store = StoreFixture.store()
        try await store.requestAuthorization(toShare: [], read: [.electrocardiogram])
        let recording = try Self.recording(count: 300)
        try store.ingest([recording])
        let awaited = try await store.voltageMeasurements(of: recording.electrocardiogram)
        let promised = try await Promise { try await store.voltageMeasurements(of: recording.electrocardiogram) }
            .value
        #expect(awaited == recording.voltageMeasurements)
        #expect(promised == awaited)
    }

    @Test func readDenialAndUnknownECGsGiveNoMeasurements() async throws {
        let denied = StoreFixture.store(policy: .deny(read: [.electrocardiogram]))
        try await denied.requestAuthorization(toShare: [], read: [.electrocardiogram])
        let recording = try Self.recording(count: 16)
        try denied.ingest([recording])
        #expect(try await denied.voltageMeasurements(of: recording.electrocardiogram) == [])

        let allowed = StoreFixture.store()
        try await allowed.requestAuthorization(toShare: [], read: [.electrocardiogram])
        #expect(try await allowed.voltageMeasurements(of: recording.electrocardiogram) == [])
        try allowed.ingest([.electrocardiogram(recording.electrocardiogram)])
        #expect(try await allowed.voltageMeasurements(of: recording.electrocardiogram) == [])
    }

    @Test func ingestingARecordingTwiceIsRefusedWhole() throws {
        let store = StoreFixture.store(executor: .immediate)
        let first = try Self.recording(count: 8)
        try store.ingest([first])
        let second = try Self.recording(count: 8, start: Fixture.oneHourLater)
        #expect(throws: HealthStoreError.duplicateUUID(first.electrocardiogram.uuid)) {
            try store.ingest([second, first])
        }
        #expect(store.lastChangeSequence == 1)
    }

    @Test func recordingRefusesMeasurementsThatDoNotFitTheECG() throws {
        let good = try Self.recording(count: 4)
        #expect(throws: ValidationError.voltageMeasurementCountMismatch(expected: 4, actual: 3)) {
            try ElectrocardiogramRecording(
                electrocardiogram: good.electrocardiogram,
                voltageMeasurements: Array(good.voltageMeasurements.prefix(3)))
        }
    }

    @Test func storeWithoutVoltagesReportsTheQueryUnsupported() async throws {
        let store = BackedHealthStore(backend: EmptyBackend(), configuration: StoreFixture.app)
        let recording = try Self.recording(count: 2)
        await #expect(
            throws: HealthStoreError.unsupportedQueryType(
                .electrocardiogram, query: "HealthElectrocardiogramQuery(electrocardiogram)")
        ) {
            try await store.voltageMeasurements(of: recording.electrocardiogram)
        }
    }

    @Test func durableStoreKeepsVoltagesThroughJournalReplayAndSnapshot() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let recordings = try [Self.recording(count: 700), Self.recording(count: 5, start: Fixture.oneHourLater)]
            let store = try DurableFixture.open(directory)
            #expect(DurableFixture.perform(.authorize(share: [], read: [.electrocardiogram]), on: store))
            try store.ingest(recordings)
            store.close()

            let replayed = try DurableFixture.open(directory)
            #expect(replayed.recovery.snapshotGeneration == nil)
            for recording in recordings {
                #expect(
                    Self.streamed(recording.electrocardiogram, from: replayed).measurements
                        == recording.voltageMeasurements)
            }
            try replayed.snapshot()
            replayed.close()

            let restored = try DurableFixture.open(directory)
            #expect(restored.recovery.snapshotGeneration != nil)
            for recording in recordings {
                #expect(
                    Self.streamed(recording.electrocardiogram, from: restored).measurements
                        == recording.voltageMeasurements)
            }
            #expect(restored.image.voltages.count == 2)
            restored.close()
        }
    }

    @Test func snapshotWithVoltagesOfNoStoredECGIsRefusedAsInconsistent() throws {
        let stray = try Self.recording(count: 4)
        let problem = try WorkoutRouteStoreTests.snapshotProblem { storeID in
            StoreState(
                appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: storeID,
                authorization: AuthorizationTable(), indexes: [], slots: [:], locations: UUIDTable(),
                correlations: UUIDTable(), sequence: 0,
                voltages: [stray.electrocardiogram.uuid: stray.voltageMeasurements])
        }
        #expect(problem == .inconsistent("voltages of an ECG that is not stored"))
    }

    @Test func journalRecordsOfABatchOfRecordingsMergeIntoOneChange() throws {
        let recordings = try [Self.recording(count: 3), Self.recording(count: 2, start: Fixture.oneHourLater)]
        let parts = MutationCodec.encodeRecords(.insertRecordings(recordings))
        #expect(parts.map(\.kind) == [.recording, .recording])
        var decoder = SampleDecoder()
        let decoded = try parts.map { part in
            var reader = BinaryReader(part.payload, range: 0..<part.payload.count)
            return try MutationCodec.decode(kind: part.kind, from: &reader, samples: &decoder)
        }
        #expect(MutationCodec.merge(decoded) == .insertRecordings(recordings))
    }
}

/// A backend that keeps nothing: enough for a store whose ECG queries fall back to the protocol's default.
private struct EmptyBackend: HealthStoreBackend {
    var lastSequence: UInt64 { 0 }
    func sample(withUUID uuid: UUID) -> StoredHealthSample? { nil }
    func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample] { [] }
    func changes(of type: HealthObjectType, after sequence: UInt64) -> [HealthStoreChange] { [] }
    mutating func insert(_ objects: [StoredHealthSample]) throws {}
    mutating func delete(_ objects: [HealthSample]) throws {}
}
