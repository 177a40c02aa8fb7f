import FlowKit
import Foundation

/// `async` twins of the statistics queries, each awaiting its promise twin (so the styles cannot drift
/// apart). Cancelling the awaiting task stops the query.
extension HealthStore {
    /// Runs a ``HealthStatisticsQuery``.
    ///
    /// - Parameters:
    ///   - type: A quantity type.
    ///   - predicate: Which samples; its date range is the window. `nil` for all.
    ///   - options: What to compute; they must suit the type.
    /// - Returns: The statistics, or `nil` when no sample the app can see matched.
    /// - Throws: The query's ``HealthStoreError`` — ``HealthStoreError/incompatibleStatisticsOption(_:option:)``
    ///   for options that do not suit the type, and the like.
    public func statistics(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil, options: StatisticsOptions
    ) async throws -> HealthStatistics? {
        return try await firstly { statistics(of: type, matching: predicate, options: options) }.value
    }

    /// Runs a one-shot ``HealthStatisticsCollectionQuery``.
    ///
    /// - Parameters:
    ///   - type: A quantity type.
    ///   - predicate: Which samples; its date range sets the range of intervals. `nil` for all.
    ///   - options: What to compute; they must suit the type.
    ///   - anchorDate: The start of one interval.
    ///   - intervalComponents: The interval length.
    ///   - calendar: The calendar the intervals are counted in; the current one by default.
    /// - Returns: The collection.
    /// - Throws: The query's ``HealthStoreError``.
    public func statisticsCollection(
        of type: HealthObjectType, matching predicate: SamplePredicate? = nil, options: StatisticsOptions,
        anchorDate: Date, intervalComponents: DateComponents, calendar: Calendar = .current
    ) async throws -> StatisticsCollection {
        return try await firstly {
            statisticsCollection(
                of: type, matching: predicate, options: options, anchorDate: anchorDate,
                intervalComponents: intervalComponents, calendar: calendar)
        }.value
    }
}
