/// The built-in catalog of types: every identifier on the HealthKit fact sheet and a few neighbours.
extension HealthObjectType {
    private static let perSecond = HealthUnit.count().unitDivided(by: .second())
    private static let perMinute = HealthUnit.count().unitDivided(by: .minute())
    private static let milligramsPerDeciliter = HealthUnit.gramUnit(with: .milli)
        .unitDivided(by: .literUnit(with: .deci))
    private static let millilitersPerKilogramMinute = HealthUnit.literUnit(with: .milli)
        .unitDivided(by: HealthUnit.gramUnit(with: .kilo).unitMultiplied(by: .minute()))

    /// HealthKit's identifier for a type: `prefix` + `name`, or by default `prefix` + the identifier with its
    /// first letter in upper case (`stepCount` → `HKQuantityTypeIdentifierStepCount`).
    private static func healthKitIdentifier(_ prefix: String, _ identifier: String, _ name: String? = nil) -> String {
        prefix + (name ?? identifier.prefix(1).uppercased() + identifier.dropFirst())
    }

    private static func quantity(
        _ identifier: String, healthKitName: String? = nil, unit: HealthUnit, _ style: AggregationStyle,
        display: HealthUnit? = nil, shareable: Bool = true, required: Set<MetadataKey> = [], nutrition: Bool = false
    ) -> HealthObjectType {
        HealthObjectType(
            identifier: identifier,
            healthKitIdentifier: healthKitIdentifier("HKQuantityTypeIdentifier", identifier, healthKitName),
            kind: .quantity, canonicalUnit: unit, displayUnit: display, aggregationStyle: style,
            isShareable: shareable, requiredMetadataKeys: required, isNutrition: nutrition)
    }

    private static func category<Value: HealthCategoryValue>(
        _ identifier: String, values: Value.Type, shareable: Bool = true, required: Set<MetadataKey> = []
    ) -> HealthObjectType {
        HealthObjectType(
            identifier: identifier,
            healthKitIdentifier: healthKitIdentifier("HKCategoryTypeIdentifier", identifier),
            kind: .category, isShareable: shareable, requiredMetadataKeys: required,
            allowedCategoryValues: values.allCases.map(\.rawValue).sorted())
    }

    private static func characteristic(_ identifier: String) -> HealthObjectType {
        HealthObjectType(
            identifier: identifier,
            healthKitIdentifier: healthKitIdentifier("HKCharacteristicTypeIdentifier", identifier),
            kind: .characteristic, isShareable: false)
    }

    // MARK: Quantity types

    /// Body height; canonical `m`, discrete.
    public static let height = quantity("height", unit: .meter(), .discreteArithmetic)

    /// Body mass; canonical `kg`, discrete.
    public static let bodyMass = quantity("bodyMass", unit: .gramUnit(with: .kilo), .discreteArithmetic)

    /// Body mass index; canonical `count`, discrete.
    public static let bodyMassIndex = quantity("bodyMassIndex", unit: .count(), .discreteArithmetic)

    /// Lean body mass; canonical `kg`, discrete.
    public static let leanBodyMass = quantity("leanBodyMass", unit: .gramUnit(with: .kilo), .discreteArithmetic)

    /// Body fat as a fraction with unit `%` (0.2 `%` is 20 %); discrete.
    public static let bodyFatPercentage = quantity("bodyFatPercentage", unit: .percent(), .discreteArithmetic)

    /// Body temperature; canonical `degC`, discrete.
    public static let bodyTemperature = quantity("bodyTemperature", unit: .degreeCelsius(), .discreteArithmetic)

    /// Steps; canonical `count`, cumulative.
    public static let stepCount = quantity("stepCount", unit: .count(), .cumulative)

    /// Distance walked or run; canonical `m`, cumulative.
    public static let distanceWalkingRunning = quantity("distanceWalkingRunning", unit: .meter(), .cumulative)

    /// Distance cycled; canonical `m`, cumulative.
    public static let distanceCycling = quantity("distanceCycling", unit: .meter(), .cumulative)

    /// Flights of stairs climbed; canonical `count`, cumulative.
    public static let flightsClimbed = quantity("flightsClimbed", unit: .count(), .cumulative)

    /// Active energy; canonical `kcal`, cumulative.
    public static let activeEnergyBurned = quantity("activeEnergyBurned", unit: .kilocalorie(), .cumulative)

    /// Resting energy; canonical `kcal`, cumulative.
    public static let basalEnergyBurned = quantity("basalEnergyBurned", unit: .kilocalorie(), .cumulative)

