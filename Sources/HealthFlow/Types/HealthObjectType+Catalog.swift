/// The built-in catalog of types: every identifier on the HealthKit fact sheet and a few neighbours.
///
/// ```swift
/// HealthObjectType.allTypes.filter { $0.kind == .quantity && $0.isShareable }
/// ```
extension HealthObjectType {
    private static let perSecond = HealthUnit.count().unitDivided(by: .second())
    private static let perMinute = HealthUnit.count().unitDivided(by: .minute())
    private static let milligramsPerDeciliter = HealthUnit.gramUnit(with: .milli)
        .unitDivided(by: .literUnit(with: .deci))
    private static let millilitersPerKilogramMinute = HealthUnit.literUnit(with: .milli)
        .unitDivided(by: HealthUnit.gramUnit(with: .kilo).unitMultiplied(by: .minute()))

    private static func quantity(
        _ identifier: String, healthKitName: String, unit: HealthUnit, _ style: AggregationStyle,
        display: HealthUnit? = nil, shareable: Bool = true, required: Set<MetadataKey> = [], nutrition: Bool = false
    ) -> HealthObjectType {
        HealthObjectType(
            identifier: identifier, healthKitIdentifier: "HKQuantityTypeIdentifier" + healthKitName, kind: .quantity,
            canonicalUnit: unit, displayUnit: display, aggregationStyle: style, isShareable: shareable,
            requiredMetadataKeys: required, isNutrition: nutrition)
    }

    private static func category<Value: HealthCategoryValue>(
        _ identifier: String, healthKitName: String, values: Value.Type, shareable: Bool = true,
        required: Set<MetadataKey> = []
    ) -> HealthObjectType {
        HealthObjectType(
            identifier: identifier, healthKitIdentifier: "HKCategoryTypeIdentifier" + healthKitName, kind: .category,
            isShareable: shareable, requiredMetadataKeys: required,
            allowedCategoryValues: values.allCases.map(\.rawValue).sorted())
    }

    private static func characteristic(_ identifier: String, healthKitName: String) -> HealthObjectType {
        HealthObjectType(
            identifier: identifier, healthKitIdentifier: "HKCharacteristicTypeIdentifier" + healthKitName,
            kind: .characteristic, isShareable: false)
    }

    // MARK: Quantity types

    /// Body height; canonical `m`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.height.canonicalUnit
    /// ```
    public static let height = quantity(
        "height", healthKitName: "Height", unit: .meter(), .discreteArithmetic)

    /// Body mass; canonical `kg`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.bodyMass.canonicalUnit
    /// ```
    public static let bodyMass = quantity(
        "bodyMass", healthKitName: "BodyMass", unit: .gramUnit(with: .kilo), .discreteArithmetic)

    /// Body mass index; canonical `count`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.bodyMassIndex.canonicalUnit
    /// ```
    public static let bodyMassIndex = quantity(
        "bodyMassIndex", healthKitName: "BodyMassIndex", unit: .count(), .discreteArithmetic)

    /// Lean body mass; canonical `kg`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.leanBodyMass.canonicalUnit
    /// ```
    public static let leanBodyMass = quantity(
        "leanBodyMass", healthKitName: "LeanBodyMass", unit: .gramUnit(with: .kilo), .discreteArithmetic)

    /// Body fat as a fraction with unit `%` (0.2 `%` is 20 %); discrete.
    ///
    /// ```swift
    /// HealthObjectType.bodyFatPercentage.canonicalUnit
    /// ```
    public static let bodyFatPercentage = quantity(
        "bodyFatPercentage", healthKitName: "BodyFatPercentage", unit: .percent(), .discreteArithmetic)

    /// Body temperature; canonical `degC`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.bodyTemperature.canonicalUnit
    /// ```
    public static let bodyTemperature = quantity(
        "bodyTemperature", healthKitName: "BodyTemperature", unit: .degreeCelsius(), .discreteArithmetic)

    /// Steps; canonical `count`, cumulative.
    ///
    /// ```swift
    /// HealthObjectType.stepCount.canonicalUnit
    /// ```
    public static let stepCount = quantity(
        "stepCount", healthKitName: "StepCount", unit: .count(), .cumulative)

