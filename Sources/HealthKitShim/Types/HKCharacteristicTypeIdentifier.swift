// Identifiers matched to iOS 18.1's HKTypeIdentifiers.h (the subset HealthFlow's catalog models).

/// The identifiers of HealthKit's characteristic types that this shim knows (`HKCharacteristicTypeIdentifier…` constants,
/// imported into Swift as this struct's static members).
///
/// ```swift
/// let type = HKObjectType.characteristicType(forIdentifier: .dateOfBirth)
/// ```
public struct HKCharacteristicTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier string, e.g. `"HKCharacteristicTypeIdentifierDateOfBirth"`.
    ///
    /// ```swift
    /// HKCharacteristicTypeIdentifier.dateOfBirth.rawValue
    /// ```
    public let rawValue: String

    /// Wraps an identifier string (unknown identifiers make `…Type(forIdentifier:)` return `nil`).
    ///
    /// ```swift
    /// let identifier = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierDateOfBirth")
    /// ```
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps an identifier string.
    ///
    /// ```swift
    /// let identifier = HKCharacteristicTypeIdentifier("HKCharacteristicTypeIdentifierDateOfBirth")
    /// ```
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HKCharacteristicTypeIdentifierDateOfBirth`.
    ///
    /// ```swift
    /// HKCharacteristicTypeIdentifier.dateOfBirth
    /// ```
    public static let dateOfBirth = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierDateOfBirth")

    /// `HKCharacteristicTypeIdentifierBiologicalSex`.
    ///
    /// ```swift
    /// HKCharacteristicTypeIdentifier.biologicalSex
    /// ```
    public static let biologicalSex = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierBiologicalSex")

    /// `HKCharacteristicTypeIdentifierBloodType`.
    ///
    /// ```swift
    /// HKCharacteristicTypeIdentifier.bloodType
    /// ```
    public static let bloodType = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierBloodType")

    /// `HKCharacteristicTypeIdentifierFitzpatrickSkinType`.
    ///
    /// ```swift
    /// HKCharacteristicTypeIdentifier.fitzpatrickSkinType
    /// ```
    public static let fitzpatrickSkinType = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierFitzpatrickSkinType")

    /// `HKCharacteristicTypeIdentifierWheelchairUse`.
    ///
    /// ```swift
    /// HKCharacteristicTypeIdentifier.wheelchairUse
    /// ```
    public static let wheelchairUse = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierWheelchairUse")

    /// `HKCharacteristicTypeIdentifierActivityMoveMode`.
    ///
    /// ```swift
    /// HKCharacteristicTypeIdentifier.activityMoveMode
    /// ```
    public static let activityMoveMode = HKCharacteristicTypeIdentifier(
        rawValue: "HKCharacteristicTypeIdentifierActivityMoveMode")
}
