/// A typed value of a category type, such as a sleep stage; its raw value is what a category sample stores.
public protocol HealthCategoryValue: RawRepresentable, CaseIterable, Sendable where RawValue == Int {
    /// The category type whose samples hold these values.
    static var categoryType: HealthObjectType { get }
}

/// The values of `sleepAnalysis` (HealthKit's `HKCategoryValueSleepAnalysis`).
public enum SleepAnalysisValue: Int, HealthCategoryValue, Hashable, Codable {
    /// In bed, not necessarily asleep.
    case inBed = 0
    /// Asleep, stage unknown.
    case asleepUnspecified = 1
    /// Awake during a sleep period.
    case awake = 2
    /// Core (light) sleep.
    case asleepCore = 3
    /// Deep sleep.
    case asleepDeep = 4
    /// REM sleep.
    case asleepREM = 5

    /// `HealthObjectType.sleepAnalysis`.
    public static var categoryType: HealthObjectType { .sleepAnalysis }
}

/// The values of `menstrualFlow` (HealthKit's `HKCategoryValueVaginalBleeding`, formerly
/// `HKCategoryValueMenstrualFlow`).
public enum MenstrualFlowValue: Int, HealthCategoryValue, Hashable, Codable {
    /// Flow of unspecified amount.
    case unspecified = 1
    /// Light flow.
    case light = 2
    /// Medium flow.
    case medium = 3
    /// Heavy flow.
    case heavy = 4
    /// No flow.
    case none = 5

    /// `HealthObjectType.menstrualFlow`.
    public static var categoryType: HealthObjectType { .menstrualFlow }
}

/// The values of `appleStandHour` (HealthKit's `HKCategoryValueAppleStandHour`).
public enum AppleStandHourValue: Int, HealthCategoryValue, Hashable, Codable {
    /// The person stood during the hour.
    case stood = 0
    /// The person did not stand during the hour.
    case idle = 1

    /// `HealthObjectType.appleStandHour`.
    public static var categoryType: HealthObjectType { .appleStandHour }
}

/// The value of `mindfulSession`, which has a single value (HealthKit's `HKCategoryValueNotApplicable`).
public enum MindfulSessionValue: Int, HealthCategoryValue, Hashable, Codable {
    /// The only value.
    case notApplicable = 0

    /// `HealthObjectType.mindfulSession`.
    public static var categoryType: HealthObjectType { .mindfulSession }
}