    /// Distance walked or run; canonical `m`, cumulative.
    ///
    /// ```swift
    /// HealthObjectType.distanceWalkingRunning.canonicalUnit
    /// ```
    public static let distanceWalkingRunning = quantity(
        "distanceWalkingRunning", healthKitName: "DistanceWalkingRunning", unit: .meter(), .cumulative)

    /// Distance cycled; canonical `m`, cumulative.
    ///
    /// ```swift
    /// HealthObjectType.distanceCycling.canonicalUnit
    /// ```
    public static let distanceCycling = quantity(
        "distanceCycling", healthKitName: "DistanceCycling", unit: .meter(), .cumulative)

    /// Flights of stairs climbed; canonical `count`, cumulative.
    ///
    /// ```swift
    /// HealthObjectType.flightsClimbed.canonicalUnit
    /// ```
    public static let flightsClimbed = quantity(
        "flightsClimbed", healthKitName: "FlightsClimbed", unit: .count(), .cumulative)

    /// Active energy; canonical `kcal`, cumulative.
    ///
    /// ```swift
    /// HealthObjectType.activeEnergyBurned.canonicalUnit
    /// ```
    public static let activeEnergyBurned = quantity(
        "activeEnergyBurned", healthKitName: "ActiveEnergyBurned", unit: .kilocalorie(), .cumulative)

    /// Resting energy; canonical `kcal`, cumulative.
    ///
    /// ```swift
    /// HealthObjectType.basalEnergyBurned.canonicalUnit
    /// ```
    public static let basalEnergyBurned = quantity(
        "basalEnergyBurned", healthKitName: "BasalEnergyBurned", unit: .kilocalorie(), .cumulative)

    /// Exercise minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    ///
    /// ```swift
    /// HealthObjectType.appleExerciseTime.canonicalUnit
    /// ```
    public static let appleExerciseTime = quantity(
        "appleExerciseTime", healthKitName: "AppleExerciseTime", unit: .minute(), .cumulative, shareable: false)

    /// Standing minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    ///
    /// ```swift
    /// HealthObjectType.appleStandTime.canonicalUnit
    /// ```
    public static let appleStandTime = quantity(
        "appleStandTime", healthKitName: "AppleStandTime", unit: .minute(), .cumulative, shareable: false)

    /// Move minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    ///
    /// ```swift
    /// HealthObjectType.appleMoveTime.canonicalUnit
    /// ```
    public static let appleMoveTime = quantity(
        "appleMoveTime", healthKitName: "AppleMoveTime", unit: .minute(), .cumulative, shareable: false)

    /// NikeFuel points; canonical `count`, cumulative, read-only.
    ///
    /// ```swift
    /// HealthObjectType.nikeFuel.canonicalUnit
    /// ```
    public static let nikeFuel = quantity(
        "nikeFuel", healthKitName: "NikeFuel", unit: .count(), .cumulative, shareable: false)

    /// Heart rate; canonical `count/s`, shown `count/min`, discrete (temporally weighted).
    ///
    /// ```swift
    /// HealthObjectType.heartRate.canonicalUnit
    /// ```
    public static let heartRate = quantity(
        "heartRate", healthKitName: "HeartRate", unit: perSecond, .discreteTemporallyWeighted, display: perMinute)

    /// Resting heart rate; canonical `count/s`, shown `count/min`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.restingHeartRate.canonicalUnit
    /// ```
    public static let restingHeartRate = quantity(
        "restingHeartRate", healthKitName: "RestingHeartRate", unit: perSecond, .discreteArithmetic, display: perMinute)

    /// Average heart rate while walking; canonical `count/s`, shown `count/min`, discrete, read-only.
    ///
    /// ```swift
    /// HealthObjectType.walkingHeartRateAverage.canonicalUnit
    /// ```
    public static let walkingHeartRateAverage = quantity(
        "walkingHeartRateAverage", healthKitName: "WalkingHeartRateAverage", unit: perSecond, .discreteArithmetic,
        display: perMinute, shareable: false)

    /// Breaths; canonical `count/s`, shown `count/min`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.respiratoryRate.canonicalUnit
    /// ```
    public static let respiratoryRate = quantity(
        "respiratoryRate", healthKitName: "RespiratoryRate", unit: perSecond, .discreteArithmetic, display: perMinute)

