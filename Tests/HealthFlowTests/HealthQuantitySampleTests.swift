import Foundation
import HealthFlow
import Testing

struct HealthQuantitySampleTests {
    @Test func makesAValidSample() throws {
        let uuid = UUID()
        let steps = try Fixture.sample(.stepCount, 1200, "count", end: Fixture.oneHourLater, uuid: uuid)
        #expect(steps.uuid == uuid)
        #expect(steps.type == .stepCount)
        #expect(steps.quantity == (try Fixture.quantity(1200, "count")))
        #expect(steps.startDate == Fixture.noon)
        #expect(steps.endDate == Fixture.oneHourLater)
        #expect(steps.source == Fixture.source)
        #expect(steps.metadata.isEmpty)
    }

    @Test func stepCountWithGramsIsATypedError() throws {
        let grams = try Fixture.quantity(10, "g")
        #expect(
            throws: ValidationError.incompatibleUnit(
                .stepCount, field: "quantity", unit: .gram(), expected: .count())
        ) {
            try HealthQuantitySample(
                type: .stepCount, quantity: grams, start: Fixture.noon, end: Fixture.noon, source: Fixture.source)
        }
        #expect(
            ValidationError.incompatibleUnit(.stepCount, field: "quantity", unit: .gram(), expected: .count())
                .description == "stepCount requires a unit compatible with count; got g")
    }

    /// Types with a compatible (non-canonical) unit are accepted.
    static let compatible: [(HealthObjectType, Double, String)] = [
        (.height, 5.9, "ft"), (.bodyMass, 160, "lb"), (.heartRate, 72, "count/min"), (.dietaryWater, 8, "fl_oz_us"),
        (.bloodGlucose, 5.5, "mmol<180.15588000005408>/L"), (.vo2Max, 45, "mL/(kg*min)"),
        (.vo2Max, 0.045, "L/(kg*min)"), (.bodyTemperature, 98.6, "degF"), (.oxygenSaturation, 0.97, "%"),
        (.activeEnergyBurned, 250, "Cal"), (.distanceWalkingRunning, 3.1, "mi"), (.appleExerciseTime, 0.5, "hr"),
        (.bodyTemperature, -1, "degC"),
    ]

    @Test(arguments: compatible)
    func acceptsAnyCompatibleUnit(type: HealthObjectType, value: Double, unit: String) throws {
        let sample = try Fixture.sample(type, value, unit)
        #expect(sample.quantity.unit == (try HealthUnit(from: unit)))
    }

    /// Types with an incompatible unit are rejected, naming the canonical unit.
    static let incompatible: [(HealthObjectType, String)] = [
        (.stepCount, "g"), (.height, "kg"), (.heartRate, "count"), (.heartRate, "Hz"),
        (.bloodGlucose, "mmol/L"), (.vo2Max, "mL/min"), (.bodyMass, "count"), (.dietaryWater, "g"),
        (.insulinDelivery, "mg"), (.oxygenSaturation, "()"),
    ]

    @Test(arguments: incompatible)
    func rejectsAnIncompatibleUnit(type: HealthObjectType, unit: String) throws {
        let quantity = try Fixture.quantity(1, unit)
        let expected = try #require(type.canonicalUnit)
        #expect(
            throws: ValidationError.incompatibleUnit(type, field: "quantity", unit: quantity.unit, expected: expected)
        ) {
            try HealthQuantitySample(
                type: type, quantity: quantity, date: Fixture.noon, source: Fixture.source,
                metadata: [.insulinDeliveryReason: 1])
        }
    }

    @Test func vo2MaxWithParenthesisedUnitWorksAndChainedDivisionFailsToParse() throws {
        let sample = try Fixture.sample(.vo2Max, 45, "mL/(kg*min)")
        #expect(try sample.quantity.doubleValue(for: HealthObjectType.vo2Max.canonicalUnit!) == 45)
        #expect(throws: UnitError.malformed("mL/kg/min", reason: "more than one '/'")) {
            try HealthUnit(from: "mL/kg/min")
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func rejectsNonFiniteValues(value: Double) throws {
        let quantity = try Fixture.quantity(value, "count/min")
        let error = #expect(throws: ValidationError.self) {
            try HealthQuantitySample(type: .heartRate, quantity: quantity, date: Fixture.noon, source: Fixture.source)
        }
        guard case .nonFiniteValue(let type, let field, let reported) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(type == .heartRate && field == "quantity")
        #expect(reported.isNaN == value.isNaN && (value.isNaN || reported == value))
    }

    @Test func rejectsNegativeValuesWhereTheyMakeNoSense() throws {
        #expect(throws: ValidationError.negativeValue(.stepCount, field: "quantity", value: -5)) {
            try Fixture.sample(.stepCount, -5, "count")
        }
        #expect(throws: ValidationError.negativeValue(.activeEnergyBurned, field: "quantity", value: -1)) {
            try Fixture.sample(.activeEnergyBurned, -1, "kcal")
        }
        #expect(throws: ValidationError.negativeValue(.heartRate, field: "quantity", value: -60)) {
            try Fixture.sample(.heartRate, -60, "count/min")
        }
        #expect(
            ValidationError.negativeValue(.stepCount, field: "quantity", value: -5).description
                == "stepCount quantity must not be negative; got -5")
        _ = try Fixture.sample(.stepCount, 0, "count")
        _ = try Fixture.sample(.bodyTemperature, -3, "degF")
    }

    @Test func rejectsEndBeforeStart() throws {
        #expect(
            throws: ValidationError.endBeforeStart(.stepCount, start: Fixture.oneHourLater, end: Fixture.noon)
        ) {
            try Fixture.sample(.stepCount, 10, "count", start: Fixture.oneHourLater, end: Fixture.noon)
        }
    }

    @Test func rejectsNonFiniteDates() throws {
        let never = Date(timeIntervalSinceReferenceDate: .nan)
        #expect(throws: ValidationError.invalidDate(.stepCount, field: "startDate")) {
            try Fixture.sample(.stepCount, 10, "count", start: never, end: Fixture.noon)
        }
        #expect(throws: ValidationError.invalidDate(.stepCount, field: "endDate")) {
            try Fixture.sample(
                .stepCount, 10, "count", start: Fixture.noon, end: .distantFuture.addingTimeInterval(.infinity))
        }
    }

    @Test func insulinDeliveryRequiresAReason() throws {
        #expect(throws: ValidationError.missingMetadata(.insulinDelivery, key: .insulinDeliveryReason)) {
            try Fixture.sample(.insulinDelivery, 4, "IU")
        }
        #expect(
            ValidationError.missingMetadata(.insulinDelivery, key: .insulinDeliveryReason).description
                == "insulinDelivery requires metadata HKInsulinDeliveryReason")
        let bolus = try Fixture.sample(
            .insulinDelivery, 4, "IU", metadata: [.insulinDeliveryReason: InsulinDeliveryReason.bolus.metadataValue])
        #expect(bolus.metadata[.insulinDeliveryReason] == .number(2))
        _ = try Fixture.sample(.insulinDelivery, 0.8, "IU", metadata: [.insulinDeliveryReason: 1])
    }

    @Test(arguments: [MetadataValue.number(0), .number(3), .number(1.5), .string("bolus"), .date(Fixture.noon)])
    func insulinDeliveryReasonMustBeBasalOrBolus(reason: MetadataValue) throws {
        #expect(
            throws: ValidationError.invalidMetadataValue(
                .insulinDelivery, key: .insulinDeliveryReason, value: reason, expected: "1 (basal) or 2 (bolus)")
        ) {
            try Fixture.sample(.insulinDelivery, 4, "IU", metadata: [.insulinDeliveryReason: reason])
        }
    }

    /// Each key that takes one of a few numbers accepts exactly those, and nothing between or around them.
    @Test func numberedMetadataKeysAcceptTheirIntegersOnly() throws {
        let keys: [(MetadataKey, [Double])] = [
            (.insulinDeliveryReason, [1, 2]), (.wasUserEntered, [0, 1]), (.menstrualCycleStart, [0, 1]),
            (.bloodGlucoseMealTime, [1, 2]), (.heartRateMotionContext, [0, 1, 2]), (.vo2MaxTestType, [1, 2, 3]),
        ]
        for (key, allowed) in keys {
            for number in allowed {
                #expect(throws: Never.self, "\(key) \(number)") {
                    try Fixture.sample(.stepCount, 1, "count", metadata: [key: .number(number)])
                }
            }
            let others = [allowed.min()! - 1, allowed.max()! + 1, allowed.min()! + 0.5, -.infinity, .infinity, .nan]
            for value in others.map(MetadataValue.number) + [.string("1")] {
                #expect(throws: ValidationError.self, "\(key) \(value)") {
                    try Fixture.sample(.stepCount, 1, "count", metadata: [key: value])
                }
            }
        }
    }

    @Test func knownMetadataKeysCheckTheirValues() throws {
        #expect(
            throws: ValidationError.invalidMetadataValue(
                .stepCount, key: .wasUserEntered, value: .number(2), expected: "a Boolean number (0 or 1)")
        ) {
            try Fixture.sample(.stepCount, 1, "count", metadata: [.wasUserEntered: 2])
        }
        #expect(
            throws: ValidationError.invalidMetadataValue(
                .stepCount, key: .syncIdentifier, value: .number(7), expected: "a string")
        ) {
            try Fixture.sample(.stepCount, 1, "count", metadata: [.syncIdentifier: 7, .syncVersion: 1])
        }
        #expect(
            throws: ValidationError.invalidMetadataValue(
                .stepCount, key: .syncVersion, value: .number(1.5), expected: "an integral number")
        ) {
            try Fixture.sample(.stepCount, 1, "count", metadata: [.syncIdentifier: "a", .syncVersion: 1.5])
        }
        #expect(throws: ValidationError.missingMetadata(.stepCount, key: .syncVersion)) {
            try Fixture.sample(.stepCount, 1, "count", metadata: [.syncIdentifier: "a"])
        }
        #expect(
            throws: ValidationError.invalidMetadataValue(
                .stepCount, key: "com.example.x", value: .number(.infinity), expected: "a finite number")
        ) {
            try Fixture.sample(.stepCount, 1, "count", metadata: ["com.example.x": .number(.infinity)])
        }
        let sample = try Fixture.sample(
            .stepCount, 1, "count",
            metadata: [.wasUserEntered: true, .syncIdentifier: "a", .syncVersion: 2, "com.example.any": "x"])
        #expect(sample.metadata.count == 4)
    }

    @Test func onlyQuantityTypesMakeQuantitySamples() throws {
        let count = try Fixture.quantity(1, "count")
        #expect(throws: ValidationError.notASampleType(.dateOfBirth)) {
            try HealthQuantitySample(type: .dateOfBirth, quantity: count, date: Fixture.noon, source: Fixture.source)
        }
        #expect(throws: ValidationError.notASampleType(.activitySummary)) {
            try HealthQuantitySample(
                type: .activitySummary, quantity: count, date: Fixture.noon, source: Fixture.source)
        }
        #expect(throws: ValidationError.wrongKind(.sleepAnalysis, expected: .quantity)) {
            try HealthQuantitySample(type: .sleepAnalysis, quantity: count, date: Fixture.noon, source: Fixture.source)
        }
        #expect(
            ValidationError.notASampleType(.dateOfBirth).description
                == "dateOfBirth is a characteristic type, not a sample type")
    }

    @Test func codesAndValidatesOnDecode() throws {
        let sample = try Fixture.sample(
            .bloodGlucose, 5.5, "mmol<180.15588000005408>/L", metadata: [.bloodGlucoseMealTime: 1])
        let data = try Fixture.encoder().encode(sample)
        #expect(try JSONDecoder().decode(HealthQuantitySample.self, from: data) == sample)

        var object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["type"] = "stepCount"
        let tampered = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HealthQuantitySample.self, from: tampered) }
    }
}
