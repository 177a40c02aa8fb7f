import Foundation
import HealthFlow
import Testing

struct HealthSampleTests {
    private func everyKind() throws -> [HealthSample] {
        let steps = try Fixture.sample(
            .stepCount, 1200, "count", end: Fixture.oneHourLater, metadata: [.wasUserEntered: true])
        let sleep = try HealthCategorySample(
            SleepAnalysisValue.asleepDeep, start: Fixture.noon, end: Fixture.oneHourLater, source: Fixture.watch)
        let reading = try HealthCorrelation.bloodPressure(
            systolic: HealthQuantity(unit: Fixture.mmHg, doubleValue: 120),
            diastolic: HealthQuantity(unit: Fixture.mmHg, doubleValue: 80),
            start: Fixture.noon, end: Fixture.noon, source: Fixture.source)
        let ecg = try HealthElectrocardiogram(
            start: Fixture.noon, end: Fixture.noon.addingTimeInterval(30), classification: .atrialFibrillation,
            averageHeartRate: nil, samplingFrequency: nil, numberOfVoltageMeasurements: 0, source: Fixture.watch)
        return [.quantity(steps), .category(sleep), .correlation(reading), .electrocardiogram(ecg)]
    }

    @Test func exposesCommonFieldsOfEveryKind() throws {
        let samples = try everyKind()
        #expect(samples.map(\.type) == [.stepCount, .sleepAnalysis, .bloodPressure, .electrocardiogram])
        #expect(samples.map(\.source) == [Fixture.source, Fixture.watch, Fixture.source, Fixture.watch])
        #expect(samples.allSatisfy { $0.startDate == Fixture.noon && $0.endDate >= $0.startDate })
        #expect(Set(samples.map(\.uuid)).count == 4)
        #expect(samples[0].metadata[.wasUserEntered] == .number(1))
        guard case .quantity(let steps) = samples[0] else {
            Issue.record("expected a quantity sample")
            return
        }
        #expect(samples[0].uuid == steps.uuid)
    }

    @Test func roundTripsThroughJSON() throws {
        let samples = try everyKind()
        let encoder = Fixture.encoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let data = try encoder.encode(samples)
        #expect(try decoder.decode([HealthSample].self, from: data) == samples)
        let first = String(decoding: try encoder.encode(samples[0]), as: UTF8.self)
        #expect(first.hasPrefix(#"{"quantity":{"endDate":"2024-03-01T13:00:00Z","#))
    }

    @Test(arguments: [#"{}"#, #"{"workout":{}}"#, #"{"quantity":{"uuid":"x"}}"#])
    func decodingRejectsUnknownOrIncompleteSamples(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HealthSample.self, from: Data(json.utf8)) }
    }

    @Test func decodingAnObjectWithoutExactlyOneKindKeyListsTheKinds() {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(HealthSample.self, from: Data(#"{"quantity":{},"category":{}}"#.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(
            context.debugDescription
                == "a sample has exactly one of the keys quantity, category, correlation, electrocardiogram, workout, heartbeatSeries"
        )
    }

    @Test func decodingRunsValidation() throws {
        let json = #"""
            {"quantity":{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","type":"insulinDelivery",
            "quantity":{"value":4,"unit":"IU"},"startDate":0,"endDate":0,
            "source":{"bundleIdentifier":"a","name":"A"},"metadata":{}}}
            """#
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(HealthSample.self, from: Data(json.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(context.debugDescription == "insulinDelivery requires metadata HKInsulinDeliveryReason")
    }
}
