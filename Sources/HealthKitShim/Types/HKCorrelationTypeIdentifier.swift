// Identifiers matched to iOS 18.1's HKTypeIdentifiers.h (the subset HealthFlow's catalog models).

/// The identifiers of HealthKit's correlation types that this shim knows (`HKCorrelationTypeIdentifier…` constants,
/// imported into Swift as this struct's static members).
public struct HKCorrelationTypeIdentifier: _HKTypeIdentifier {
    /// The identifier string, e.g. `"HKCorrelationTypeIdentifierBloodPressure"`.
    public let rawValue: String

    /// Wraps an identifier string (unknown identifiers make `…Type(forIdentifier:)` return `nil`).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HKCorrelationTypeIdentifierBloodPressure`.
    public static let bloodPressure = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierBloodPressure")

    /// `HKCorrelationTypeIdentifierFood`.
    public static let food = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierFood")
}