    /// Exercise minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    public static let appleExerciseTime = quantity("appleExerciseTime", unit: .minute(), .cumulative, shareable: false)

    /// Standing minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    public static let appleStandTime = quantity("appleStandTime", unit: .minute(), .cumulative, shareable: false)

    /// Move minutes counted by Apple Watch; canonical `min`, cumulative, read-only.
    public static let appleMoveTime = quantity("appleMoveTime", unit: .minute(), .cumulative, shareable: false)

    /// NikeFuel points; canonical `count`, cumulative, read-only.
    public static let nikeFuel = quantity("nikeFuel", unit: .count(), .cumulative, shareable: false)

    /// Heart rate; canonical `count/s`, shown `count/min`, discrete (temporally weighted).
    public static let heartRate = quantity(
        "heartRate", unit: perSecond, .discreteTemporallyWeighted, display: perMinute)

    /// Resting heart rate; canonical `count/s`, shown `count/min`, discrete.
    public static let restingHeartRate = quantity(
        "restingHeartRate", unit: perSecond, .discreteArithmetic, display: perMinute)

    /// Average heart rate while walking; canonical `count/s`, shown `count/min`, discrete, read-only.
    public static let walkingHeartRateAverage = quantity(
        "walkingHeartRateAverage", unit: perSecond, .discreteArithmetic, display: perMinute, shareable: false)

    /// Heart rate variability, the standard deviation of beat-to-beat (NN) intervals; canonical `s`, shown `ms`,
    /// discrete. (HealthKit keeps the beats themselves as a heartbeat series, which this model does not hold.)
    public static let heartRateVariabilitySDNN = quantity(
        "heartRateVariabilitySDNN", unit: .second(), .discreteArithmetic, display: .secondUnit(with: .milli))

    /// Breaths; canonical `count/s`, shown `count/min`, discrete.
    public static let respiratoryRate = quantity(
        "respiratoryRate", unit: perSecond, .discreteArithmetic, display: perMinute)

    /// Blood oxygen saturation as a fraction with unit `%` (0.97 `%` is 97 %); discrete.
    public static let oxygenSaturation = quantity("oxygenSaturation", unit: .percent(), .discreteArithmetic)

    /// Systolic blood pressure; canonical `mmHg`, discrete.
    public static let bloodPressureSystolic = quantity(
        "bloodPressureSystolic", unit: .millimeterOfMercury(), .discreteArithmetic)

    /// Diastolic blood pressure; canonical `mmHg`, discrete.
    public static let bloodPressureDiastolic = quantity(
        "bloodPressureDiastolic", unit: .millimeterOfMercury(), .discreteArithmetic)

    /// Blood glucose; canonical `mg/dL` (also readable in `mmol<180.15588000005408>/L`), discrete.
    public static let bloodGlucose = quantity("bloodGlucose", unit: milligramsPerDeciliter, .discreteArithmetic)

    /// Insulin delivered; canonical `IU`, cumulative; requires `MetadataKey.insulinDeliveryReason`.
    public static let insulinDelivery = quantity(
        "insulinDelivery", unit: .internationalUnit(), .cumulative, required: [.insulinDeliveryReason])

    /// Maximal oxygen consumption; canonical `mL/(kg*min)` (printed `mL/min·kg`), discrete.
    public static let vo2Max = quantity(
        "vo2Max", healthKitName: "VO2Max", unit: millilitersPerKilogramMinute, .discreteArithmetic)

    /// Environmental sound level; canonical `dBASPL`, discrete (equivalent continuous level).
    public static let environmentalAudioExposure = quantity(
        "environmentalAudioExposure", unit: .decibelAWeightedSoundPressureLevel(), .discreteEquivalentContinuousLevel)

    /// Headphone sound level; canonical `dBASPL`, discrete (equivalent continuous level).
    public static let headphoneAudioExposure = quantity(
        "headphoneAudioExposure", unit: .decibelAWeightedSoundPressureLevel(), .discreteEquivalentContinuousLevel)

    /// Dietary energy; canonical `kcal`, cumulative, nutrition.
    public static let dietaryEnergyConsumed = quantity(
        "dietaryEnergyConsumed", unit: .kilocalorie(), .cumulative, nutrition: true)

    /// Water drunk; canonical `mL`, cumulative, nutrition.
    public static let dietaryWater = quantity(
        "dietaryWater", unit: .literUnit(with: .milli), .cumulative, nutrition: true)

    /// Protein; canonical `g`, cumulative, nutrition.
    public static let dietaryProtein = quantity("dietaryProtein", unit: .gram(), .cumulative, nutrition: true)

