import Foundation

/// Running statistics and statistics collection queries: the request is checked first, the visible
/// matching samples are gathered under the lock (so results follow the order of changes), and the pure
/// engines compute on the callback executor, outside the lock, just before the handler runs.
extension InMemoryHealthStore {
    func run(_ query: HealthStatisticsQuery) {
        let handler = query.completionHandler
        guard query.begin() else {
            deliver { handler(query, nil, HealthStoreError.queryAlreadyExecuted(query: query.name)) }
            return
        }
        let failure =
            isHealthDataAvailable
            ? StatisticsQueryEvaluation.requestError(type: query.objectType, options: query.options)
            : .healthDataUnavailable
        if let failure {
            deliver { if query.finish() { handler(query, nil, failure) } }
            return
        }
        withState { state, enqueue in
            let samples = state.visibleQuantitySamples(of: query.objectType, matching: query.predicate)
            enqueue {
                guard query.finish() else { return }
                do {
                    let statistics = try StatisticsQueryEvaluation.statistics(
                        of: query.objectType, samples: samples, options: query.options, predicate: query.predicate)
                    handler(query, statistics, nil)
                } catch {
                    handler(query, nil, error)
                }
            }
        }
    }

    func run(_ query: HealthStatisticsCollectionQuery) {
        let handler = query.initialResultsHandler
        guard query.begin() else {
            deliver { handler(query, nil, HealthStoreError.queryAlreadyExecuted(query: query.name)) }
            return
        }
        let failure =
            isHealthDataAvailable
            ? StatisticsQueryEvaluation.requestError(
                type: query.objectType, options: query.options,
                grid: (query.anchorDate, query.intervalComponents, query.calendar))
            : .healthDataUnavailable
        if let failure {
            deliver { if query.finish() { handler(query, nil, failure) } }
            return
        }
        withState { state, enqueue in
            let samples = state.visibleQuantitySamples(of: query.objectType, matching: query.predicate)
            guard let updateHandler = query.statisticsUpdateHandler else {
                enqueue { if query.finish() { Self.deliverCollection(of: samples, for: query, to: handler) } }
                return
            }
            // Follow matching, visible changes with an observer of the same type and predicate; each one it
            // reports gathers the samples afresh and delivers a new collection.
            let observer = HealthObserverQuery(sampleType: query.objectType, predicate: query.predicate) {
                [weak self] _, acknowledge, _ in
                acknowledge()
                self?.refresh(query, updateHandler: updateHandler)
            }
            if observer.begin(), query.attach(observer) { state.observe(observer) }
            enqueue { if query.isRunning { Self.deliverCollection(of: samples, for: query, to: handler) } }
        }
    }

    /// Gathers a running collection query's samples again and queues the new collection for its update
    /// handler.
    private func refresh(
        _ query: HealthStatisticsCollectionQuery, updateHandler: @escaping HealthStatisticsCollectionQuery.Handler
    ) {
        guard query.isRunning else { return }
        withState { state, enqueue in
            let samples = state.visibleQuantitySamples(of: query.objectType, matching: query.predicate)
            enqueue { if query.isRunning { Self.deliverCollection(of: samples, for: query, to: updateHandler) } }
        }
    }

    /// Builds the collection and hands it (or the error) to `handler`.
    private static func deliverCollection(
        of samples: [HealthQuantitySample], for query: HealthStatisticsCollectionQuery,
        to handler: HealthStatisticsCollectionQuery.Handler
    ) {
        do {
            let collection = try StatisticsQueryEvaluation.collection(
                of: query.objectType, samples: samples, options: query.options, predicate: query.predicate,
                anchorDate: query.anchorDate, intervalComponents: query.intervalComponents,
                calendar: query.calendar)
            handler(query, collection, nil)
        } catch {
            handler(query, nil, error)
        }
    }
}
