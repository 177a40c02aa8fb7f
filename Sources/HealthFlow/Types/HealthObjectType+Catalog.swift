/// The built-in catalog of types: every identifier on the HealthKit fact sheet and a few neighbours.
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
    public static let height = quantity(
        "height", healthKitName: "Height", unit: .meter(), .discreteArithmetic)

    /// Body mass; canonical `kg`, discrete.
    public static let bodyMass = quantity(
        "bodyMass", healthKitName: "BodyMass", unit: .gramUnit(with: .kilo), .discreteArithmetic)

    /// Body mass index; canonical `count`, discrete.
    public static let bodyMassIndex = quantity(
        "bodyMassIndex", healthKitName: "BodyMassIndex", unit: .count(), .discreteArithmetic)

    /// Lean body mass; canonical `kg`, discrete.
    public static let leanBodyMass = quantity(
        "leanBodyMass", healthKitName: "LeanBodyMass", unit: .gramUnit(with: .kilo), .discreteArithmetic)

    /// Body fat as a fraction with unit `%` (0.2 `%` is 20 %); discrete.
    public static let bodyFatPercentage = quantity(
        "bodyFatPercentage", healthKitName: "BodyFatPercentage", unit: .percent(), .discreteArithmetic)

    /// Body temperature; canonical `degC`, discrete.
    public static let bodyTemperature = quantity(
        "bodyTemperature", healthKitName: "BodyTemperature", unit: .degreeCelsius(), .discreteArithmetic)

    /// Steps; canonical `count`, cumulative.
    public static let stepCount = quantity(
        "stepCount", healthKitName: "StepCount", unit: .count(), .cumulative)

    /// Distance walked or run; canonical `m`, cumulative.
    public static let distanceWalkingRunning = quantity(
        "distanceWalkingRunning", healthKitName: "DistanceWalkingRunning", unit: .meter(), .cumulative)

    /// Distance cycled; canonical `m`, cumulative.
    public static let distanceCycling = quantity(
        "distanceCycling", healthKitName: "DistanceCycling", unit: .meter(), .cumulative)

    /// Flights of stairs climbed; canonical `count`, cumulative.
    public static let flightsClimbed = quantity(
        "flightsClimbed", healthKitName: "FlightsClimbed", unit: .count(), .cumulative)

    /// Active energy; canonical `kcal`, cumulative.
    public static let activeEnergyBurned = quantity(
        "activeEnergyBurned", healthKitName: "ActiveEnergyBurned", unit: .kilocalorie(), .cumulative)

    /// Resting energy; canonical `kcal`, cumulative.
    public static let basalEnergyBurned = quantity(
        "basalEnergyBurned", healthKitName: "BasalEnergyBurned", unit: .kilocalorie(), .cumulative)

    /// Exercise minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    public static let appleExerciseTime = quantity(
        "appleExerciseTime", healthKitName: "AppleExerciseTime", unit: .minute(), .cumulative, shareable: false)

    /// Standing minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    public static let appleStandTime = quantity(
        "appleStandTime", healthKitName: "AppleStandTime", unit: .minute(), .cumulative, shareable: false)

    /// Move minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    public static let appleMoveTime = quantity(
        "appleMoveTime", healthKitName: "AppleMoveTime", unit: .minute(), .cumulative, shareable: false)

    /// NikeFuel points; canonical `count`, cumulative, read-only.
    public static let nikeFuel = quantity(
        "nikeFuel", healthKitName: "NikeFuel", unit: .count(), .cumulative, shareable: false)

    /// Heart rate; canonical `count/s`, shown `count/min`, discrete (temporally weighted).
    public static let heartRate = quantity(
        "heartRate", healthKitName: "HeartRate", unit: perSecond, .discreteTemporallyWeighted, display: perMinute)

    /// Resting heart rate; canonical `count/s`, shown `count/min`, discrete.
    public static let restingHeartRate = quantity(
        "restingHeartRate", healthKitName: "RestingHeartRate", unit: perSecond, .discreteArithmetic, display: perMinute)

    /// Average heart rate while walking; canonical `count/s`, shown `count/min`, discrete, read-only.
    public static let walkingHeartRateAverage = quantity(
        "walkingHeartRateAverage", healthKitName: "WalkingHeartRateAverage", unit: perSecond, .discreteArithmetic,
        display: perMinute, shareable: false)

    /// Breaths; canonical `count/s`, shown `count/min`, discrete.
    public static let respiratoryRate = quantity(
        "respiratoryRate", healthKitName: "RespiratoryRate", unit: perSecond, .discreteArithmetic, display: perMinute)

    /// Blood oxygen saturation as a fraction with unit `%` (0.97 `%` is 97 %); discrete.
    public static let oxygenSaturation = quantity(
        "oxygenSaturation", healthKitName: "OxygenSaturation", unit: .percent(), .discreteArithmetic)

    /// Systolic blood pressure; canonical `mmHg`, discrete.
    public static let bloodPressureSystolic = quantity(
        "bloodPressureSystolic", healthKitName: "BloodPressureSystolic", unit: .millimeterOfMercury(),
        .discreteArithmetic)

    /// Diastolic blood pressure; canonical `mmHg`, discrete.
    public static let bloodPressureDiastolic = quantity(
        "bloodPressureDiastolic", healthKitName: "BloodPressureDiastolic", unit: .millimeterOfMercury(),
        .discreteArithmetic)

    /// Blood glucose; canonical `mg/dL` (also readable in `mmol<180.15588000005408>/L`), discrete.
    public static let bloodGlucose = quantity(
        "bloodGlucose", healthKitName: "BloodGlucose", unit: milligramsPerDeciliter, .discreteArithmetic)

    /// Insulin delivered; canonical `IU`, cumulative; requires `MetadataKey.insulinDeliveryReason`.
    public static let insulinDelivery = quantity(
        "insulinDelivery", healthKitName: "InsulinDelivery", unit: .internationalUnit(), .cumulative,
        required: [.insulinDeliveryReason])

    /// Maximal oxygen consumption; canonical `mL/(kg*min)` (printed `mL/min·kg`), discrete.
    public static let vo2Max = quantity(
        "vo2Max", healthKitName: "VO2Max", unit: millilitersPerKilogramMinute, .discreteArithmetic)

    /// Environmental sound level; canonical `dBASPL`, discrete (equivalent continuous level).
    public static let environmentalAudioExposure = quantity(
        "environmentalAudioExposure", healthKitName: "EnvironmentalAudioExposure",
        unit: .decibelAWeightedSoundPressureLevel(), .discreteEquivalentContinuousLevel)

    /// Headphone sound level; canonical `dBASPL`, discrete (equivalent continuous level).
    public static let headphoneAudioExposure = quantity(
        "headphoneAudioExposure", healthKitName: "HeadphoneAudioExposure", unit: .decibelAWeightedSoundPressureLevel(),
        .discreteEquivalentContinuousLevel)

    /// Dietary energy; canonical `kcal`, cumulative, nutrition.
    public static let dietaryEnergyConsumed = quantity(
        "dietaryEnergyConsumed", healthKitName: "DietaryEnergyConsumed", unit: .kilocalorie(), .cumulative,
        nutrition: true)

    /// Water drunk; canonical `mL`, cumulative, nutrition.
    public static let dietaryWater = quantity(
        "dietaryWater", healthKitName: "DietaryWater", unit: .literUnit(with: .milli), .cumulative, nutrition: true)

    /// Protein; canonical `g`, cumulative, nutrition.
    public static let dietaryProtein = quantity(
        "dietaryProtein", healthKitName: "DietaryProtein", unit: .gram(), .cumulative, nutrition: true)

    /// Carbohydrates; canonical `g`, cumulative, nutrition.
    public static let dietaryCarbohydrates = quantity(
        "dietaryCarbohydrates", healthKitName: "DietaryCarbohydrates", unit: .gram(), .cumulative, nutrition: true)

    /// Total fat; canonical `g`, cumulative, nutrition.
    public static let dietaryFatTotal = quantity(
        "dietaryFatTotal", healthKitName: "DietaryFatTotal", unit: .gram(), .cumulative, nutrition: true)

    /// Sugar; canonical `g`, cumulative, nutrition.
    public static let dietarySugar = quantity(
        "dietarySugar", healthKitName: "DietarySugar", unit: .gram(), .cumulative, nutrition: true)

    /// Fiber; canonical `g`, cumulative, nutrition.
    public static let dietaryFiber = quantity(
        "dietaryFiber", healthKitName: "DietaryFiber", unit: .gram(), .cumulative, nutrition: true)

    /// Sodium; canonical `g`, cumulative, nutrition.
    public static let dietarySodium = quantity(
        "dietarySodium", healthKitName: "DietarySodium", unit: .gram(), .cumulative, nutrition: true)

    /// Caffeine; canonical `g`, cumulative, nutrition.
    public static let dietaryCaffeine = quantity(
        "dietaryCaffeine", healthKitName: "DietaryCaffeine", unit: .gram(), .cumulative, nutrition: true)

    // MARK: Category types

    /// Sleep stages (`SleepAnalysisValue`: inBed 0 … asleepREM 5).
    public static let sleepAnalysis = category(
        "sleepAnalysis", healthKitName: "SleepAnalysis", values: SleepAnalysisValue.self)

    /// Menstrual flow (`MenstrualFlowValue`); requires `MetadataKey.menstrualCycleStart`.
    public static let menstrualFlow = category(
        "menstrualFlow", healthKitName: "MenstrualFlow", values: MenstrualFlowValue.self,
        required: [.menstrualCycleStart])

    /// Whether the person stood during an hour (`AppleStandHourValue`); read-only.
    public static let appleStandHour = category(
        "appleStandHour", healthKitName: "AppleStandHour", values: AppleStandHourValue.self, shareable: false)

    /// Mindfulness sessions (`MindfulSessionValue.notApplicable`).
    public static let mindfulSession = category(
        "mindfulSession", healthKitName: "MindfulSession", values: MindfulSessionValue.self)

    // MARK: Correlation types

    /// A blood-pressure reading: exactly one systolic and one diastolic sample. Not authorizable itself.
    public static let bloodPressure = HealthObjectType(
        identifier: "bloodPressure", healthKitIdentifier: "HKCorrelationTypeIdentifierBloodPressure",
        kind: .correlation, isShareable: false)

    /// A food: nutrition samples (at least `dietaryEnergyConsumed`) and a `foodType` name. Not authorizable
    /// itself.
    public static let food = HealthObjectType(
        identifier: "food", healthKitIdentifier: "HKCorrelationTypeIdentifierFood", kind: .correlation,
        isShareable: false, requiredMetadataKeys: [.foodType])

    // MARK: Characteristic types (read-only, not samples)

    /// Date of birth. A read-only characteristic.
    public static let dateOfBirth = characteristic("dateOfBirth", healthKitName: "DateOfBirth")

    /// Biological sex. A read-only characteristic.
    public static let biologicalSex = characteristic("biologicalSex", healthKitName: "BiologicalSex")

    /// Blood type. A read-only characteristic.
    public static let bloodType = characteristic("bloodType", healthKitName: "BloodType")

    /// Fitzpatrick skin type. A read-only characteristic.
    public static let fitzpatrickSkinType = characteristic("fitzpatrickSkinType", healthKitName: "FitzpatrickSkinType")

    /// Whether the person uses a wheelchair. A read-only characteristic.
    public static let wheelchairUse = characteristic("wheelchairUse", healthKitName: "WheelchairUse")

    /// Whether the move ring counts energy or time. A read-only characteristic.
    public static let activityMoveMode = characteristic("activityMoveMode", healthKitName: "ActivityMoveMode")

    // MARK: Other types

    /// Daily activity-ring summaries; read-only and not a sample type.
    public static let activitySummary = HealthObjectType(
        identifier: "activitySummary", healthKitIdentifier: "HKActivitySummaryTypeIdentifier",
        kind: .activitySummary, isShareable: false)

    /// Electrocardiogram recordings made by Apple Watch; read-only.
    public static let electrocardiogram = HealthObjectType(
        identifier: "electrocardiogram", healthKitIdentifier: "HKDataTypeIdentifierElectrocardiogram",
        kind: .electrocardiogram, isShareable: false)

    /// Workouts.
    public static let workout = HealthObjectType(
        identifier: "workout", healthKitIdentifier: "HKWorkoutTypeIdentifier", kind: .workout, isShareable: true)

    /// Every type in the catalog, grouped by kind in declaration order.
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
