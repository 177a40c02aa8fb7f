import Foundation

/// Running statistics and statistics collection queries: the request is checked first, the visible
/// matching samples are gathered under the lock (so results follow the order of changes) — for collections,
/// as the type's statistics columns where they serve — and the pure engines compute on the callback executor,
/// outside the lock, just before the handler runs.
extension StoreEngine {
    /// Runs a statistics query.
    public func run(_ query: HealthStatisticsQuery, in execution: QueryExecution<HealthStatistics>) {
        withState { state, enqueue in
            let samples = state.visibleQuantitySamples(of: query.objectType, matching: query.predicate)
            enqueue(execution.resultsJob { StatisticsQueryEvaluation.statistics(of: samples, for: query) })
        }
    }

    /// Runs a statistics collection query; with an update handler, each matching visible change delivers a
    /// collection over the samples gathered afresh.
    public func run(_ query: HealthStatisticsCollectionQuery, in execution: QueryExecution<StatisticsCollection>) {
        withState { state, enqueue in
            let outcome = state.collectionOutcome(for: query)
            if execution.keepsRunning { state.watch(query, .collection(query, execution)) }
            enqueue(execution.resultsJob(computing: outcome))
        }
        forgetOnStop(execution)
    }
}
