/// What a statistics computation calculates — the counterpart of `HKStatisticsOptions`.
///
/// Sums suit cumulative types (steps, energy); average, minimum and maximum suit discrete types (heart
/// rate, body mass). `mostRecent`, `duration` and `separateBySource` suit both. Check a combination
/// before computing with `validate(for:)`; the computations call it themselves.
///
/// The raw values are HealthKit's (`separateBySource` is `1 << 0` … `duration` is `1 << 6`).
public struct StatisticsOptions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The option bits.
    public let rawValue: UInt

    /// Makes options from raw bits; unknown bits are rejected later by `validate(for:)`.
    ///
    /// - Parameter rawValue: The option bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Computes every value per source as well as over all sources.
    public static let separateBySource = StatisticsOptions(rawValue: 1 << 0)
    /// The average of a discrete type (arithmetic or temporally weighted, as the type's aggregation style says).
    public static let discreteAverage = StatisticsOptions(rawValue: 1 << 1)
    /// The smallest value of a discrete type.
    public static let discreteMin = StatisticsOptions(rawValue: 1 << 2)
    /// The largest value of a discrete type.
    public static let discreteMax = StatisticsOptions(rawValue: 1 << 3)
    /// The sum of a cumulative type; samples straddling the window's edges count in proportion to overlap.
    public static let cumulativeSum = StatisticsOptions(rawValue: 1 << 4)
    /// The value of the latest sample (latest end date) and its date interval.
    public static let mostRecent = StatisticsOptions(rawValue: 1 << 5)
    /// The time covered by samples (the union of their intervals within the window), in seconds.
    public static let duration = StatisticsOptions(rawValue: 1 << 6)

    /// Every option, each with its name, in raw-value order.
    static let named: [(option: StatisticsOptions, name: String)] = [
        (.separateBySource, "separateBySource"), (.discreteAverage, "discreteAverage"), (.discreteMin, "discreteMin"),
        (.discreteMax, "discreteMax"), (.cumulativeSum, "cumulativeSum"), (.mostRecent, "mostRecent"),
        (.duration, "duration"),
    ]

    /// All known option bits.
    static let known = StatisticsOptions(rawValue: (1 << 7) - 1)

    /// The options' names in raw-value order, in brackets; unknown bits are shown in hexadecimal.
    public var description: String {
        var names = Self.named.filter { contains($0.option) }.map(\.name)
        let unknown = rawValue & ~Self.known.rawValue
        if unknown != 0 { names.append("0x" + String(unknown, radix: 16)) }
        return "[" + names.joined(separator: ", ") + "]"
    }

    /// Checks that the options suit the type, following HealthKit's rules.
    ///
    /// - Statistics apply to quantity types only.
    /// - `discreteAverage`, `discreteMin` and `discreteMax` need a discrete type.
    /// - `cumulativeSum` needs a cumulative type.
    /// - `mostRecent`, `duration` and `separateBySource` suit every quantity type.
    ///
    /// Options are checked in raw-value order, so the first offending option is the one reported.
    ///
    /// - Parameter type: The type the statistics are for.
    /// - Throws: `StatisticsError.notAQuantityType`, `.incompatibleOption` or `.unknownOptions`.
    public func validate(for type: HealthObjectType) throws(StatisticsError) {
        guard type.kind == .quantity, let style = type.aggregationStyle else { throw .notAQuantityType(type) }
        let unknown = rawValue & ~Self.known.rawValue
        guard unknown == 0 else { throw .unknownOptions(rawValue: unknown) }
        let forbidden: StatisticsOptions =
            style.isCumulative ? [.discreteAverage, .discreteMin, .discreteMax] : .cumulativeSum
        for (option, _) in Self.named where contains(option) && forbidden.contains(option) {
            throw .incompatibleOption(option, type: type)
        }
    }

    /// The name of a single option, or the description of a combination.
    var name: String {
        Self.named.first { $0.option == self }?.name ?? description
    }
}
