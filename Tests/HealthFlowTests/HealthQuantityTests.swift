import Foundation
import HealthFlow
import Testing

struct HealthQuantityTests {
    @Test func readsTheValueInACompatibleUnit() throws {
        let height = HealthQuantity(unit: .meterUnit(with: .centi), doubleValue: 172)
        #expect(try height.doubleValue(for: .meter()) == 1.72)
        #expect(approximately(try height.doubleValue(for: .inch()), 172 / 2.54))
        #expect(try height.doubleValue(for: .meterUnit(with: .centi)) == 172)
    }

    @Test func refusesAnIncompatibleUnit() {
        let height = HealthQuantity(unit: .meterUnit(with: .centi), doubleValue: 172)
        #expect(throws: UnitError.incompatible(from: .meterUnit(with: .centi), to: .gram())) {
            try height.doubleValue(for: .gram())
        }
    }

    @Test func checksCompatibility() {
        let rate = HealthQuantity(unit: HealthUnit.count().unitDivided(by: .minute()), doubleValue: 72)
        #expect(rate.is(compatibleWith: HealthUnit.count().unitDivided(by: .second())))
        #expect(!rate.is(compatibleWith: .hertz()))
    }

    @Test func describesItselfAsValueAndUnit() throws {
        #expect(HealthQuantity(unit: .meterUnit(with: .centi), doubleValue: 172).description == "172 cm")
        #expect(HealthQuantity(unit: .meter(), doubleValue: 1.72).description == "1.72 m")
        #expect(HealthQuantity(unit: .percent(), doubleValue: 0.97).description == "0.97 %")
        #expect(
            HealthQuantity(unit: try HealthUnit(from: "mL/(kg*min)"), doubleValue: 45).description == "45 mL/min·kg")
        #expect(HealthQuantity(unit: .count(), doubleValue: -0.0).description == "0 count")
        #expect(HealthQuantity(unit: .count(), doubleValue: 1e20).description == "1e+20 count")
    }

    @Test func equalityIsMemberwise() {
        let meter = HealthQuantity(unit: .meter(), doubleValue: 1)
        #expect(meter == HealthQuantity(unit: .meter(), doubleValue: 1))
        #expect(meter != HealthQuantity(unit: .meterUnit(with: .centi), doubleValue: 100))
        #expect(Set([meter, meter]).count == 1)
    }

    @Test func codesAsValueAndUnitString() throws {
        let quantity = HealthQuantity(unit: try HealthUnit(from: "mg/dL"), doubleValue: 99.5)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(quantity)
        #expect(String(decoding: data, as: UTF8.self) == #"{"unit":"mg/dL","value":99.5}"#)
        #expect(try JSONDecoder().decode(HealthQuantity.self, from: data) == quantity)
    }

    @Test func decodingRejectsAnUnknownUnit() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(HealthQuantity.self, from: Data(#"{"unit":"ug","value":1}"#.utf8))
        }
    }
}
