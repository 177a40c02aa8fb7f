import Foundation

/// Running activity summary queries: summaries are derived from the stored samples with
/// `ActivitySummaryBuilder` and ``InMemoryHealthStore/activitySummaryGoals``; the samples are gathered under
/// the lock, the summaries built on the callback executor.
extension InMemoryHealthStore {
    /// Runs an activity summary query.
    public func run(_ query: HealthActivitySummaryQuery, in execution: QueryExecution<[ActivitySummary]>) {
        let predicate = query.activitySummaryPredicate
        let goals = activitySummaryGoals
        withState { state, enqueue in
            // Read denial is never revealed: without permission to read summaries there simply are none.
            guard state.authorization.mayRead(.activitySummary) else {
                return enqueue(execution.resultsJob(.success([])))
            }
            let samples = state.activitySummaryInputs(
                overlapping: ActivitySummaryQueryEvaluation.inputInterval(for: predicate))
            enqueue(
                execution.resultsJob {
                    ActivitySummaryQueryEvaluation.outcome(from: samples, predicate: predicate, goals: goals)
                })
        }
    }
}
