import Foundation
import HealthFlow
import Testing

struct HealthElectrocardiogramTests {
    private func recording(
        measurements: Int = 4,
        averageHeartRate: HealthQuantity? = HealthQuantity(unit: Fixture.perMinute, doubleValue: 64),
        samplingFrequency: HealthQuantity? = HealthQuantity(unit: .hertz(), doubleValue: 512)
    ) throws -> HealthElectrocardiogram {
        try HealthElectrocardiogram(
            start: Fixture.noon, end: Fixture.noon.addingTimeInterval(30), classification: .sinusRhythm,
            symptomsStatus: .none, averageHeartRate: averageHeartRate, samplingFrequency: samplingFrequency,
            numberOfVoltageMeasurements: measurements, source: Fixture.watch)
    }

    @Test func makesAValidRecording() throws {
        let ecg = try recording()
        #expect(ecg.type == .electrocardiogram)
        #expect(ecg.classification == .sinusRhythm)
        #expect(try ecg.averageHeartRate?.doubleValue(for: HealthUnit.count().unitDivided(by: .second())) == 64.0 / 60)
        #expect(ecg.samplingFrequency?.description == "512 Hz")
        #expect(HealthElectrocardiogram.Classification.unrecognized.rawValue == 100)
    }

    @Test func checksUnitsOfHeartRateAndFrequency() throws {
        #expect(
            throws: ValidationError.incompatibleUnit(
                .electrocardiogram, field: "averageHeartRate", unit: .hertz(),
                expected: HealthUnit.count().unitDivided(by: .second()))
        ) {
            try recording(averageHeartRate: HealthQuantity(unit: .hertz(), doubleValue: 1))
        }
        #expect(
            throws: ValidationError.incompatibleUnit(
                .electrocardiogram, field: "samplingFrequency", unit: Fixture.perMinute, expected: .hertz())
        ) {
            try recording(samplingFrequency: HealthQuantity(unit: Fixture.perMinute, doubleValue: 512))
        }
        #expect(
            ValidationError.incompatibleUnit(
                .electrocardiogram, field: "samplingFrequency", unit: Fixture.perMinute, expected: .hertz()
            ).description == "electrocardiogram samplingFrequency requires a unit compatible with Hz; got count/min")
        _ = try recording(samplingFrequency: HealthQuantity(unit: HealthUnit.second().reciprocal(), doubleValue: 512))
        _ = try recording(averageHeartRate: nil, samplingFrequency: nil)
    }

    @Test func rejectsANegativeMeasurementCount() {
        #expect(
            throws: ValidationError.negativeValue(.electrocardiogram, field: "numberOfVoltageMeasurements", value: -1)
        ) {
            try recording(measurements: -1)
        }
    }

    @Test func validatesVoltageMeasurementsKeptBesideTheSample() throws {
        let ecg = try recording(measurements: 3)
        let good = [
            ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: 0, microvolts: 12),
            ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: 0.001953125, microvolts: -40.5),
            ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: 0.00390625, microvolts: 300),
        ]
        try ecg.validateVoltageMeasurements(good)
        #expect(good[1].quantity.description == "-40.5 mcV")
        #expect(try good[2].quantity.doubleValue(for: .voltUnit(with: .milli)) == 0.3)

        #expect(throws: ValidationError.voltageMeasurementCountMismatch(expected: 3, actual: 2)) {
            try ecg.validateVoltageMeasurements(Array(good.prefix(2)))
        }
        let backwards = [good[0], good[2], good[1]]
        #expect(throws: ValidationError.voltageMeasurementTimeOutOfRange(index: 2, timeSinceSampleStart: 0.001953125)) {
            try ecg.validateVoltageMeasurements(backwards)
        }
        let late = [good[0], good[1], ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: 31, microvolts: 1)]
        #expect(throws: ValidationError.voltageMeasurementTimeOutOfRange(index: 2, timeSinceSampleStart: 31)) {
            try ecg.validateVoltageMeasurements(late)
        }
        let noisy = [
            good[0], good[1], ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: 1, microvolts: .infinity),
        ]
        #expect(
            throws: ValidationError.nonFiniteValue(
                .electrocardiogram, field: "voltageMeasurements[2].microvolts", value: .infinity)
        ) {
            try ecg.validateVoltageMeasurements(noisy)
        }
    }

    @Test func codesAndValidatesOnDecode() throws {
        let ecg = try recording()
        let data = try Fixture.encoder().encode(ecg)
        #expect(try JSONDecoder().decode(HealthElectrocardiogram.self, from: data) == ecg)
        let measurements = [ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: 0.5, microvolts: 7)]
        #expect(
            try JSONDecoder().decode(
                [ElectrocardiogramVoltageMeasurement].self, from: JSONEncoder().encode(measurements)) == measurements)
    }
}
