// Identifiers matched to iOS 18.1's HKTypeIdentifiers.h (the subset HealthFlow's catalog models).

/// The identifiers of HealthKit's quantity types that this shim knows (`HKQuantityTypeIdentifier…` constants,
/// imported into Swift as this struct's static members).
///
/// ```swift
/// let type = HKObjectType.quantityType(forIdentifier: .height)
/// ```
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier string, e.g. `"HKQuantityTypeIdentifierHeight"`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.height.rawValue
    /// ```
    public let rawValue: String

    /// Wraps an identifier string (unknown identifiers make `…Type(forIdentifier:)` return `nil`).
    ///
    /// ```swift
    /// let identifier = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeight")
    /// ```
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps an identifier string.
    ///
    /// ```swift
    /// let identifier = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierHeight")
    /// ```
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HKQuantityTypeIdentifierHeight`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.height
    /// ```
    public static let height = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeight")

    /// `HKQuantityTypeIdentifierBodyMass`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.bodyMass
    /// ```
    public static let bodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMass")

    /// `HKQuantityTypeIdentifierBodyMassIndex`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.bodyMassIndex
    /// ```
    public static let bodyMassIndex = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMassIndex")

    /// `HKQuantityTypeIdentifierLeanBodyMass`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.leanBodyMass
    /// ```
    public static let leanBodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierLeanBodyMass")

    /// `HKQuantityTypeIdentifierBodyFatPercentage`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.bodyFatPercentage
    /// ```
    public static let bodyFatPercentage = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierBodyFatPercentage")

    /// `HKQuantityTypeIdentifierBodyTemperature`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.bodyTemperature
    /// ```
    public static let bodyTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyTemperature")

    /// `HKQuantityTypeIdentifierStepCount`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.stepCount
    /// ```
    public static let stepCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStepCount")

    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.distanceWalkingRunning
    /// ```
    public static let distanceWalkingRunning = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierDistanceWalkingRunning")

    /// `HKQuantityTypeIdentifierDistanceCycling`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.distanceCycling
    /// ```
    public static let distanceCycling = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceCycling")

    /// `HKQuantityTypeIdentifierFlightsClimbed`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.flightsClimbed
    /// ```
    public static let flightsClimbed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierFlightsClimbed")

    /// `HKQuantityTypeIdentifierActiveEnergyBurned`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.activeEnergyBurned
    /// ```
    public static let activeEnergyBurned = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierActiveEnergyBurned")

    /// `HKQuantityTypeIdentifierBasalEnergyBurned`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.basalEnergyBurned
    /// ```
    public static let basalEnergyBurned = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierBasalEnergyBurned")

    /// `HKQuantityTypeIdentifierAppleExerciseTime`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.appleExerciseTime
    /// ```
    public static let appleExerciseTime = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierAppleExerciseTime")

    /// `HKQuantityTypeIdentifierAppleStandTime`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.appleStandTime
    /// ```
    public static let appleStandTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleStandTime")

    /// `HKQuantityTypeIdentifierAppleMoveTime`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.appleMoveTime
    /// ```
    public static let appleMoveTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleMoveTime")

    /// `HKQuantityTypeIdentifierNikeFuel`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.nikeFuel
    /// ```
    public static let nikeFuel = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNikeFuel")

    /// `HKQuantityTypeIdentifierHeartRate`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.heartRate
    /// ```
    public static let heartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRate")

    /// `HKQuantityTypeIdentifierRestingHeartRate`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.restingHeartRate
    /// ```
    public static let restingHeartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRestingHeartRate")

    /// `HKQuantityTypeIdentifierWalkingHeartRateAverage`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.walkingHeartRateAverage
    /// ```
    public static let walkingHeartRateAverage = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierWalkingHeartRateAverage")

    /// `HKQuantityTypeIdentifierRespiratoryRate`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.respiratoryRate
    /// ```
    public static let respiratoryRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRespiratoryRate")

    /// `HKQuantityTypeIdentifierOxygenSaturation`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.oxygenSaturation
    /// ```
    public static let oxygenSaturation = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierOxygenSaturation")

    /// `HKQuantityTypeIdentifierBloodPressureSystolic`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.bloodPressureSystolic
    /// ```
    public static let bloodPressureSystolic = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierBloodPressureSystolic")

    /// `HKQuantityTypeIdentifierBloodPressureDiastolic`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.bloodPressureDiastolic
    /// ```
    public static let bloodPressureDiastolic = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierBloodPressureDiastolic")

    /// `HKQuantityTypeIdentifierBloodGlucose`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.bloodGlucose
    /// ```
    public static let bloodGlucose = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodGlucose")

    /// `HKQuantityTypeIdentifierInsulinDelivery`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.insulinDelivery
    /// ```
    public static let insulinDelivery = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierInsulinDelivery")

    /// `HKQuantityTypeIdentifierVO2Max`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.vo2Max
    /// ```
    public static let vo2Max = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierVO2Max")

    /// `HKQuantityTypeIdentifierEnvironmentalAudioExposure`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.environmentalAudioExposure
    /// ```
    public static let environmentalAudioExposure = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierEnvironmentalAudioExposure")

    /// `HKQuantityTypeIdentifierHeadphoneAudioExposure`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.headphoneAudioExposure
    /// ```
    public static let headphoneAudioExposure = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierHeadphoneAudioExposure")

    /// `HKQuantityTypeIdentifierDietaryEnergyConsumed`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietaryEnergyConsumed
    /// ```
    public static let dietaryEnergyConsumed = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierDietaryEnergyConsumed")

    /// `HKQuantityTypeIdentifierDietaryWater`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietaryWater
    /// ```
    public static let dietaryWater = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryWater")

    /// `HKQuantityTypeIdentifierDietaryProtein`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietaryProtein
    /// ```
    public static let dietaryProtein = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryProtein")

    /// `HKQuantityTypeIdentifierDietaryCarbohydrates`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietaryCarbohydrates
    /// ```
    public static let dietaryCarbohydrates = HKQuantityTypeIdentifier(
        rawValue: "HKQuantityTypeIdentifierDietaryCarbohydrates")

    /// `HKQuantityTypeIdentifierDietaryFatTotal`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietaryFatTotal
    /// ```
    public static let dietaryFatTotal = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatTotal")

    /// `HKQuantityTypeIdentifierDietarySugar`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietarySugar
    /// ```
    public static let dietarySugar = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySugar")

    /// `HKQuantityTypeIdentifierDietaryFiber`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietaryFiber
    /// ```
    public static let dietaryFiber = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFiber")

    /// `HKQuantityTypeIdentifierDietarySodium`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietarySodium
    /// ```
    public static let dietarySodium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySodium")

    /// `HKQuantityTypeIdentifierDietaryCaffeine`.
    ///
    /// ```swift
    /// HKQuantityTypeIdentifier.dietaryCaffeine
    /// ```
    public static let dietaryCaffeine = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCaffeine")
}
