import FlowKit

/// The promise twin of ``HealthActivitySummaryQuery``.
extension HealthStore {
    /// Runs a ``HealthActivitySummaryQuery``; cancelling the promise stops the query.
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