    /// Blood oxygen saturation as a fraction with unit `%` (0.97 `%` is 97 %); discrete.
    ///
    /// ```swift
    /// HealthObjectType.oxygenSaturation.canonicalUnit
    /// ```
    public static let oxygenSaturation = quantity(
        "oxygenSaturation", healthKitName: "OxygenSaturation", unit: .percent(), .discreteArithmetic)

    /// Systolic blood pressure; canonical `mmHg`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.bloodPressureSystolic.canonicalUnit
    /// ```
    public static let bloodPressureSystolic = quantity(
        "bloodPressureSystolic", healthKitName: "BloodPressureSystolic", unit: .millimeterOfMercury(),
        .discreteArithmetic)

    /// Diastolic blood pressure; canonical `mmHg`, discrete.
    ///
    /// ```swift
    /// HealthObjectType.bloodPressureDiastolic.canonicalUnit
    /// ```
    public static let bloodPressureDiastolic = quantity(
        "bloodPressureDiastolic", healthKitName: "BloodPressureDiastolic", unit: .millimeterOfMercury(),
        .discreteArithmetic)

    /// Blood glucose; canonical `mg/dL` (also readable in `mmol<180.15588000005408>/L`), discrete.
    ///
    /// ```swift
    /// HealthObjectType.bloodGlucose.canonicalUnit
    /// ```
    public static let bloodGlucose = quantity(
        "bloodGlucose", healthKitName: "BloodGlucose", unit: milligramsPerDeciliter, .discreteArithmetic)

    /// Insulin delivered; canonical `IU`, cumulative; requires `MetadataKey.insulinDeliveryReason`.
    ///
    /// ```swift
    /// HealthObjectType.insulinDelivery.canonicalUnit
    /// ```
    public static let insulinDelivery = quantity(
        "insulinDelivery", healthKitName: "InsulinDelivery", unit: .internationalUnit(), .cumulative,
        required: [.insulinDeliveryReason])

    /// Maximal oxygen consumption; canonical `mL/(kg*min)` (printed `mL/min·kg`), discrete.
    ///
    /// ```swift
    /// HealthObjectType.vo2Max.canonicalUnit
    /// ```
    public static let vo2Max = quantity(
        "vo2Max", healthKitName: "VO2Max", unit: millilitersPerKilogramMinute, .discreteArithmetic)

    /// Environmental sound level; canonical `dBASPL`, discrete (equivalent continuous level).
    ///
    /// ```swift
    /// HealthObjectType.environmentalAudioExposure.canonicalUnit
    /// ```
    public static let environmentalAudioExposure = quantity(
        "environmentalAudioExposure", healthKitName: "EnvironmentalAudioExposure",
        unit: .decibelAWeightedSoundPressureLevel(), .discreteEquivalentContinuousLevel)

    /// Headphone sound level; canonical `dBASPL`, discrete (equivalent continuous level).
    ///
    /// ```swift
    /// HealthObjectType.headphoneAudioExposure.canonicalUnit
    /// ```
    public static let headphoneAudioExposure = quantity(
        "headphoneAudioExposure", healthKitName: "HeadphoneAudioExposure", unit: .decibelAWeightedSoundPressureLevel(),
        .discreteEquivalentContinuousLevel)

    /// Dietary energy; canonical `kcal`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietaryEnergyConsumed.canonicalUnit
    /// ```
    public static let dietaryEnergyConsumed = quantity(
        "dietaryEnergyConsumed", healthKitName: "DietaryEnergyConsumed", unit: .kilocalorie(), .cumulative,
        nutrition: true)

    /// Water drunk; canonical `mL`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietaryWater.canonicalUnit
    /// ```
    public static let dietaryWater = quantity(
        "dietaryWater", healthKitName: "DietaryWater", unit: .literUnit(with: .milli), .cumulative, nutrition: true)

    /// Protein; canonical `g`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietaryProtein.canonicalUnit
    /// ```
    public static let dietaryProtein = quantity(
        "dietaryProtein", healthKitName: "DietaryProtein", unit: .gram(), .cumulative, nutrition: true)

