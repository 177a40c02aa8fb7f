import FlowKit
import Foundation

/// Promise twins of the statistics queries: ``HealthStatisticsQuery`` and a one-shot
/// ``HealthStatisticsCollectionQuery``, with the same outcomes as their callbacks (except that a statistics
/// query matching no sample fulfills with `nil` rather than failing with ``HealthStoreError/noData(_:)``).
/// Cancelling a promise stops its query.
extension HealthStore {
    /// Runs a ``HealthStatisticsQuery``; cancelling the promise stops the query.
    ///
    /// - Parameters:
    ///   - type: A quantity type.
    ///   - predicate: Which samples; its date range is the window. `nil` for all.
    ///   - options: What to compute; they must suit the type.
    /// - Returns: A promise of the statistics, or of `nil` when no sample the app can see matched; rejected
    ///   with the query's other errors.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func statistics(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil, options: StatisticsOptions
    ) -> Promise<HealthStatistics?> {
        Promise { resolver in
            let query = HealthStatisticsQuery(
                quantityType: type, quantitySamplePredicate: predicate, options: options
            ) { _, statistics, error in
                switch (statistics, error) {
                case (let statistics?, _): resolver.fulfill(statistics)
                case (nil, HealthStoreError.noData?): resolver.fulfill(nil)
                case (nil, let error?): resolver.reject(error)
                case (nil, nil): resolver.fulfill(nil)
                }
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }

    /// Runs a one-shot ``HealthStatisticsCollectionQuery`` (no update handler); cancelling the promise stops
    /// the query.
    ///
    /// - Parameters:
    ///   - type: A quantity type.
    ///   - predicate: Which samples; its date range sets the range of intervals. `nil` for all.
    ///   - options: What to compute; they must suit the type.
    ///   - anchorDate: The start of one interval.
    ///   - intervalComponents: The interval length.
    ///   - calendar: The calendar the intervals are counted in; the current one by default.
    /// - Returns: A promise of the collection.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func statisticsCollection(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil, options: StatisticsOptions,
        anchorDate: Date, intervalComponents: DateComponents, calendar: Calendar = .current
    ) -> Promise<StatisticsCollection> {
        Promise { resolver in
            let query = HealthStatisticsCollectionQuery(
                quantityType: type, quantitySamplePredicate: predicate, options: options, anchorDate: anchorDate,
                intervalComponents: intervalComponents, calendar: calendar
            ) { _, collection, error in
                resolver.resolve(collection, error)
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }
}
