// Identifiers matched to iOS 18.1's HKTypeIdentifiers.h (the subset HealthFlow's catalog models).

/// The identifiers of HealthKit's category types that this shim knows (`HKCategoryTypeIdentifier…` constants,
/// imported into Swift as this struct's static members).
public struct HKCategoryTypeIdentifier: _HKTypeIdentifier {
    /// The identifier string, e.g. `"HKCategoryTypeIdentifierSleepAnalysis"`.
    public let rawValue: String

    /// Wraps an identifier string (unknown identifiers make `…Type(forIdentifier:)` return `nil`).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HKCategoryTypeIdentifierSleepAnalysis`.
    public static let sleepAnalysis = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepAnalysis")

    /// `HKCategoryTypeIdentifierMenstrualFlow`.
    public static let menstrualFlow = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMenstrualFlow")

    /// `HKCategoryTypeIdentifierAppleStandHour`.
    public static let appleStandHour = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAppleStandHour")

    /// `HKCategoryTypeIdentifierMindfulSession`.
    public static let mindfulSession = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMindfulSession")
}