    /// Carbohydrates; canonical `g`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietaryCarbohydrates.canonicalUnit
    /// ```
    public static let dietaryCarbohydrates = quantity(
        "dietaryCarbohydrates", healthKitName: "DietaryCarbohydrates", unit: .gram(), .cumulative, nutrition: true)

    /// Total fat; canonical `g`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietaryFatTotal.canonicalUnit
    /// ```
    public static let dietaryFatTotal = quantity(
        "dietaryFatTotal", healthKitName: "DietaryFatTotal", unit: .gram(), .cumulative, nutrition: true)

    /// Sugar; canonical `g`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietarySugar.canonicalUnit
    /// ```
    public static let dietarySugar = quantity(
        "dietarySugar", healthKitName: "DietarySugar", unit: .gram(), .cumulative, nutrition: true)

    /// Fiber; canonical `g`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietaryFiber.canonicalUnit
    /// ```
    public static let dietaryFiber = quantity(
        "dietaryFiber", healthKitName: "DietaryFiber", unit: .gram(), .cumulative, nutrition: true)

    /// Sodium; canonical `g`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietarySodium.canonicalUnit
    /// ```
    public static let dietarySodium = quantity(
        "dietarySodium", healthKitName: "DietarySodium", unit: .gram(), .cumulative, nutrition: true)

    /// Caffeine; canonical `g`, cumulative, nutrition.
    ///
    /// ```swift
    /// HealthObjectType.dietaryCaffeine.canonicalUnit
    /// ```
    public static let dietaryCaffeine = quantity(
        "dietaryCaffeine", healthKitName: "DietaryCaffeine", unit: .gram(), .cumulative, nutrition: true)

    // MARK: Category types

    /// Sleep stages (`SleepAnalysisValue`: inBed 0 … asleepREM 5).
    ///
    /// ```swift
    /// HealthObjectType.sleepAnalysis.allowedCategoryValues
    /// ```
    public static let sleepAnalysis = category(
        "sleepAnalysis", healthKitName: "SleepAnalysis", values: SleepAnalysisValue.self)

    /// Menstrual flow (`MenstrualFlowValue`); requires `MetadataKey.menstrualCycleStart`.
    ///
    /// ```swift
    /// HealthObjectType.menstrualFlow.allowedCategoryValues
    /// ```
    public static let menstrualFlow = category(
        "menstrualFlow", healthKitName: "MenstrualFlow", values: MenstrualFlowValue.self,
        required: [.menstrualCycleStart])

    /// Whether the person stood during an hour (`AppleStandHourValue`); read-only.
    ///
    /// ```swift
    /// HealthObjectType.appleStandHour.allowedCategoryValues
    /// ```
    public static let appleStandHour = category(
        "appleStandHour", healthKitName: "AppleStandHour", values: AppleStandHourValue.self, shareable: false)

    /// Mindfulness sessions (`MindfulSessionValue.notApplicable`).
    ///
    /// ```swift
    /// HealthObjectType.mindfulSession.allowedCategoryValues
    /// ```
    public static let mindfulSession = category(
        "mindfulSession", healthKitName: "MindfulSession", values: MindfulSessionValue.self)

    // MARK: Correlation types

    /// A blood-pressure reading: exactly one systolic and one diastolic sample. Not authorizable itself.
    ///
    /// ```swift
    /// HealthObjectType.bloodPressure.correlationMemberTypes
    /// ```
    public static let bloodPressure = HealthObjectType(
        identifier: "bloodPressure", healthKitIdentifier: "HKCorrelationTypeIdentifierBloodPressure",
        kind: .correlation, isShareable: false)

    /// A food: nutrition samples (at least `dietaryEnergyConsumed`) and a `foodType` name. Not authorizable
    /// itself.
    ///
    /// ```swift
    /// HealthObjectType.food.requiredMetadataKeys   // [.foodType]
    /// ```
    public static let food = HealthObjectType(
        identifier: "food", healthKitIdentifier: "HKCorrelationTypeIdentifierFood", kind: .correlation,
        isShareable: false, requiredMetadataKeys: [.foodType])

    // MARK: Characteristic types (read-only, not samples)

