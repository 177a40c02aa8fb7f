// Identifiers matched to iOS 18.1's HKTypeIdentifiers.h (the subset HealthFlow's catalog models).

/// The identifiers of HealthKit's category types that this shim knows (`HKCategoryTypeIdentifier…` constants,
/// imported into Swift as this struct's static members).
///
/// ```swift
/// let type = HKObjectType.categoryType(forIdentifier: .sleepAnalysis)
/// ```
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier string, e.g. `"HKCategoryTypeIdentifierSleepAnalysis"`.
    ///
    /// ```swift
    /// HKCategoryTypeIdentifier.sleepAnalysis.rawValue
    /// ```
    public let rawValue: String

    /// Wraps an identifier string (unknown identifiers make `…Type(forIdentifier:)` return `nil`).
    ///
    /// ```swift
    /// let identifier = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepAnalysis")
    /// ```
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps an identifier string.
    ///
    /// ```swift
    /// let identifier = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSleepAnalysis")
    /// ```
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// `HKCategoryTypeIdentifierSleepAnalysis`.
    ///
    /// ```swift
    /// HKCategoryTypeIdentifier.sleepAnalysis
    /// ```
    public static let sleepAnalysis = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepAnalysis")

    /// `HKCategoryTypeIdentifierMenstrualFlow`.
    ///
    /// ```swift
    /// HKCategoryTypeIdentifier.menstrualFlow
    /// ```
    public static let menstrualFlow = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMenstrualFlow")

    /// `HKCategoryTypeIdentifierAppleStandHour`.
    ///
    /// ```swift
    /// HKCategoryTypeIdentifier.appleStandHour
    /// ```
    public static let appleStandHour = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAppleStandHour")

    /// `HKCategoryTypeIdentifierMindfulSession`.
    ///
    /// ```swift
    /// HKCategoryTypeIdentifier.mindfulSession
    /// ```
    public static let mindfulSession = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMindfulSession")
}
