import Foundation
import HealthFlow
import Testing

struct HealthObjectTypeTests {
    /// Quantity types from the fact sheet: identifier, canonical unit, aggregation style, shareable.
    static let quantityTypes: [(HealthObjectType, String, HealthObjectType.AggregationStyle, Bool)] = [
        (.height, "m", .discreteArithmetic, true),
        (.bodyMass, "kg", .discreteArithmetic, true),
        (.stepCount, "count", .cumulative, true),
        (.dietaryWater, "mL", .cumulative, true),
        (.heartRate, "count/s", .discreteTemporallyWeighted, true),
        (.bloodPressureSystolic, "mmHg", .discreteArithmetic, true),
        (.bloodPressureDiastolic, "mmHg", .discreteArithmetic, true),
        (.bloodGlucose, "mg/dL", .discreteArithmetic, true),
        (.insulinDelivery, "IU", .cumulative, true),
        (.activeEnergyBurned, "kcal", .cumulative, true),
        (.appleExerciseTime, "min", .cumulative, false),
        (.appleStandTime, "min", .cumulative, false),
        (.distanceWalkingRunning, "m", .cumulative, true),
        (.vo2Max, "mL/min·kg", .discreteArithmetic, true),
        (.oxygenSaturation, "%", .discreteArithmetic, true),
        (.bodyFatPercentage, "%", .discreteArithmetic, true),
        (.respiratoryRate, "count/s", .discreteArithmetic, true),
        (.dietaryEnergyConsumed, "kcal", .cumulative, true),
        (.dietaryProtein, "g", .cumulative, true),
        (.dietaryCarbohydrates, "g", .cumulative, true),
        (.dietaryFatTotal, "g", .cumulative, true),
        (.dietarySugar, "g", .cumulative, true),
        (.walkingHeartRateAverage, "count/s", .discreteArithmetic, false),
        (.nikeFuel, "count", .cumulative, false),
        (.bodyTemperature, "degC", .discreteArithmetic, true),
        (.environmentalAudioExposure, "dBASPL", .discreteEquivalentContinuousLevel, true),
    ]

    @Test(arguments: quantityTypes)
    func quantityTypesFollowTheFactSheet(
        type: HealthObjectType, unit: String, style: HealthObjectType.AggregationStyle, shareable: Bool
    ) throws {
        #expect(type.kind == .quantity)
        #expect(type.canonicalUnit == (try HealthUnit(from: unit)))
        #expect(type.aggregationStyle == style)
        #expect(type.isShareable == shareable)
        #expect(type.isSampleType)
    }

    @Test func heartRateIsStoredPerSecondAndShownPerMinute() {
        #expect(HealthObjectType.heartRate.canonicalUnit?.unitString == "count/s")
        #expect(HealthObjectType.heartRate.displayUnit?.unitString == "count/min")
        #expect(HealthObjectType.height.displayUnit == HealthObjectType.height.canonicalUnit)
    }

    @Test func readOnlyTypesAreNotShareable() {
        let readOnly: [HealthObjectType] = [
            .appleExerciseTime, .appleStandTime, .appleStandHour, .nikeFuel, .walkingHeartRateAverage,
            .activitySummary, .electrocardiogram, .dateOfBirth, .biologicalSex, .bloodType, .fitzpatrickSkinType,
            .wheelchairUse, .activityMoveMode,
        ]
        for type in readOnly {
            #expect(!type.isShareable, "\(type)")
        }
        #expect(!HealthObjectType.bloodPressure.isShareable)
        #expect(!HealthObjectType.food.isShareable)
        #expect(HealthObjectType.sleepAnalysis.isShareable)
        #expect(HealthObjectType.workout.isShareable)
    }

    @Test func kindsAndSampleTypes() {
        #expect(HealthObjectType.sleepAnalysis.kind == .category)
        #expect(HealthObjectType.bloodPressure.kind == .correlation)
        #expect(HealthObjectType.dateOfBirth.kind == .characteristic)
        #expect(HealthObjectType.activitySummary.kind == .activitySummary)
        #expect(HealthObjectType.electrocardiogram.kind == .electrocardiogram)
        #expect(HealthObjectType.workout.kind == .workout)
        #expect(!HealthObjectType.dateOfBirth.isSampleType)
        #expect(!HealthObjectType.activitySummary.isSampleType)
        #expect(HealthObjectType.electrocardiogram.isSampleType)
        #expect(HealthObjectType.sleepAnalysis.canonicalUnit == nil)
        #expect(HealthObjectType.sleepAnalysis.aggregationStyle == nil)
    }