    /// Date of birth. A read-only characteristic.
    ///
    /// ```swift
    /// HealthObjectType.dateOfBirth.kind   // .characteristic
    /// ```
    public static let dateOfBirth = characteristic("dateOfBirth", healthKitName: "DateOfBirth")

    /// Biological sex. A read-only characteristic.
    ///
    /// ```swift
    /// HealthObjectType.biologicalSex.kind   // .characteristic
    /// ```
    public static let biologicalSex = characteristic("biologicalSex", healthKitName: "BiologicalSex")

    /// Blood type. A read-only characteristic.
    ///
    /// ```swift
    /// HealthObjectType.bloodType.kind   // .characteristic
    /// ```
    public static let bloodType = characteristic("bloodType", healthKitName: "BloodType")

    /// Fitzpatrick skin type. A read-only characteristic.
    ///
    /// ```swift
    /// HealthObjectType.fitzpatrickSkinType.kind   // .characteristic
    /// ```
    public static let fitzpatrickSkinType = characteristic("fitzpatrickSkinType", healthKitName: "FitzpatrickSkinType")

    /// Whether the person uses a wheelchair. A read-only characteristic.
    ///
    /// ```swift
    /// HealthObjectType.wheelchairUse.kind   // .characteristic
    /// ```
    public static let wheelchairUse = characteristic("wheelchairUse", healthKitName: "WheelchairUse")

    /// Whether the move ring counts energy or time. A read-only characteristic.
    ///
    /// ```swift
    /// HealthObjectType.activityMoveMode.kind   // .characteristic
    /// ```
    public static let activityMoveMode = characteristic("activityMoveMode", healthKitName: "ActivityMoveMode")

    // MARK: Other types

    /// Daily activity-ring summaries; read-only and not a sample type.
    ///
    /// ```swift
    /// HealthObjectType.activitySummary.isSampleType   // false
    /// ```
    public static let activitySummary = HealthObjectType(
        identifier: "activitySummary", healthKitIdentifier: "HKActivitySummaryTypeIdentifier",
        kind: .activitySummary, isShareable: false)

    /// Electrocardiogram recordings made by Apple Watch; read-only.
    ///
    /// ```swift
    /// HealthObjectType.electrocardiogram.isShareable   // false
    /// ```
    public static let electrocardiogram = HealthObjectType(
        identifier: "electrocardiogram", healthKitIdentifier: "HKDataTypeIdentifierElectrocardiogram",
        kind: .electrocardiogram, isShareable: false)

    /// Workouts.
    ///
    /// ```swift
    /// HealthObjectType.workout.kind   // .workout
    /// ```
    public static let workout = HealthObjectType(
        identifier: "workout", healthKitIdentifier: "HKWorkoutTypeIdentifier", kind: .workout, isShareable: true)

    /// Every type in the catalog, grouped by kind in declaration order.
    ///
    /// ```swift
    /// HealthObjectType.allTypes.count
    /// ```
    public static let allTypes: [HealthObjectType] = [

        .height, .bodyMass, .bodyMassIndex, .leanBodyMass, .bodyFatPercentage, .bodyTemperature, .stepCount,
        .distanceWalkingRunning, .distanceCycling, .flightsClimbed, .activeEnergyBurned, .basalEnergyBurned,
        .appleExerciseTime, .appleStandTime, .appleMoveTime, .nikeFuel, .heartRate, .restingHeartRate,
        .walkingHeartRateAverage, .respiratoryRate, .oxygenSaturation, .bloodPressureSystolic,
        .bloodPressureDiastolic, .bloodGlucose, .insulinDelivery, .vo2Max, .environmentalAudioExposure,
        .headphoneAudioExposure, .dietaryEnergyConsumed, .dietaryWater, .dietaryProtein, .dietaryCarbohydrates,
        .dietaryFatTotal, .dietarySugar, .dietaryFiber, .dietarySodium, .dietaryCaffeine, .sleepAnalysis,
        .menstrualFlow, .appleStandHour, .mindfulSession, .bloodPressure, .food, .dateOfBirth, .biologicalSex,
        .bloodType, .fitzpatrickSkinType, .wheelchairUse, .activityMoveMode, .activitySummary, .electrocardiogram,
        .workout,
    ]
}
