import FlowKit

/// The promise twin of ``HealthActivitySummaryQuery``.
///
/// ```swift
/// store.activitySummaries(matching: try ActivitySummaryPredicate(start: monday, end: sunday))
///     .done { week in drawRings(week) }
/// ```
extension HealthStore {
    /// Runs a ``HealthActivitySummaryQuery``; cancelling the promise stops the query.
    ///
    /// ```swift
    /// store.activitySummaries(matching: try ActivitySummaryPredicate(day: today)).done { show($0.first) }
    /// ```
    ///
    /// - Parameter predicate: The days, or `nil` for every day with activity data.
    /// - Returns: A promise of the summaries, ascending by date (empty when the app may not read them).
    public func activitySummaries(matching predicate: ActivitySummaryPredicate?) -> Promise<[ActivitySummary]> {
        Promise { resolver in
            let query = HealthActivitySummaryQuery(predicate: predicate) { _, summaries, error in
                resolver.resolve(summaries, error)
            }
            resolver.onCancel { stop(query) }
            execute(query)
        }
    }
}
