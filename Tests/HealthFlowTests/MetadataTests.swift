import Foundation
import HealthFlow
import Testing

struct MetadataTests {
    @Test func knownKeysUseHealthKitRawStrings() {
        #expect(MetadataKey.insulinDeliveryReason.rawValue == "HKInsulinDeliveryReason")
        #expect(MetadataKey.menstrualCycleStart.rawValue == "HKMenstrualCycleStart")
        #expect(MetadataKey.foodType.rawValue == "HKFoodType")
        #expect(MetadataKey.wasUserEntered.rawValue == "HKWasUserEntered")
        #expect(MetadataKey.syncIdentifier.rawValue == "HKMetadataKeySyncIdentifier")
        #expect(MetadataKey.syncVersion.rawValue == "HKMetadataKeySyncVersion")
        #expect(MetadataKey.externalUUID.rawValue == "HKExternalUUID")
        let custom: MetadataKey = "com.example.note"
        #expect(custom == MetadataKey(rawValue: "com.example.note"))
    }

    @Test func insulinDeliveryReasonValues() {
        #expect(InsulinDeliveryReason.basal.rawValue == 1)
        #expect(InsulinDeliveryReason.bolus.rawValue == 2)
        #expect(InsulinDeliveryReason.bolus.metadataValue == .number(2))
    }

    @Test func literalsMakeValues() {
        let values: [MetadataValue] = ["Banana", 3, 1.5, true, false]
        #expect(values == [.string("Banana"), .number(3), .number(1.5), .number(1), .number(0)])
    }

    @Test func valuesCodeAsSingleKeyObjects() throws {
        let metadata: [MetadataKey: MetadataValue] = [
            .foodType: "Banana",
            .syncVersion: 3,
            "com.example.when": .date(Fixture.noon),
            "com.example.dose": .quantity(HealthQuantity(unit: .internationalUnit(), doubleValue: 4)),
        ]
        let encoder = Fixture.encoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(metadata)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"HKFoodType":{"string":"Banana"},"HKMetadataKeySyncVersion":{"number":3},"#
                + #""com.example.dose":{"quantity":{"unit":"IU","value":4}},"#
                + #""com.example.when":{"date":"2024-03-01T12:00:00Z"}}"#)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode([MetadataKey: MetadataValue].self, from: data) == metadata)
    }

    @Test(arguments: [#"{}"#, #"{"string":"a","number":1}"#, #"{"number":"a"}"#, #"{"colour":"red"}"#])
    func decodingRejectsMalformedValues(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MetadataValue.self, from: Data(json.utf8))
        }
    }

    @Test func decodingAnObjectWithoutExactlyOneKindKeyListsTheKinds() {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([MetadataValue].self, from: Data(#"[{}]"#.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(
            context.debugDescription == "a metadata value has exactly one of the keys string, number, date, quantity")
        #expect(context.codingPath.count == 1)
    }

    @Test func descriptionsAreReadable() {
        #expect(MetadataValue.string("Banana").description == "\"Banana\"")
        #expect(MetadataValue.number(2).description == "2")
        #expect(MetadataValue.quantity(HealthQuantity(unit: .count(), doubleValue: 1)).description == "1 count")
        #expect(MetadataKey.foodType.description == "HKFoodType")
    }
}
