import HealthFlow

/// What a statistics query computes.
///
/// ```swift
/// let options: HKStatisticsOptions = [.cumulativeSum, .separateBySource]
/// ```
public struct HKStatisticsOptions: OptionSet, Hashable, Sendable {
    /// The option bits (as in HealthKit).
    ///
    /// ```swift
    /// HKStatisticsOptions.cumulativeSum.rawValue   // 16
    /// ```
    public let rawValue: UInt

    /// Options from bits.
    ///
    /// ```swift
    /// let options = HKStatisticsOptions(rawValue: 1 << 4)
    /// ```
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Results per source too.
    ///
    /// ```swift
    /// statistics.sumQuantity(for: source)
    /// ```
    public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
    /// Average (discrete types).
    ///
    /// ```swift
    /// statistics.averageQuantity()
    /// ```
    public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
    /// Minimum (discrete types).
    ///
    /// ```swift
    /// statistics.minimumQuantity()
    /// ```
    public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
    /// Maximum (discrete types).
    ///
    /// ```swift
    /// statistics.maximumQuantity()
    /// ```
    public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
    /// Sum (cumulative types).
    ///
    /// ```swift
    /// statistics.sumQuantity()
    /// ```
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
    /// Most recent value.
    ///
    /// ```swift
    /// statistics.mostRecentQuantity()
    /// ```
    public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    /// Total duration covered.
    ///
    /// ```swift
    /// statistics.duration()
    /// ```
    public static let duration = HKStatisticsOptions(rawValue: 1 << 6)

    var healthFlowOptions: StatisticsOptions { StatisticsOptions(rawValue: rawValue) }
}
