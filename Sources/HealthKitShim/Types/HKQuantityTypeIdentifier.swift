// Identifiers matched to iOS 18.1's HKTypeIdentifiers.h (the subset HealthFlow's catalog models).

/// The identifiers of HealthKit's quantity types that this shim knows (`HKQuantityTypeIdentifier…` constants,
/// imported into Swift as this struct's static members).
public struct HKQuantityTypeIdentifier: _HKTypeIdentifier {
    /// The identifier string, e.g. `"HKQuantityTypeIdentifierHeight"`.
    public let rawValue: String

    /// Wraps an identifier string (unknown identifiers make `…Type(forIdentifier:)` return `nil`).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HKQuantityTypeIdentifierHeight`.
    public static let height = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeight")

    /// `HKQuantityTypeIdentifierBodyMass`.
    public static let bodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMass")

    /// `HKQuantityTypeIdentifierBodyMassIndex`.
    public static let bodyMassIndex = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMassIndex")

    /// `HKQuantityTypeIdentifierLeanBodyMass`.
    public static let leanBodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierLeanBodyMass")

    /// `HKQuantityTypeIdentifierBodyFatPercentage`.
    public static let bodyFatPercentage = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierBodyFatPercentage")

    /// `HKQuantityTypeIdentifierBodyTemperature`.
    public static let bodyTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyTemperature")

    /// `HKQuantityTypeIdentifierStepCount`.
    public static let stepCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStepCount")

    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`.
    public static let distanceWalkingRunning = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierDistanceWalkingRunning")

    /// `HKQuantityTypeIdentifierDistanceCycling`.
    public static let distanceCycling = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceCycling")

    /// `HKQuantityTypeIdentifierFlightsClimbed`.
    public static let flightsClimbed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierFlightsClimbed")

    /// `HKQuantityTypeIdentifierActiveEnergyBurned`.
    public static let activeEnergyBurned = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierActiveEnergyBurned")

    /// `HKQuantityTypeIdentifierBasalEnergyBurned`.
    public static let basalEnergyBurned = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierBasalEnergyBurned")

    /// `HKQuantityTypeIdentifierAppleExerciseTime`.
    public static let appleExerciseTime = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierAppleExerciseTime")

    /// `HKQuantityTypeIdentifierAppleStandTime`.
    public static let appleStandTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleStandTime")

    /// `HKQuantityTypeIdentifierAppleMoveTime`.
    public static let appleMoveTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleMoveTime")

    /// `HKQuantityTypeIdentifierNikeFuel`.
    public static let nikeFuel = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNikeFuel")

    /// `HKQuantityTypeIdentifierHeartRate`.
    public static let heartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRate")

    /// `HKQuantityTypeIdentifierRestingHeartRate`.
    public static let restingHeartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRestingHeartRate")

    /// `HKQuantityTypeIdentifierWalkingHeartRateAverage`.
    public static let walkingHeartRateAverage = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierWalkingHeartRateAverage")

    /// `HKQuantityTypeIdentifierRespiratoryRate`.
    public static let respiratoryRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRespiratoryRate")

    /// `HKQuantityTypeIdentifierOxygenSaturation`.
    public static let oxygenSaturation = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierOxygenSaturation")

    /// `HKQuantityTypeIdentifierBloodPressureSystolic`.
    public static let bloodPressureSystolic = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierBloodPressureSystolic")

    /// `HKQuantityTypeIdentifierBloodPressureDiastolic`.
    public static let bloodPressureDiastolic = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierBloodPressureDiastolic")

    /// `HKQuantityTypeIdentifierBloodGlucose`.
    public static let bloodGlucose = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodGlucose")

    /// `HKQuantityTypeIdentifierInsulinDelivery`.
    public static let insulinDelivery = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierInsulinDelivery")

    /// `HKQuantityTypeIdentifierVO2Max`.
    public static let vo2Max = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierVO2Max")

    /// `HKQuantityTypeIdentifierEnvironmentalAudioExposure`.
    public static let environmentalAudioExposure = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierEnvironmentalAudioExposure")

    /// `HKQuantityTypeIdentifierHeadphoneAudioExposure`.
    public static let headphoneAudioExposure = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierHeadphoneAudioExposure")

    /// `HKQuantityTypeIdentifierDietaryEnergyConsumed`.
    public static let dietaryEnergyConsumed = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierDietaryEnergyConsumed")

    /// `HKQuantityTypeIdentifierDietaryWater`.
    public static let dietaryWater = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryWater")

    /// `HKQuantityTypeIdentifierDietaryProtein`.
    public static let dietaryProtein = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryProtein")

    /// `HKQuantityTypeIdentifierDietaryCarbohydrates`.
    public static let dietaryCarbohydrates = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierDietaryCarbohydrates")

    /// `HKQuantityTypeIdentifierDietaryFatTotal`.
    public static let dietaryFatTotal = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatTotal")

    /// `HKQuantityTypeIdentifierDietarySugar`.
    public static let dietarySugar = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySugar")

    /// `HKQuantityTypeIdentifierDietaryFiber`.
    public static let dietaryFiber = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFiber")

    /// `HKQuantityTypeIdentifierDietarySodium`.
    public static let dietarySodium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySodium")

    /// `HKQuantityTypeIdentifierDietaryCaffeine`.
    public static let dietaryCaffeine = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCaffeine")
}
