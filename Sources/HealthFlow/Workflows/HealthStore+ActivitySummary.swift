import FlowKit

/// The promise twin of ``HealthActivitySummaryQuery``.
extension HealthStore {
    /// Runs a ``HealthActivitySummaryQuery``; cancelling the promise stops the query.
    ///
    /// - Parameter predicate: The days, or `nil` for every day with activity data.
    /// - Returns: A promise of the summaries, ascending by date (empty when the app may not read them).
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
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
