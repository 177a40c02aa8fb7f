import HealthFlow

/// What a statistics query computes.
public struct HKStatisticsOptions: OptionSet, Hashable, Sendable {
    /// The option bits (as in HealthKit).
    public let rawValue: UInt

    /// Options from bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Results per source too.
    public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
    /// Average (discrete types).
    public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
    /// Minimum (discrete types).
    public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
    /// Maximum (discrete types).
    public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
    /// Sum (cumulative types).
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
    /// Most recent value.
    public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    /// Total duration covered.
    public static let duration = HKStatisticsOptions(rawValue: 1 << 6)

    var healthFlowOptions: StatisticsOptions { StatisticsOptions(rawValue: rawValue) }
}
