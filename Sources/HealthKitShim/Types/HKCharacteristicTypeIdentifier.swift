// Identifiers matched to iOS 18.1's HKTypeIdentifiers.h (the subset HealthFlow's catalog models).

/// The identifiers of HealthKit's characteristic types that this shim knows (`HKCharacteristicTypeIdentifier…` constants,
/// imported into Swift as this struct's static members).
public struct HKCharacteristicTypeIdentifier: _HKTypeIdentifier {
    /// The identifier string, e.g. `"HKCharacteristicTypeIdentifierDateOfBirth"`.
    public let rawValue: String

    /// Wraps an identifier string (unknown identifiers make `…Type(forIdentifier:)` return `nil`).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HKCharacteristicTypeIdentifierDateOfBirth`.
    public static let dateOfBirth = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierDateOfBirth")

    /// `HKCharacteristicTypeIdentifierBiologicalSex`.
    public static let biologicalSex = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierBiologicalSex")

    /// `HKCharacteristicTypeIdentifierBloodType`.
    public static let bloodType = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierBloodType")

    /// `HKCharacteristicTypeIdentifierFitzpatrickSkinType`.
    public static let fitzpatrickSkinType = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierFitzpatrickSkinType")

    /// `HKCharacteristicTypeIdentifierWheelchairUse`.
    public static let wheelchairUse = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierWheelchairUse")

    /// `HKCharacteristicTypeIdentifierActivityMoveMode`.
    public static let activityMoveMode = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierActivityMoveMode")
}
