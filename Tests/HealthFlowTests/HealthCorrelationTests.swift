import Foundation
import HealthFlow
import Testing

struct HealthCorrelationTests {
    private func systolic(_ value: Double = 120, at date: Date = Fixture.noon) throws -> HealthQuantitySample {
        try Fixture.sample(.bloodPressureSystolic, value, "mmHg", start: date, end: date)
    }

    private func diastolic(_ value: Double = 80, at date: Date = Fixture.noon) throws -> HealthQuantitySample {
        try Fixture.sample(.bloodPressureDiastolic, value, "mmHg", start: date, end: date)
    }

    private func bloodPressure(_ members: Set<HealthQuantitySample>) throws -> HealthCorrelation {
        try HealthCorrelation(
            type: .bloodPressure, start: Fixture.noon, end: Fixture.noon, objects: members, source: Fixture.source)
    }

    @Test func bloodPressureHoldsExactlyOneSystolicAndOneDiastolic() throws {
        let high = try systolic()
        let low = try diastolic()
        let reading = try bloodPressure([high, low])
        #expect(reading.objects == [high, low])
        #expect(reading.objects(for: .bloodPressureSystolic) == [high])
        #expect(reading.objects(for: .bloodPressureDiastolic) == [low])
        #expect(reading.objects(for: .heartRate).isEmpty)
    }

    @Test func bloodPressureBuilderMakesBothMembers() throws {
        let reading = try HealthCorrelation.bloodPressure(
            systolic: HealthQuantity(unit: Fixture.mmHg, doubleValue: 118),
            diastolic: HealthQuantity(unit: .pascalUnit(with: .kilo), doubleValue: 10),
            start: Fixture.noon, end: Fixture.noon, source: Fixture.source)
        #expect(reading.type == .bloodPressure)
        #expect(reading.objects.count == 2)
        #expect(reading.objects(for: .bloodPressureSystolic).first?.quantity.value == 118)
    }