    /// Carbohydrates; canonical `g`, cumulative, nutrition.
    public static let dietaryCarbohydrates = quantity(
        "dietaryCarbohydrates", unit: .gram(), .cumulative, nutrition: true)

    /// Total fat; canonical `g`, cumulative, nutrition.
    public static let dietaryFatTotal = quantity("dietaryFatTotal", unit: .gram(), .cumulative, nutrition: true)

    /// Sugar; canonical `g`, cumulative, nutrition.
    public static let dietarySugar = quantity("dietarySugar", unit: .gram(), .cumulative, nutrition: true)

    /// Fiber; canonical `g`, cumulative, nutrition.
    public static let dietaryFiber = quantity("dietaryFiber", unit: .gram(), .cumulative, nutrition: true)

    /// Sodium; canonical `g`, cumulative, nutrition.
    public static let dietarySodium = quantity("dietarySodium", unit: .gram(), .cumulative, nutrition: true)

    /// Caffeine; canonical `g`, cumulative, nutrition.
    public static let dietaryCaffeine = quantity("dietaryCaffeine", unit: .gram(), .cumulative, nutrition: true)

    // MARK: Category types

    /// Sleep stages (`SleepAnalysisValue`: inBed 0 … asleepREM 5).
    public static let sleepAnalysis = category("sleepAnalysis", values: SleepAnalysisValue.self)

    /// Menstrual flow (`MenstrualFlowValue`); requires `MetadataKey.menstrualCycleStart`.
    public static let menstrualFlow = category(
        "menstrualFlow", values: MenstrualFlowValue.self, required: [.menstrualCycleStart])

    /// Whether the person stood during an hour (`AppleStandHourValue`); read-only.
    public static let appleStandHour = category("appleStandHour", values: AppleStandHourValue.self, shareable: false)

    /// Mindfulness sessions (`MindfulSessionValue.notApplicable`).
    public static let mindfulSession = category("mindfulSession", values: MindfulSessionValue.self)

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
    public static let dateOfBirth = characteristic("dateOfBirth")

    /// Biological sex. A read-only characteristic.
    public static let biologicalSex = characteristic("biologicalSex")

    /// Blood type. A read-only characteristic.
    public static let bloodType = characteristic("bloodType")

    /// Fitzpatrick skin type. A read-only characteristic.
    public static let fitzpatrickSkinType = characteristic("fitzpatrickSkinType")

    /// Whether the person uses a wheelchair. A read-only characteristic.
    public static let wheelchairUse = characteristic("wheelchairUse")

    /// Whether the move ring counts energy or time. A read-only characteristic.
    public static let activityMoveMode = characteristic("activityMoveMode")

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

    /// Heartbeat series: the beat-to-beat times recorded with a heart rate variability reading. Shareable and
    /// readable, as HealthKit's `HKSeriesType.heartbeat()`.
    public static let heartbeatSeries = HealthObjectType(
        identifier: "heartbeatSeries", healthKitIdentifier: "HKDataTypeIdentifierHeartbeatSeries",
        kind: .heartbeatSeries, isShareable: true)

    /// Every type in the catalog, grouped by kind in declaration order.
    public static let allTypes: [HealthObjectType] = [
        .height, .bodyMass, .bodyMassIndex, .leanBodyMass, .bodyFatPercentage, .bodyTemperature, .stepCount,
        .distanceWalkingRunning, .distanceCycling, .flightsClimbed, .activeEnergyBurned, .basalEnergyBurned,
        .appleExerciseTime, .appleStandTime, .appleMoveTime, .nikeFuel, .heartRate, .restingHeartRate,
        .walkingHeartRateAverage, .heartRateVariabilitySDNN, .respiratoryRate, .oxygenSaturation,
        .bloodPressureSystolic, .bloodPressureDiastolic, .bloodGlucose, .insulinDelivery, .vo2Max,
        .environmentalAudioExposure, .headphoneAudioExposure, .dietaryEnergyConsumed, .dietaryWater, .dietaryProtein,
        .dietaryCarbohydrates, .dietaryFatTotal, .dietarySugar, .dietaryFiber, .dietarySodium, .dietaryCaffeine,
        .sleepAnalysis, .menstrualFlow, .appleStandHour, .mindfulSession, .bloodPressure, .food, .dateOfBirth,
        .biologicalSex, .bloodType, .fitzpatrickSkinType, .wheelchairUse, .activityMoveMode, .activitySummary,
        .electrocardiogram, .workout, .heartbeatSeries,
    ]
}
