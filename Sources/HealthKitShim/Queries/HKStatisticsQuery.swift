import Foundation
import HealthFlow

/// Computes statistics (sum, average, min, max, most recent, duration) over matching quantity samples.
/// Options that do not fit the type's aggregation style raise, as in HealthKit.
public final class HKStatisticsQuery: HKQuery, @unchecked Sendable {
    // @unchecked: restated from HKQuery; this subclass adds `let`s set once in init.
    private let handler: ShimCallback<(HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void>
    private let options: HKStatisticsOptions

    /// A statistics query.
    public init(
        quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
        completionHandler handler: @escaping (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void
    ) {
        if let reason = ShimStatisticsRules.exceptionReason(type: quantityType, options: options) {
            HKShimException.raise(reason)
        }
        self.handler = ShimCallback(call: handler)
        self.options = options
        super.init(type: quantityType.healthFlowType, predicate: quantitySamplePredicate)
    }

    override func makeHealthFlowQuery() -> HealthQuery {
        let handler = handler
        return HealthStatisticsQuery(
            quantityType: queriedType ?? .height, quantitySamplePredicate: samplePredicate,
            options: options.healthFlowOptions
        ) { [self] _, statistics, error in
            handler.call(self, statistics.map(HKStatistics.init(healthFlowStatistics:)), error.map(HKError.init))
        }
    }
}

/// Computes statistics for equal intervals (per day, per hour) from an anchor date. Options that do not fit
/// the type's aggregation style raise, as in HealthKit.
public final class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
    // @unchecked: restated from HKQuery; the handlers are set before `execute` and read once when it starts.

    /// The date one interval starts at.
    public let anchorDate: Date
    /// The options.
    public let options: HKStatisticsOptions
    /// The interval length.
    public let intervalComponents: DateComponents

    /// Called once with the first results.
    public var initialResultsHandler: ((HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void)?

    /// Called with new results as matching samples change (the query keeps running).
    public var statisticsUpdateHandler:
        ((HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?) -> Void)?

    /// A statistics collection query.
    public init(
        quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
        anchorDate: Date, intervalComponents: DateComponents
    ) {
        if let reason = ShimStatisticsRules.exceptionReason(type: quantityType, options: options) {
            HKShimException.raise(reason)
        }
        self.anchorDate = anchorDate
        self.options = options
        self.intervalComponents = intervalComponents
        super.init(type: quantityType.healthFlowType, predicate: quantitySamplePredicate)
    }

    private typealias InitialHandler = (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void
    private typealias UpdateHandler = (
        HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?
    ) -> Void

    override func makeHealthFlowQuery() -> HealthQuery {
        let initial: ShimCallback<InitialHandler>? = initialResultsHandler.map { ShimCallback(call: $0) }
        var forwardUpdates: HealthStatisticsCollectionQuery.Handler?
        if let handler = statisticsUpdateHandler {
            let updates = ShimCallback<UpdateHandler>(call: handler)
            forwardUpdates = { [self] _, collection, error in
                let wrapped = collection.map(HKStatisticsCollection.init(healthFlowCollection:))
                updates.call(self, wrapped?.statistics().last, wrapped, error.map(HKError.init))
            }
        }
        return HealthStatisticsCollectionQuery(
            quantityType: queriedType ?? .height, quantitySamplePredicate: samplePredicate,
            options: options.healthFlowOptions, anchorDate: anchorDate, intervalComponents: intervalComponents,
            calendar: .current, statisticsUpdateHandler: forwardUpdates
        ) { [self] _, collection, error in
            let wrapped = collection.map(HKStatisticsCollection.init(healthFlowCollection:))
            initial?.call(self, wrapped, error.map(HKError.init))
        }
    }
}

/// Fetches activity summaries (the rings) for days matching a predicate.
public final class HKActivitySummaryQuery: HKQuery, @unchecked Sendable {
    // @unchecked: restated from HKQuery; this subclass adds one `let` set in init.
    private let handler: ShimCallback<(HKActivitySummaryQuery, [HKActivitySummary]?, (any Error)?) -> Void>

    /// An activity summary query (`nil` predicate: every day).
    public init(
        predicate: NSPredicate?,
        resultsHandler handler: @escaping (HKActivitySummaryQuery, [HKActivitySummary]?, (any Error)?) -> Void
    ) {
        self.handler = ShimCallback(call: handler)
        super.init(type: .activitySummary, predicate: predicate)
    }

    override func makeHealthFlowQuery() -> HealthQuery {
        let handler = handler
        var days: ActivitySummaryPredicate?
        if let predicate {
            guard let shim = predicate as? ShimPredicate, case .activitySummaries(let range) = shim.payload else {
                HKShimException.raise("An activity summary query needs an activity summary predicate")
            }
            days = range
        }
        return HealthActivitySummaryQuery(predicate: days) { [self] _, summaries, error in
            handler.call(
                self, summaries?.map(HKActivitySummary.init(healthFlowSummary:)), error.map(HKError.init))
        }
    }
}
