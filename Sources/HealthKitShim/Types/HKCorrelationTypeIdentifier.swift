// Identifiers matched to iOS 18.1's HKTypeIdentifiers.h (the subset HealthFlow's catalog models).

/// The identifiers of HealthKit's correlation types that this shim knows (`HKCorrelationTypeIdentifier…` constants,
/// imported into Swift as this struct's static members).
///
/// ```swift
/// let type = HKObjectType.correlationType(forIdentifier: .bloodPressure)
/// ```
public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier string, e.g. `"HKCorrelationTypeIdentifierBloodPressure"`.
    ///
    /// ```swift
    /// HKCorrelationTypeIdentifier.bloodPressure.rawValue
    /// ```
    public let rawValue: String

    /// Wraps an identifier string (unknown identifiers make `…Type(forIdentifier:)` return `nil`).
    ///
    /// ```swift
    /// let identifier = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierBloodPressure")
    /// ```
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps an identifier string.
    ///
    /// ```swift
    /// let identifier = HKCorrelationTypeIdentifier("HKCorrelationTypeIdentifierBloodPressure")
    /// ```
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HKCorrelationTypeIdentifierBloodPressure`.
    ///
    /// ```swift
    /// HKCorrelationTypeIdentifier.bloodPressure
    /// ```
    public static let bloodPressure = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierBloodPressure")

    /// `HKCorrelationTypeIdentifierFood`.
    ///
    /// ```swift
    /// HKCorrelationTypeIdentifier.food
    /// ```
    public static let food = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierFood")
}
