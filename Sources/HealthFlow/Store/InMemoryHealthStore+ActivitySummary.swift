import Foundation

/// Running activity summary queries: summaries are derived from the stored samples with
/// `ActivitySummaryBuilder` and ``InMemoryHealthStore/activitySummaryGoals``; the samples are gathered under
/// the lock, the summaries built on the callback executor.
extension InMemoryHealthStore {
    func run(_ query: HealthActivitySummaryQuery) {
        let handler = query.resultsHandler
        guard query.begin() else {
            deliver { handler(query, nil, HealthStoreError.queryAlreadyExecuted(query: query.name)) }
            return
        }
        guard isHealthDataAvailable else {
            deliver { if query.finish() { handler(query, nil, HealthStoreError.healthDataUnavailable) } }
            return
        }
        let predicate = query.activitySummaryPredicate
        let goals = activitySummaryGoals
        withState { state, enqueue in
            // Read denial is never revealed: without permission to read summaries there simply are none.
            let samples =
                state.authorization.mayRead(.activitySummary)
                ? state.activitySummaryInputs(
                    overlapping: ActivitySummaryQueryEvaluation.inputInterval(for: predicate)) : nil
            enqueue {
                guard query.finish() else { return }
                guard let samples else { return handler(query, [], nil) }
                do {
                    let summaries = try ActivitySummaryQueryEvaluation.summaries(
                        from: samples, predicate: predicate, goals: goals)
                    handler(query, summaries, nil)
                } catch {
                    handler(query, nil, error)
                }
            }
        }
    }
}
