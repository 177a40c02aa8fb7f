import FlowKit
import Foundation
import HealthFlow
@_spi(Testing) import HealthKitShim
import Testing

/// `HKElectrocardiogramQuery` streams an electrocardiogram's voltages as HealthKit does: each measurement with
/// its time and its lead I quantity, then `.done`.
@Suite struct HKElectrocardiogramQueryTests {
    @Test func queryStreamsEachVoltageThenDone() async throws {
        let backend = HealthKitShimDevice.makeDefaultBackend()
        let store = HKHealthStore(device: HealthKitShimDevice(backend: backend))
        let start = Date(timeIntervalSince1970: 1_709_294_400)
        let values = [12.5, -40.25, 300, 7.125]
        let ecg = try HealthElectrocardiogram(
            start: start, end: start.addingTimeInterval(Double(values.count) / 512), classification: .sinusRhythm,
            averageHeartRate: nil, samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512),
            numberOfVoltageMeasurements: values.count,
            source: HealthSource(bundleIdentifier: "com.apple.NanoHeartRhythm", name: "ECG"))
        try backend.ingest([
            try ElectrocardiogramRecording(
                electrocardiogram: ecg,
                voltageMeasurements: values.enumerated().map {
                    ElectrocardiogramVoltageMeasurement(
                        timeSinceSampleStart: Double($0.offset) / 512, microvolts: $0.element)
                })
        ])
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
}
