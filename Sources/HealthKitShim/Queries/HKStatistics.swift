import Foundation
import HealthFlow

/// The result of a statistics query (or one interval of a collection): sum, average, min, max, most recent,
/// duration — overall and per source.
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
    public var quantityType: HKQuantityType { HKQuantityType(healthFlowType: healthFlowStatistics.quantityType) }
    /// The start of the matched samples (or of the interval).
    public var startDate: Date { healthFlowStatistics.startDate }
    /// The end of the matched samples (or of the interval).
    public var endDate: Date { healthFlowStatistics.endDate }
    /// The sources (with `.separateBySource`).
    public var sources: [HKSource]? {
        let sources = healthFlowStatistics.sources
        return sources.isEmpty ? nil : sources.map(HKSource.init(healthFlowSource:))
    }
    /// The sum.
    public func sumQuantity() -> HKQuantity? { wrap(healthFlowStatistics.sumQuantity()) }
    /// One source's sum.
    public func sumQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.sumQuantity(for: source.healthFlowSource))
    }
    /// The average.
    public func averageQuantity() -> HKQuantity? { wrap(healthFlowStatistics.averageQuantity()) }
    /// One source's average.
    public func averageQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.averageQuantity(for: source.healthFlowSource))
    }
    /// The minimum.
    public func minimumQuantity() -> HKQuantity? { wrap(healthFlowStatistics.minimumQuantity()) }
    /// One source's minimum.
    public func minimumQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.minimumQuantity(for: source.healthFlowSource))
    }
    /// The maximum.
    public func maximumQuantity() -> HKQuantity? { wrap(healthFlowStatistics.maximumQuantity()) }
    /// One source's maximum.
    public func maximumQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.maximumQuantity(for: source.healthFlowSource))
    }
    /// The most recent value.
    public func mostRecentQuantity() -> HKQuantity? { wrap(healthFlowStatistics.mostRecentQuantity()) }
    /// One source's most recent value.
    public func mostRecentQuantity(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.mostRecentQuantity(for: source.healthFlowSource))
    }
    /// When the most recent value was measured.
    public func mostRecentQuantityDateInterval() -> DateInterval? {
        healthFlowStatistics.mostRecentQuantityDateInterval()
    }
    /// When one source's most recent value was measured.
    public func mostRecentQuantityDateInterval(for source: HKSource) -> DateInterval? {
        healthFlowStatistics.mostRecentQuantityDateInterval(for: source.healthFlowSource)
    }
    /// The total time covered.
    public func duration() -> HKQuantity? { wrap(healthFlowStatistics.duration()) }
    /// The time one source covered.
    public func duration(for source: HKSource) -> HKQuantity? {
        wrap(healthFlowStatistics.duration(for: source.healthFlowSource))
    }
}

/// The statistics of equal intervals (days, hours) from a statistics collection query.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKStatisticsCollection: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowCollection: StatisticsCollection

    init(healthFlowCollection: StatisticsCollection) {
        self.healthFlowCollection = healthFlowCollection
    }

    /// The interval containing `date`, or `nil` when it has no data.
    public func statistics(for date: Date) -> HKStatistics? {
        healthFlowCollection.statistics(for: date).map(HKStatistics.init(healthFlowStatistics:))
    }

    /// Every interval from `startDate` to `endDate`, empty ones included, in order.
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
    public func statistics() -> [HKStatistics] {
        healthFlowCollection.statistics().map(HKStatistics.init(healthFlowStatistics:))
    }

    /// The sources seen (with `.separateBySource`).
    public func sources() -> Set<HKSource> {
        Set(healthFlowCollection.sources().map(HKSource.init(healthFlowSource:)))
    }
}