    @Test func categoryTypesListTheirValues() {
        #expect(HealthObjectType.sleepAnalysis.allowedCategoryValues == [0, 1, 2, 3, 4, 5])
        #expect(HealthObjectType.menstrualFlow.allowedCategoryValues == [1, 2, 3, 4, 5])
        #expect(HealthObjectType.appleStandHour.allowedCategoryValues == [0, 1])
        #expect(SleepAnalysisValue.inBed.rawValue == 0)
        #expect(SleepAnalysisValue.asleepUnspecified.rawValue == 1)
        #expect(SleepAnalysisValue.awake.rawValue == 2)
        #expect(SleepAnalysisValue.asleepCore.rawValue == 3)
        #expect(SleepAnalysisValue.asleepDeep.rawValue == 4)
        #expect(SleepAnalysisValue.asleepREM.rawValue == 5)
    }

    @Test func requiredMetadataKeys() {
        #expect(HealthObjectType.insulinDelivery.requiredMetadataKeys == [.insulinDeliveryReason])
        #expect(HealthObjectType.menstrualFlow.requiredMetadataKeys == [.menstrualCycleStart])
        #expect(HealthObjectType.food.requiredMetadataKeys == [.foodType])
        #expect(HealthObjectType.stepCount.requiredMetadataKeys.isEmpty)
    }

    @Test func correlationMemberTypes() {
        #expect(
            HealthObjectType.bloodPressure.correlationMemberTypes == [.bloodPressureSystolic, .bloodPressureDiastolic])
        let food = Set(HealthObjectType.food.correlationMemberTypes)
        #expect(food.contains(.dietaryEnergyConsumed))
        #expect(food.contains(.dietaryProtein))
        #expect(!food.contains(.stepCount))
        #expect(HealthObjectType.stepCount.correlationMemberTypes.isEmpty)
    }

    @Test func negativeValuesAreAllowedOnlyForTemperaturesAndSoundLevels() {
        #expect(HealthObjectType.bodyTemperature.allowsNegativeValues)
        #expect(HealthObjectType.environmentalAudioExposure.allowsNegativeValues)
        #expect(!HealthObjectType.stepCount.allowsNegativeValues)
        #expect(!HealthObjectType.heartRate.allowsNegativeValues)
        #expect(!HealthObjectType.sleepAnalysis.allowsNegativeValues)
    }

    @Test func looksUpByShortOrHealthKitIdentifier() {
        #expect(HealthObjectType(identifier: "height") == .height)
        #expect(HealthObjectType(identifier: "HKQuantityTypeIdentifierHeight") == .height)
        #expect(HealthObjectType(identifier: "HKQuantityTypeIdentifierVO2Max") == .vo2Max)
        #expect(HealthObjectType(identifier: "HKCategoryTypeIdentifierSleepAnalysis") == .sleepAnalysis)
        #expect(HealthObjectType(identifier: "HKCorrelationTypeIdentifierBloodPressure") == .bloodPressure)
        #expect(HealthObjectType(identifier: "HKCharacteristicTypeIdentifierDateOfBirth") == .dateOfBirth)
        #expect(HealthObjectType(identifier: "HKDataTypeIdentifierElectrocardiogram") == .electrocardiogram)
        #expect(HealthObjectType(identifier: "steps") == nil)
        #expect(HealthObjectType(identifier: "") == nil)
    }

    @Test func catalogIsCompleteAndUnique() {
        let all = HealthObjectType.allTypes
        #expect(Set(all.map(\.identifier)).count == all.count)
        #expect(Set(all.map(\.healthKitIdentifier)).count == all.count)
        for (index, type) in all.enumerated() {
            // Equality is identity of the storage: exactly the type itself is equal to it.
            #expect(all.indices.filter { all[$0] == type } == [index], "\(type)")
            #expect(HealthObjectType(identifier: type.identifier) == type)
            #expect(HealthObjectType(identifier: type.healthKitIdentifier) == type)
            #expect((type.kind == .quantity) == (type.canonicalUnit != nil), "\(type)")
            #expect((type.kind == .quantity) == (type.aggregationStyle != nil), "\(type)")
            #expect((type.kind == .category) == !type.allowedCategoryValues.isEmpty, "\(type)")
        }
        for kind in HealthObjectType.Kind.allCases {
            #expect(all.contains { $0.kind == kind }, "no \(kind) type")
        }
    }

    @Test func codesAsItsIdentifier() throws {
        let data = try JSONEncoder().encode([HealthObjectType.heartRate])
        #expect(String(decoding: data, as: UTF8.self) == #"["heartRate"]"#)
        #expect(try JSONDecoder().decode([HealthObjectType].self, from: data) == [.heartRate])
        let healthKit = Data(#"["HKQuantityTypeIdentifierStepCount"]"#.utf8)
        #expect(try JSONDecoder().decode([HealthObjectType].self, from: healthKit) == [.stepCount])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([HealthObjectType].self, from: Data(#"["steps"]"#.utf8))
        }
    }

    @Test func decodingAnUnknownIdentifierReportsItAsCorruptData() {
        do {
            _ = try JSONDecoder().decode([HealthObjectType].self, from: Data(#"["steps"]"#.utf8))
            Issue.record("an unknown identifier decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == #"unknown health object type "steps""#)
            #expect(context.codingPath.count == 1)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
