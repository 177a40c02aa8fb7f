import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// What is particular to ECG voltages: the recording's checks, and the query's streaming face with its promise and
/// async twins (what every kind of series shares is in `SampleSeriesStoreTests`).
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

    @Test func recordingRefusesMeasurementsThatDoNotFitTheECG() throws {
        let good = try Self.recording(count: 4)
        #expect(throws: ValidationError.voltageMeasurementCountMismatch(expected: 4, actual: 3)) {
            try ElectrocardiogramRecording(
                electrocardiogram: good.electrocardiogram,
                voltageMeasurements: Array(good.voltageMeasurements.prefix(3)))
        }
    }
}
