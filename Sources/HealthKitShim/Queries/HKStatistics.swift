import Foundation
import HealthFlow

/// The result of a statistics query (or one interval of a collection): sum, average, min, max, most recent,
/// duration — overall and per source.
///
/// ```swift
/// let steps = statistics.sumQuantity()?.doubleValue(for: .count())
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKStatistics: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowStatistics: HealthStatistics

    init(healthFlowStatistics: HealthStatistics) {
        self.healthFlowStatistics = healthFlowStatistics
    }

    private func wrap(_ quantity: HealthQuantity?) -> HKQuantity? {
        quantity.map(HKQuantity.init(healthFlowQuantity:))
    }

    /// The quantity type.
    ///
    /// ```swift
    /// statistics.quantityType.identifier
    /// ```
    public var quantityType: HKQuantityType { HKQuantityType(healthFlowType: healthFlowStatistics.quantityType) }
    /// The start of the matched samples (or of the interval).
    ///
    /// ```swift
    /// statistics.startDate
    /// ```
    public var startDate: Date { healthFlowStatistics.startDate }
    /// The end of the matched samples (or of the interval).
    ///
    /// ```swift
    /// statistics.endDate
    /// ```
    public var endDate: Date { healthFlowStatistics.endDate }
    /// The sources (with `.separateBySource`).
    ///
    /// ```swift
    /// statistics.sources?.map(\.name)
    /// ```
    public var sources: [HKSource]? {
        let sources = healthFlowStatistics.sources
        return sources.isEmpty ? nil : sources.map(HKSource.init(healthFlowSource:))
    }
    /// The sum.
    ///
    /// ```swift
    /// statistics.sumQuantity()
    /// ```
    public func sumQuantity() -> HKQuantity? { wrap(healthFlowStatistics.sumQuantity()) }
    /// One source's sum.
    ///
    /// ```swift
    /// statistics.sumQuantity(for: source)
    /// ```
    public func sumQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.sumQuantity(for: source.healthFlowSource))
    }
    /// The average.
    ///
    /// ```swift
    /// statistics.averageQuantity()
    /// ```
    public func averageQuantity() -> HKQuantity? { wrap(healthFlowStatistics.averageQuantity()) }
    /// One source's average.
    ///
    /// ```swift
    /// statistics.averageQuantity(for: source)
    /// ```
    public func averageQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.averageQuantity(for: source.healthFlowSource))
    }
    /// The minimum.
    ///
    /// ```swift
    /// statistics.minimumQuantity()
    /// ```
    public func minimumQuantity() -> HKQuantity? { wrap(healthFlowStatistics.minimumQuantity()) }
    /// One source's minimum.
    ///
    /// ```swift
    /// statistics.minimumQuantity(for: source)
    /// ```
    public func minimumQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.minimumQuantity(for: source.healthFlowSource))
    }
    /// The maximum.
    ///
    /// ```swift
    /// statistics.maximumQuantity()
    /// ```
    public func maximumQuantity() -> HKQuantity? { wrap(healthFlowStatistics.maximumQuantity()) }
    /// One source's maximum.
    ///
    /// ```swift
    /// statistics.maximumQuantity(for: source)
    /// ```
    public func maximumQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.maximumQuantity(for: source.healthFlowSource))
    }
    /// The most recent value.
    ///
    /// ```swift
    /// statistics.mostRecentQuantity()
    /// ```
    public func mostRecentQuantity() -> HKQuantity? { wrap(healthFlowStatistics.mostRecentQuantity()) }
    /// One source's most recent value.
    ///
    /// ```swift
    /// statistics.mostRecentQuantity(for: source)
    /// ```
    public func mostRecentQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.mostRecentQuantity(for: source.healthFlowSource))
    }
    /// When the most recent value was measured.
    ///
    /// ```swift
    /// statistics.mostRecentQuantityDateInterval()?.start
    /// ```
    public func mostRecentQuantityDateInterval() -> DateInterval? {
        healthFlowStatistics.mostRecentQuantityDateInterval()
    }
    /// When one source's most recent value was measured.
    ///
    /// ```swift
    /// statistics.mostRecentQuantityDateInterval(for: source)
    /// ```
    public func mostRecentQuantityDateInterval(for source: HKSource) -> DateInterval? {
        healthFlowStatistics.mostRecentQuantityDateInterval(for: source.healthFlowSource)
    }
    /// The total time covered.
    ///
    /// ```swift
    /// statistics.duration()?.doubleValue(for: .second())
    /// ```
    public func duration() -> HKQuantity? { wrap(healthFlowStatistics.duration()) }
    /// The time one source covered.
    ///
    /// ```swift
    /// statistics.duration(for: source)
    /// ```
    public func duration(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.duration(for: source.healthFlowSource))
    }
}

/// The statistics of equal intervals (days, hours) from a statistics collection query.
///
/// ```swift
/// collection.enumerateStatistics(from: weekAgo, to: now) { statistics, _ in print(statistics.sumQuantity() as Any) }
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKStatisticsCollection: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowCollection: StatisticsCollection

    init(healthFlowCollection: StatisticsCollection) {
        self.healthFlowCollection = healthFlowCollection
    }

    /// The interval containing `date`, or `nil` when it has no data.
    ///
    /// ```swift
    /// collection.statistics(for: noon)?.sumQuantity()
    /// ```
    public func statistics(for date: Date) -> HKStatistics? {
        healthFlowCollection.statistics(for: date).map(HKStatistics.init(healthFlowStatistics:))
    }

    /// Every interval from `startDate` to `endDate`, empty ones included, in order.
    ///
    /// ```swift
    /// collection.enumerateStatistics(from: start, to: end) { statistics, stop in }
    /// ```
    public func enumerateStatistics(
        from startDate: Date, to endDate: Date, with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        var flag = ObjCBool(false)
        do {
            try healthFlowCollection.enumerateStatistics(from: startDate, to: endDate) { statistics, stop in
                block(HKStatistics(healthFlowStatistics: statistics), &flag)
                stop = flag.boolValue
            }
        } catch {
            HKShimException.raise("Unable to enumerate statistics: \(error)")
        }
    }

    /// The intervals with data, in order.
    ///
    /// ```swift
    /// collection.statistics().count
    /// ```
    public func statistics() -> [HKStatistics] {
        healthFlowCollection.statistics().map(HKStatistics.init(healthFlowStatistics:))
    }

    /// The sources seen (with `.separateBySource`).
    ///
    /// ```swift
    /// collection.sources().count
    /// ```
    public func sources() -> Set<HKSource> {
        Set(healthFlowCollection.sources().map(HKSource.init(healthFlowSource:)))
    }
}
