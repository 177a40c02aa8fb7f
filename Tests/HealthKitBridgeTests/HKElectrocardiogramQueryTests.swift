import FlowKit
import Foundation
import HealthFlow
@_spi(Testing) import HealthKitShim
import Testing

@testable import HealthFlowHealthKit

/// `HKElectrocardiogramQuery` streams an electrocardiogram's voltages as HealthKit does: each measurement with
/// its time and its lead I quantity, then `.done`; the bridge reads an ECG's voltages through it.
@Suite struct HKElectrocardiogramQueryTests {
    static let values = [12.5, -40.25, 300, 7.125]

    /// A four-measurement recording from the watch's ECG app.
    static func recording() throws -> ElectrocardiogramRecording {
        let start = Date(timeIntervalSince1970: 1_709_294_400)
        let values = Self.values
        let ecg = try HealthElectrocardiogram(
            start: start, end: start.addingTimeInterval(Double(values.count) / 512), classification: .sinusRhythm,
            averageHeartRate: nil, samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512),
            numberOfVoltageMeasurements: values.count,
            source: HealthSource(bundleIdentifier: "com.apple.NanoHeartRhythm", name: "ECG"))
        return try ElectrocardiogramRecording(
            electrocardiogram: ecg,
            voltageMeasurements: values.enumerated().map {
                ElectrocardiogramVoltageMeasurement(
                    timeSinceSampleStart: Double($0.offset) / 512, microvolts: $0.element)
            })
    }

    @Test func queryStreamsEachVoltageThenDone() async throws {
        let backend = HealthKitShimDevice.makeDefaultBackend()
        let store = HKHealthStore(device: HealthKitShimDevice(backend: backend))
        let values = Self.values
        try backend.ingest([try Self.recording()])
        let type = HKObjectType.electrocardiogramType()
        let (authorized, granted) = Promise<Void>.pending()
        store.requestAuthorization(toShare: nil, read: [type]) { _, _ in granted.fulfill() }
        try await authorized.value

        let (found, foundResolver) = Promise<[HKElectrocardiogram]>.pending()
        store.execute(
            HKSampleQuery(sampleType: type, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil) {
                _, samples, _ in foundResolver.fulfill(samples as? [HKElectrocardiogram] ?? [])
            })
        let electrocardiogram = try #require(try await found.value.first)
        #expect(electrocardiogram.numberOfVoltageMeasurements == 4)

        let received = LockedState<[(TimeInterval, Double?)]>([])
        let (finished, finishedResolver) = Promise<Void>.pending()
        store.execute(
            HKElectrocardiogramQuery(electrocardiogram) { _, result in
                switch result {
                case .measurement(let measurement):
                    let microvolts = measurement.quantity(for: .appleWatchSimilarToLeadI)?
                        .doubleValue(for: .voltUnit(with: .micro))
                    received.withLock { $0.append((measurement.timeSinceSampleStart, microvolts)) }
                case .done: finishedResolver.fulfill()
                case .error(let error): finishedResolver.reject(error)
                }
            })
        try await finished.value
        let measurements = received.withLock { $0 }
        let microvolts: [Double?] = measurements.map(\.1)
        let times: [TimeInterval] = measurements.map(\.0)
        let expectedTimes: [TimeInterval] = (0..<values.count).map { Double($0) / 512 }
        #expect(microvolts == values)
        #expect(times == expectedTimes)
    }

    @Test func bridgeReadsVoltagesThroughHealthKitsQuery() async throws {
        let fixture = BridgeFixture()
        let recording = try Self.recording()
        try fixture.backend.ingest([recording])
        try await fixture.store.requestAuthorization(toShare: [], read: [.electrocardiogram])
        let found = try #require(try await fixture.store.samples(of: .electrocardiogram).first)
        guard case .electrocardiogram(let ecg) = found else {
            Issue.record("not an ECG: \(found.type)")
            return
        }
        #expect(try await fixture.store.voltageMeasurements(of: ecg) == recording.voltageMeasurements)
        #expect(fixture.calls("execute") >= 3)

        let unknown = try Self.recording().electrocardiogram
        let other = try HealthElectrocardiogram(
            start: unknown.startDate, end: unknown.endDate, classification: .notSet, averageHeartRate: nil,
            samplingFrequency: nil, numberOfVoltageMeasurements: 0, source: unknown.source)
        #expect(try await fixture.store.voltageMeasurements(of: other) == [])
    }
}
