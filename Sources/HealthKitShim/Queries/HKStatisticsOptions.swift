import HealthFlow

/// What a statistics query computes.
public struct HKStatisticsOptions: OptionSet, Hashable, Sendable {
    /// The option bits: HealthFlow's `StatisticsOptions` bits, which are HealthKit's.
    public let rawValue: UInt

    /// Options from bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Results per source too.
    public static let separateBySource = HKStatisticsOptions(rawValue: StatisticsOptions.separateBySource.rawValue)
    /// Average (discrete types).
    public static let discreteAverage = HKStatisticsOptions(rawValue: StatisticsOptions.discreteAverage.rawValue)
    /// Minimum (discrete types).
    public static let discreteMin = HKStatisticsOptions(rawValue: StatisticsOptions.discreteMin.rawValue)
    /// Maximum (discrete types).
    public static let discreteMax = HKStatisticsOptions(rawValue: StatisticsOptions.discreteMax.rawValue)
    /// Sum (cumulative types).
    public static let cumulativeSum = HKStatisticsOptions(rawValue: StatisticsOptions.cumulativeSum.rawValue)
    /// Most recent value.
    public static let mostRecent = HKStatisticsOptions(rawValue: StatisticsOptions.mostRecent.rawValue)
    /// Total duration covered.
    public static let duration = HKStatisticsOptions(rawValue: StatisticsOptions.duration.rawValue)

    var healthFlowOptions: StatisticsOptions { StatisticsOptions(rawValue: rawValue) }
}