    @Test func rejectsAMissingDiastolic() throws {
        let high = try systolic()
        #expect(throws: ValidationError.missingCorrelationMember(.bloodPressure, member: .bloodPressureDiastolic)) {
            try bloodPressure([high])
        }
        #expect(
            ValidationError.missingCorrelationMember(.bloodPressure, member: .bloodPressureDiastolic).description
                == "bloodPressure requires a bloodPressureDiastolic member")
    }

    @Test func rejectsAMissingSystolicAndAnEmptySet() throws {
        let low = try diastolic()
        #expect(throws: ValidationError.missingCorrelationMember(.bloodPressure, member: .bloodPressureSystolic)) {
            try bloodPressure([low])
        }
        #expect(throws: ValidationError.missingCorrelationMember(.bloodPressure, member: .bloodPressureSystolic)) {
            try bloodPressure([])
        }
    }

    @Test func rejectsTwoSystolicReadings() throws {
        let members: Set = [try systolic(120), try systolic(125), try diastolic()]
        #expect(throws: ValidationError.duplicateCorrelationMember(.bloodPressure, member: .bloodPressureSystolic)) {
            try bloodPressure(members)
        }
    }

    @Test func rejectsAnUnrelatedMember() throws {
        let pulse = try Fixture.sample(.heartRate, 70, "count/min")
        let members: Set = [try systolic(), try diastolic(), pulse]
        #expect(throws: ValidationError.unexpectedCorrelationMember(.bloodPressure, member: .heartRate)) {
            try bloodPressure(members)
        }
        #expect(
            ValidationError.unexpectedCorrelationMember(.bloodPressure, member: .heartRate).description
                == "bloodPressure cannot contain a heartRate member")
    }

    @Test func membersMustShareTheCorrelationDates() throws {
        let late = try diastolic(at: Fixture.oneHourLater)
        #expect(
            throws: ValidationError.correlationMemberDatesDiffer(
                .bloodPressure, member: .bloodPressureDiastolic, memberUUID: late.uuid)
        ) {
            try bloodPressure([try systolic(), late])
        }
    }

    @Test func rejectsReusedUUIDs() throws {
        let shared = UUID()
        let high = try Fixture.sample(.bloodPressureSystolic, 120, "mmHg", uuid: shared)
        let low = try Fixture.sample(.bloodPressureDiastolic, 80, "mmHg", uuid: shared)
        #expect(throws: ValidationError.duplicateUUID(.bloodPressure, uuid: shared)) {
            try bloodPressure([high, low])
        }
        let own = try Fixture.sample(.bloodPressureDiastolic, 80, "mmHg", uuid: shared)
        #expect(throws: ValidationError.duplicateUUID(.bloodPressure, uuid: shared)) {
            try HealthCorrelation(
                type: .bloodPressure, start: Fixture.noon, end: Fixture.noon, objects: [try systolic(), own],
                source: Fixture.source, uuid: shared)
        }
    }

    @Test func onlyCorrelationTypesMakeCorrelations() throws {
        #expect(throws: ValidationError.wrongKind(.bloodPressureSystolic, expected: .correlation)) {
            try HealthCorrelation(
                type: .bloodPressureSystolic, start: Fixture.noon, end: Fixture.noon, objects: [],
                source: Fixture.source)
        }
        #expect(throws: ValidationError.notASampleType(.bloodType)) {
            try HealthCorrelation(
                type: .bloodType, start: Fixture.noon, end: Fixture.noon, objects: [], source: Fixture.source)
        }
    }

    @Test func foodHoldsNutritionWithEnergyAndAFoodType() throws {
        let energy = try Fixture.sample(.dietaryEnergyConsumed, 105, "kcal")
        let carbs = try Fixture.sample(.dietaryCarbohydrates, 27, "g")
        let banana = try HealthCorrelation(
            type: .food, start: Fixture.noon, end: Fixture.noon, objects: [energy, carbs], source: Fixture.source,
            metadata: [.foodType: "Banana"])
        #expect(banana.objects(for: .dietaryEnergyConsumed) == [energy])
        #expect(banana.metadata[.foodType] == "Banana")
    }

    @Test func foodRejectsMissingEnergyFoodTypeOrNonNutrition() throws {
        let energy = try Fixture.sample(.dietaryEnergyConsumed, 105, "kcal")
        let carbs = try Fixture.sample(.dietaryCarbohydrates, 27, "g")
        let steps = try Fixture.sample(.stepCount, 10, "count")
        #expect(throws: ValidationError.missingCorrelationMember(.food, member: .dietaryEnergyConsumed)) {
            try HealthCorrelation(
                type: .food, start: Fixture.noon, end: Fixture.noon, objects: [carbs], source: Fixture.source,
                metadata: [.foodType: "Banana"])
        }
        #expect(throws: ValidationError.missingMetadata(.food, key: .foodType)) {
            try HealthCorrelation(
                type: .food, start: Fixture.noon, end: Fixture.noon, objects: [energy], source: Fixture.source)
        }
        #expect(
            throws: ValidationError.invalidMetadataValue(.food, key: .foodType, value: .number(1), expected: "a string")
        ) {
            try HealthCorrelation(
                type: .food, start: Fixture.noon, end: Fixture.noon, objects: [energy], source: Fixture.source,
                metadata: [.foodType: 1])
        }
        #expect(throws: ValidationError.unexpectedCorrelationMember(.food, member: .stepCount)) {
            try HealthCorrelation(
                type: .food, start: Fixture.noon, end: Fixture.noon, objects: [energy, steps], source: Fixture.source,
                metadata: [.foodType: "Banana"])
        }
    }

    @Test func codesDeterministicallyAndValidatesOnDecode() throws {
        let reading = try bloodPressure([try systolic(), try diastolic()])
        let encoder = Fixture.encoder()
        let data = try encoder.encode(reading)
        #expect(try encoder.encode(reading) == data)
        #expect(try JSONDecoder().decode(HealthCorrelation.self, from: data) == reading)

        var object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var members = try #require(object["objects"] as? [Any])
        members.removeLast()
        object["objects"] = members
        let tampered = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HealthCorrelation.self, from: tampered) }
    }
}
