import FlowKit

/// The `async` twin of ``HealthActivitySummaryQuery``, awaiting the promise twin.
extension HealthStore {
    /// Runs a ``HealthActivitySummaryQuery``.
    ///
    /// - Parameter predicate: The days, or `nil` for every day with activity data.
    /// - Returns: The summaries, ascending by date (empty when the app may not read them).
    /// - Throws: The query's ``HealthStoreError``.
    public func activitySummaries(matching predicate: ActivitySummaryPredicate?) async throws -> [ActivitySummary] {
        return try await firstly { activitySummaries(matching: predicate) }.value
    }
}
